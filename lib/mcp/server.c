/*
 * server.c - the Model Context Protocol's side of `convctl mcp`: JSON-RPC 2.0
 * messages a line at a time (the stdio transport), the lifecycle
 * (initialize, the version agreed on, ping), tools/list and tools/call over
 * the table in tools.c. It reads its input through mcp_read_line() and
 * answers into a buffer; what a tool does is tools.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools.h"
#include "../base/lex.h"	/* lex_json(): JSON as the store reads it */

/* JSON-RPC 2.0's error codes */
enum {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_METHOD_NOT_FOUND = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_INTERNAL_ERROR = -32603,
	MCP_RESOURCE_NOT_FOUND = -32002,	/* the protocol's own */
};

/* what the official TypeScript SDK 1.x speaks, newest first */
const char *const mcp_versions[] = { "2025-11-25", "2025-06-18",
	"2025-03-26", "2024-11-05", NULL };

struct mcp_server {
	struct mcp_config cf;
	json_t *tools;			/* tools/list's answer, made once */
};

struct mcp_server *
mcp_new(const struct mcp_config *cf)
{
	struct mcp_server *s = xmalloc(sizeof(*s));
	const struct mcp_tool *t;
	json_error_t je;
	json_t *in, *out, *list = json_array();
	size_t i;

	s->cf = *cf;
	for (i = 0; i < mcp_ntools; i++) {
		t = &mcp_tools[i];
		if (t->writes && cf->read_only)
			continue;
		in = mcp_tool_schema(t);
		out = t->output != NULL ? json_loads(t->output, 0, &je) : NULL;
		if (out == NULL && t->output != NULL)
			abort();	/* a schema in tools.c is not JSON */
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o, s:o*, "
		    "s:{s:b, s:b}}", "name", t->name, "title", t->title,
		    "description", t->description, "inputSchema", in,
		    "outputSchema", out, "annotations", "readOnlyHint",
		    !t->writes, "destructiveHint", 0));
	}
	s->tools = json_pack("{s:o}", "tools", list);
	return s;
}

void
mcp_free(struct mcp_server *s)
{
	if (s == NULL)
		return;
	json_decref(s->tools);
	free(s);
}

/* one message and its newline; v's reference is taken */
static void
emit(struct buf *out, json_t *v)
{
	json_dump_buf(out, v);
	buf_addc(out, '\n');
	json_decref(v);
}

/* id NULL: the request's could not be read (null) */
static void
reply_error(struct buf *out, json_t *id, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
reply_error(struct buf *out, json_t *id, int code, const char *fmt, ...)
{
	struct buf msg = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	emit(out, json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0",
	    "id", id != NULL ? id : json_null(), "error", "code", code,
	    "message", msg.data));
	buf_free(&msg);
}

static void
reply(struct buf *out, json_t *id, json_t *result)
{
	emit(out, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id,
	    "result", result));
}

/* v's text as a message shows it, its NUL bytes and controls escaped as in
 * JSON; it lives in b, which the caller frees */
static const char *
shown(struct buf *b, const json_t *v)
{
	buf_adds(b, "");
	json_escape(b, json_string_value(v), json_string_length(v));
	return b->data;
}

/* name (json_name()'s, NULL: none) is want, whole */
static int
is(const char *name, const char *want)
{
	return name != NULL && strcmp(name, want) == 0;
}

static json_t *
initialize(json_t *params)
{
	const char *want = json_name(json_object_get(params,
	    "protocolVersion"));
	const char *v = mcp_versions[0];
	size_t i;

	/* the one asked for when spoken, else the newest (the client
	 * disconnects when it speaks none of ours) */
	for (i = 0; mcp_versions[i] != NULL; i++)
		if (is(want, mcp_versions[i]))
			v = mcp_versions[i];
	return json_pack("{s:s, s:{s:{s:b}, s:{s:b, s:b}, s:{s:b}}, "
	    "s:{s:s, s:s, s:s}, s:s}",
	    "protocolVersion", v, "capabilities", "tools", "listChanged", 0,
	    "resources", "subscribe", 0, "listChanged", 0, "prompts",
	    "listChanged", 0,
	    "serverInfo", "name", "convctl", "title", "convctl",
	    "version", CONVCTL_VERSION, "instructions",
	    "The conversations kept by convctl: search them, list the recent "
	    "ones, show one, get the active one as context, and record "
	    "messages into it (add, end, title, tag). Each conversation is "
	    "also a resource (" "convctl://conversation/ID, as markdown; "
	    "ID.json as JSON), and the prompt resume gives one as messages "
	    "to go on from.");
}

static const struct mcp_tool *
find_tool(const char *name)
{
	size_t i;

	for (i = 0; i < mcp_ntools; i++)
		if (is(name, mcp_tools[i].name))
			return &mcp_tools[i];
	return NULL;
}

