/*
 * resources.c - the conversations of `convctl mcp` as resources (listed a
 * page at a time, newest first; read as markdown, or JSON) and the prompt
 * "resume" (a conversation as messages to go on from). Like the tools, each
 * request opens the store to read and closes it before the answer; these
 * know nothing of JSON-RPC but the outcome they return.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

#define URI_PREFIX "convctl://conversation/"
#define JSON_SUFFIX ".json"

/* an id in a URI: every byte but [A-Za-z0-9_~-] percent-encoded, a dot
 * too, so that ".json" can only be the suffix */
static void
uri_of(struct buf *b, const char *id, int json)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;

	buf_adds(b, URI_PREFIX);
	for (p = (const unsigned char *)id; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    *p == '~')
			buf_addc(b, (char)*p);
		else
			buf_addf(b, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
	if (json)
		buf_adds(b, JSON_SUFFIX);
}

/* uri's id (percent-decoded, into id) and whether it asks for JSON; -1
 * when it names no conversation */
static int
uri_parse(const char *uri, struct buf *id, int *json)
{
	size_t n, i, plen = strlen(URI_PREFIX), slen = strlen(JSON_SUFFIX);

	n = strlen(uri);
	if (n <= plen || strncmp(uri, URI_PREFIX, plen) != 0)
		return -1;
	uri += plen;
	n -= plen;
	*json = n > slen && strcmp(uri + n - slen, JSON_SUFFIX) == 0;
	if (*json)
		n -= slen;
	for (i = 0; i < n; i++)
		if (uri[i] == '/' || uri[i] == '?' || uri[i] == '#')
			return -1;
	if (buf_add_percent_decoded(id, uri, n) < 0)
		return -1;
	return id->len > 0 ? 0 : -1;
}