static void
call_tool(struct mcp_server *s, json_t *id, json_t *params, struct buf *out)
{
	json_t *name = json_object_get(params, "name");
	json_t *args = json_object_get(params, "arguments");
	const struct mcp_tool *t;
	struct mcp_answer a = { { 0 }, NULL, 0 };
	struct buf b = { 0 };
	json_t *empty = NULL, *res;

	if (!json_is_text(name)) {
		reply_error(out, id, RPC_INVALID_PARAMS, "tools/call: params "
		    "need the tool's name as a string");
		return;
	}
	/* a name holding a NUL byte names no tool */
	if ((t = find_tool(json_name(name))) == NULL ||
	    (t->writes && s->cf.read_only)) {
		reply_error(out, id, RPC_INVALID_PARAMS, "unknown tool '%s'%s",
		    shown(&b, name), t != NULL ?
		    " (it writes, and the server is read-only)" : "");
		buf_free(&b);
		return;
	}
	if (args != NULL && !json_is_object(args)) {
		reply_error(out, id, RPC_INVALID_PARAMS, "tools/call: "
		    "arguments must be an object");
		return;
	}
	if (args == NULL)
		args = empty = json_object();
	mcp_tool_call(t, &s->cf, args, &a);
	/* structured content is what Claude Code and Codex give their model,
	 * and the text item then its JSON, as the specification asks; a tool
	 * without it (show, context) answers the text asked for alone */
	if (a.structured != NULL && !a.is_error) {
		a.text.len = 0;
		json_dump_buf(&a.text, a.structured);
	}
	res = json_pack("{s:[{s:s, s:s%}], s:b}", "content", "type", "text",
	    "text", a.text.data != NULL ? a.text.data : "", a.text.len,
	    "isError", a.is_error);
	if (a.structured != NULL && !a.is_error)
		json_object_set(res, "structuredContent", a.structured);
	reply(out, id, res);
	json_decref(a.structured);
	json_decref(empty);
	buf_free(&a.text);
}

/* what resources.c came to, as the answer to id */
static void
outcome(struct buf *out, json_t *id, enum mcp_outcome o, json_t *result,
    const struct error *e)
{
	switch (o) {
	case MCP_DONE:
		reply(out, id, result);
		break;
	case MCP_BAD_PARAMS:
		reply_error(out, id, RPC_INVALID_PARAMS, "%s", e->msg);
		break;
	case MCP_NOT_FOUND:
		reply_error(out, id, MCP_RESOURCE_NOT_FOUND, "%s", e->msg);
		break;
	case MCP_FAILED:
		reply_error(out, id, RPC_INTERNAL_ERROR, "%s", e->msg);
		break;
	}
}

/* params' key, a string without a NUL byte, or absent (and not required):
 * 0; else the -32602 answer, and -1 */
static int
param_str(struct buf *out, json_t *id, const char *method, json_t *params,
    const char *key, int required, const char **s)
{
	json_t *v = json_object_get(params, key);

	*s = NULL;
	if (v == NULL && !required)
		return 0;
	if ((*s = json_name(v)) != NULL)
		return 0;
	reply_error(out, id, RPC_INVALID_PARAMS, "%s: params need the %s as "
	    "a string", method, key);
	return -1;
}

static void
resources(struct mcp_server *s, json_t *id, const char *method,
    json_t *params, struct buf *out)
{
	json_t *result = NULL;
	enum mcp_outcome o;
	struct error e;
	const char *v;

	if (is(method, "resources/templates/list")) {
		reply(out, id, mcp_resource_templates());
		return;
	}
	if (is(method, "resources/list")) {
		if (param_str(out, id, method, params, "cursor", 0, &v) < 0)
			return;
		o = mcp_resources_list(&s->cf, v, &result, &e);
	} else {
		if (param_str(out, id, method, params, "uri", 1, &v) < 0)
			return;
		o = mcp_resource_read(&s->cf, v, &result, &e);
	}
	outcome(out, id, o, result, &e);
}

static void
prompt_get(struct mcp_server *s, json_t *id, json_t *params, struct buf *out)
{
	json_t *result = NULL;
	enum mcp_outcome o;
	struct error e;
	const char *name;

	if (param_str(out, id, "prompts/get", params, "name", 1, &name) < 0)
		return;
	o = mcp_prompt_get(&s->cf, name, json_object_get(params, "arguments"),
	    &result, &e);
	outcome(out, id, o, result, &e);
}

/* a request's id: a string or a whole number (MCP allows no other; one
 * past int64_t, or a real, is read as a number text, and refused) */
static int
valid_id(const json_t *id)
{
	return json_is_text(id) || json_is_integer(id);
}

/* a line of JSON whitespace only: no message (the blank line between two) */
static int
blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return 0;
	return 1;
}

/*
 * The message line[0..len) holds: jansson's reading, else, where jansson
 * refuses only what JSON allows (an integer past int64_t, a real past the
 * double's range, a key holding a NUL byte), the store's (lex_json(), a
 * number kept as its text), so a valid message is never a parse error.
 * NULL, and the -32700 reply appended to out, when it is not JSON.
 */
static json_t *
parse(const char *line, size_t len, struct buf *out)
{
	json_error_t je;
	json_t *msg;
	int ln, col;

	if ((msg = json_loadb(line, len, JSON_LOAD_FLAGS | JSON_DECODE_ANY,
	    &je)) != NULL || (msg = lex_json(line, len)) != NULL)
		return msg;
	json_error_place(line, len, &je, &ln, &col);
	reply_error(out, NULL, RPC_PARSE_ERROR, "parse error at column %d: %s",
	    col, je.text);
	return NULL;
}

void
mcp_handle(struct mcp_server *s, const char *line, size_t len,
    struct buf *out)
{
	json_t *msg, *id, *method, *params;
	struct buf b = { 0 };
	const char *name;

	/* the transport frames messages by newlines; an empty frame holds
	 * none, and there is nothing to answer */
	if (blank(line, len) || (msg = parse(line, len, out)) == NULL)
		return;
	id = json_object_get(msg, "id");
	method = json_object_get(msg, "method");
	params = json_object_get(msg, "params");
	/* a batch (an array) was dropped from the protocol in 2025-06-18 */
	if (!json_is_object(msg) ||
	    !is(json_name(json_object_get(msg, "jsonrpc")), "2.0")) {
		reply_error(out, valid_id(id) ? id : NULL, RPC_INVALID_REQUEST,
		    "invalid request: not a JSON-RPC 2.0 message object");
		goto out;
	}
	if (!json_is_text(method)) {
		/* a response: we send no requests; a bad message otherwise */
		if (json_object_get(msg, "result") == NULL &&
		    json_object_get(msg, "error") == NULL)
			reply_error(out, valid_id(id) ? id : NULL,
			    RPC_INVALID_REQUEST, "invalid request: %s",
			    method == NULL ? "no method" :
			    "the method must be a string");
		goto out;
	}
	if (id == NULL)
		goto out;	/* a notification: nothing is answered */
	if (!valid_id(id)) {
		reply_error(out, NULL, RPC_INVALID_REQUEST, "invalid request: "
		    "the id must be a string or a whole number from "
		    "-9223372036854775808 to 9223372036854775807");
		goto out;
	}
	if (params != NULL && !json_is_object(params)) {
		reply_error(out, id, RPC_INVALID_PARAMS, "%s: params must be "
		    "an object", shown(&b, method));
		goto out;
	}
	/* compared whole: a name holding a NUL byte is none of these */
	name = json_name(method);
	if (is(name, "initialize"))
		reply(out, id, initialize(params));
	else if (is(name, "ping"))
		reply(out, id, json_object());
	else if (is(name, "tools/list"))
		reply(out, id, json_incref(s->tools));
	else if (is(name, "tools/call"))
		call_tool(s, id, params, out);
	else if (is(name, "resources/list") || is(name, "resources/read") ||
	    is(name, "resources/templates/list"))
		resources(s, id, name, params, out);
	else if (is(name, "prompts/list"))
		reply(out, id, mcp_prompts());
	else if (is(name, "prompts/get"))
		prompt_get(s, id, params, out);
	else
		reply_error(out, id, RPC_METHOD_NOT_FOUND, "method not found: "
		    "'%s'", shown(&b, method));
out:
	buf_free(&b);
	json_decref(msg);
}

void
mcp_too_large(struct buf *out, size_t max)
{
	reply_error(out, NULL, RPC_INVALID_REQUEST, "invalid request: a "
	    "message is larger than the limit of %zu bytes (max_message_bytes "
	    "and %d)", max, MCP_ENVELOPE_BYTES);
}

enum mcp_read
mcp_read_line(struct mcp_reader *r, size_t max, struct buf *line,
    struct error *e)
{
	char *nl;
	size_t n;
	ssize_t got;

	line->len = 0;
	for (;;) {
		if (r->start < r->end) {
			nl = memchr(r->buf + r->start, '\n', r->end - r->start);
			n = (nl != NULL ? (size_t)(nl - r->buf) : r->end) -
			    r->start;
			if (!r->skipping) {
				if (line->len + n > max) {
					/* refused now: the rest is dropped
					 * as it comes, never held */
					r->skipping = 1;
					line->len = 0;
					r->start += n;
					if (nl != NULL) {
						r->skipping = 0;
						r->start++;
					}
					return MCP_READ_TOO_LARGE;
				}
				buf_add(line, r->buf + r->start, n);
			}
			r->start += n;
			if (nl != NULL) {
				r->start++;
				if (r->skipping) {
					r->skipping = 0;
					continue;
				}
				if (line->len > 0 &&
				    line->data[line->len - 1] == '\r')
					line->data[--line->len] = '\0';
				return MCP_READ_LINE;
			}
		}
		if (r->eof)
			return line->len > 0 ? MCP_READ_LINE : MCP_READ_EOF;
		r->start = r->end = 0;
		got = read(r->fd, r->buf, sizeof(r->buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return error_errno(e, "cannot read standard input");
		if (got == 0) {
			r->eof = 1;
			/* a last line without its newline is one too */
			if (r->skipping)
				return MCP_READ_EOF;
			continue;
		}
		r->end = (size_t)got;
	}
}