/* e says what is wrong with the request's params */
static enum mcp_outcome
bad_params(struct error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static enum mcp_outcome
bad_params(struct error *e, const char *fmt, ...)
{
	struct buf msg = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_set(e, "%s", msg.data);
	buf_free(&msg);
	return MCP_BAD_PARAMS;
}

static struct store *
open_read(const struct mcp_config *cf, struct error *e)
{
	struct store *st = NULL;

	if (lifecycle_begin(cf->settings, STORE_READ, &st, e) < 0)
		return NULL;
	return st;
}

static json_t *
resource_of(struct conv *c)
{
	struct buf uri = { 0 };
	char at[TS_LEN];
	json_t *r;

	uri_of(&uri, conv_id(c), 0);
	ts_format(conv_ended(c) >= 0 ? conv_ended(c) : conv_last_activity(c),
	    at);
	r = json_pack("{s:s, s:s, s:s, s:{s:s}}", "uri", uri.data, "name",
	    conv_id(c), "mimeType", "text/markdown", "annotations",
	    "lastModified", at);
	if (conv_title(c) != NULL)
		json_object_set_new(r, "title", json_string(conv_title(c)));
	if (conv_summary(c) != NULL)
		json_object_set_new(r, "description",
		    json_string(conv_summary(c)));
	buf_free(&uri);
	return r;
}

enum mcp_outcome
mcp_resources_list(const struct mcp_config *cf, const char *cursor,
    json_t **result, struct error *e)
{
	struct store *st;
	struct conv *active, **v = NULL;
	json_t *list;
	size_t from = 0, n, i, k;
	char *end;
	int rc = MCP_FAILED;

	if (cursor != NULL) {
		/* ours: a position in the list, newest first */
		if (*cursor < '0' || *cursor > '9' ||
		    (from = strtoul(cursor, &end, 10)) > RESULTS_MAX ||
		    *end != '\0')
			return bad_params(e, "resources/list: invalid cursor "
			    "'%s'", cursor);
	}
	if ((st = open_read(cf, e)) == NULL)
		return MCP_FAILED;
	if (store_load_active(st, e) < 0)
		goto out;
	active = store_active(st);
	k = active != NULL;
	/* the ended ones up to this page's end and one more, without their
	 * messages: on a database, those rows' heads only */
	if (store_load_ended(st, from + MCP_PAGE + 1 - k, 0, e) < 0)
		goto out;
	v = store_ended(st, &n);
	list = json_array();
	for (i = from; i < from + MCP_PAGE && i < n + k; i++)
		json_array_append_new(list, resource_of(i < k ? active :
		    v[i - k]));
	*result = json_pack("{s:o}", "resources", list);
	if (from + MCP_PAGE < n + k) {
		char next[24];

		snprintf(next, sizeof(next), "%zu", from + MCP_PAGE);
		json_object_set_new(*result, "nextCursor", json_string(next));
	}
	rc = MCP_DONE;
out:
	free(v);
	store_close(st);
	return rc;
}

json_t *
mcp_resource_templates(void)
{
	return json_pack("{s:[{s:s, s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, "
	    "s:s, s:s}]}", "resourceTemplates",
	    "uriTemplate", URI_PREFIX "{id}", "name", "conversation",
	    "title", "A conversation, as markdown",
	    "description", "One conversation by its id (convctl show --format "
	    "markdown)", "mimeType", "text/markdown",
	    "uriTemplate", URI_PREFIX "{id}" JSON_SUFFIX, "name",
	    "conversation-json", "title", "A conversation, as JSON",
	    "description", "One conversation by its id, as the store keeps it "
	    "(convctl show --json)", "mimeType", "application/json");
}

enum mcp_outcome
mcp_resource_read(const struct mcp_config *cf, const char *uri,
    json_t **result, struct error *e)
{
	struct buf id = { 0 }, text = { 0 };
	struct store *st = NULL;
	struct conv *c;
	int json, rc = MCP_FAILED;

	if (uri_parse(uri, &id, &json) < 0) {
		error_set(e, "resource not found: '%s' (convctl's are "
		    URI_PREFIX "ID and " URI_PREFIX "ID" JSON_SUFFIX ")", uri);
		rc = MCP_NOT_FOUND;
		goto out;
	}
	if ((st = open_read(cf, e)) == NULL ||
	    store_load_id(st, id.data, e) < 0)
		goto out;
	if ((c = store_find(st, id.data)) == NULL) {
		error_set(e, "resource not found: no conversation '%s'",
		    id.data);
		rc = MCP_NOT_FOUND;
		goto out;
	}
	if (render_conv(&text, c, json ? FMT_JSON : FMT_MARKDOWN, 0, e) < 0)
		goto out;
	*result = json_pack("{s:[{s:s, s:s, s:s%}]}", "contents", "uri", uri,
	    "mimeType", json ? "application/json" : "text/markdown", "text",
	    text.data, text.len);
	rc = MCP_DONE;
out:
	store_close(st);
	buf_free(&text);
	buf_free(&id);
	return rc;
}

const struct mcp_tool mcp_prompt_resume = {
	.name = "resume", .title = "Resume a conversation",
	.description = "A conversation kept by convctl as messages to go on "
	    "from (convctl prompt): the active one, else the one that ended "
	    "last",
	.args = { args_resume_prompt, NULL, NULL },
};

json_t *
mcp_prompts(void)
{
	const struct mcp_tool *p = &mcp_prompt_resume;

	return json_pack("{s:[{s:s, s:s, s:s, s:o}]}", "prompts", "name",
	    p->name, "title", p->title, "description", p->description,
	    "arguments", mcp_prompt_arguments(p));
}

enum mcp_outcome
mcp_prompt_get(const struct mcp_config *cf, const char *name, json_t *args,
    json_t **result, struct error *e)
{
	/* max_tokens named as the argument in an error */
	struct prompt_request rq = { FMT_OPENAI, -1, -1, 0, 0, "max_tokens" };
	struct buf text = { 0 }, desc = { 0 };
	struct store *st = NULL;
	struct conv *c = NULL;
	struct error re;
	json_t *msgs = NULL, *m, *out, *v, *empty = NULL;
	struct mcp_answer a = { { 0 }, NULL, 0 };
	struct tool_args ta = { .n = 0 };
	const char *id, *role;
	size_t i;
	int rc = MCP_FAILED;

	if (name == NULL || strcmp(name, "resume") != 0)
		return bad_params(e, "prompts/get: unknown prompt '%s'",
		    name != NULL ? name : "");
	if (args != NULL && !json_is_object(args))
		return bad_params(e, "prompts/get: arguments must be an "
		    "object");
	/* by its rows (lib/args: args_resume_prompt), as a tool's */
	if (prompt_args_parse(&mcp_prompt_resume, args != NULL ? args :
	    (empty = json_object()), &ta, &a) < 0) {
		error_set(e, "prompts/get: %s", a.text.data);
		rc = MCP_BAD_PARAMS;
		goto out;
	}
	id = tool_str(&ta, "id");
	rq.last = tool_long(&ta, "last", -1);
	rq.max_tokens = tool_long(&ta, "max_tokens", -1);
	if ((st = open_read(cf, e)) == NULL)
		goto out;
	if (id != NULL) {
		if (store_load_id(st, id, e) < 0)
			goto out;
		if ((c = store_find(st, id)) == NULL) {
			error_set(e, "prompts/get: no conversation '%s'", id);
			rc = MCP_BAD_PARAMS;
			goto out;
		}
	} else if (conv_default(st, 1, &c, e) < 0)
		goto out;
	else if (c == NULL) {
		error_set(e, "prompts/get: no conversation to resume: the store "
		    "holds none");
		rc = MCP_BAD_PARAMS;
		goto out;
	}
	/* what refuses a budget (the opening system messages over it) */
	if ((msgs = render_prompt_json(c, &rq, &re)) == NULL) {
		error_set(e, "prompts/get: %s", re.msg);
		rc = MCP_BAD_PARAMS;
		goto out;
	}
	out = json_array();
	/* a prompt's messages are the user's or the assistant's: the others
	 * (system, tool) are the user's, named as the text format names them */
	json_array_foreach(msgs, i, m) {
		role = json_string_value(json_object_get(m, "role"));
		v = json_object_get(m, "content");
		text.len = 0;
		if (strcmp(role, "user") != 0 && strcmp(role, "assistant") != 0)
			buf_addf(&text, "[%s] ", role);
		buf_add(&text, json_string_value(v), json_string_length(v));
		json_array_append_new(out, json_pack("{s:s, s:{s:s, s:s%}}",
		    "role", strcmp(role, "assistant") == 0 ? "assistant" :
		    "user", "content", "type", "text", "text", text.data,
		    text.len));
	}
	buf_addf(&desc, "conversation %s%s%s%s", conv_id(c),
	    conv_title(c) != NULL ? " (" : "",
	    conv_title(c) != NULL ? conv_title(c) : "",
	    conv_title(c) != NULL ? ")" : "");
	if (rq.cut > 0)
		buf_addf(&desc, "; the newest message alone is over max_tokens "
		    "%ld: its first %zu characters are cut", rq.max_tokens,
		    rq.cut);
	*result = json_pack("{s:s, s:o}", "description", desc.data,
	    "messages", out);
	rc = MCP_DONE;
out:
	tool_args_free(&ta);
	buf_free(&a.text);
	json_decref(empty);
	json_decref(msgs);
	store_close(st);
	buf_free(&text);
	buf_free(&desc);
	return rc;
}
