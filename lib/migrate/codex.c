/*
 * codex.c - migrate's codex format: a Codex CLI rollout, the JSON lines of
 * ~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl, one conversation. It knows
 * the reader interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

struct codex_state {
	json_t *msgs;
	json_t *meta;		/* session_meta's payload, or NULL */
	int64_t started;	/* session_meta's time; -1 without one */
	json_t *harness;	/* context Codex sent as the user's: lines */
};

/* Codex's own marks of what a content item is: a list of {"provenance":
 * {"type": T}}, T "user" for what the user typed */
static json_t *
item_metadata(json_t *p)
{
	return json_object_get(json_object_get(p,
	    "internal_chat_message_metadata_passthrough"),
	    "content_item_metadata");
}

/* text Codex puts in a user message of its own, where older rollouts have
 * no marks: its environment, the project's instructions */
static int
harness_text(const char *t)
{
	static const char *const starts[] = { "<environment_context>",
	    "<user_instructions>", "# AGENTS.md instructions for ", NULL };
	size_t i;

	for (i = 0; starts[i] != NULL; i++)
		if (strncmp(t, starts[i], strlen(starts[i])) == 0)
			return 1;
	return 0;
}

/*
 * p, a response item, is a user message Codex wrote itself (environment context, AGENTS.md): its
 * items' provenance, none of them "user"; without those marks, text parts
 * that all start as Codex's context does
 */
static int
from_harness(json_t *p)
{
	json_t *meta = item_metadata(p), *v;
	size_t i, n = 0;
	const char *type = json_str(p, "type", NULL), *role = json_str(p, "role",
	    NULL);

	if (type == NULL || strcmp(type, "message") != 0 || role == NULL ||
	    strcmp(role, "user") != 0)
		return 0;
	if (json_array_size(meta) > 0) {
		json_array_foreach(meta, i, v) {
			type = json_str(json_object_get(v, "provenance"), "type",
			    NULL);
			if (type == NULL || strcmp(type, "user") == 0)
				return 0;
		}
		return 1;
	}
	json_array_foreach(json_object_get(p, "content"), i, v) {
		if (json_str(v, "text", NULL) == NULL)
			continue;
		if (!harness_text(json_str(v, "text", NULL)))
			return 0;
		n++;
	}
	return n > 0;
}

/* a rollout line: {timestamp, type, payload}, of one of Codex's types */
int
mig_detect_codex(json_t *line)
{
	static const char *const types[] = { "session_meta", "response_item",
	    "event_msg", "turn_context", "compacted", NULL };
	const char *type = json_str(line, "type", NULL);
	size_t i;

	if (type == NULL || !json_is_object(json_object_get(line, "payload")))
		return 0;
	for (i = 0; types[i] != NULL; i++)
		if (strcmp(type, types[i]) == 0)
			return 1;
	return 0;
}

/* Responses API roles onto the store's */
static const char *
codex_role(const char *role)
{
	if (strcmp(role, "developer") == 0 || strcmp(role, "system") == 0)
		return "system";
	if (strcmp(role, "user") == 0 || strcmp(role, "assistant") == 0)
		return role;
	return NULL;
}

/* a call's output: a string, or an object holding "content" or "output" */
static void
output_text(json_t *v, struct buf *b)
{
	const char *t;
	size_t len;

	if (json_is_string(v))
		buf_add(b, json_string_value(v), json_string_length(v));
	else if ((t = json_str(v, "content", &len)) != NULL ||
	    (t = json_str(v, "output", &len)) != NULL)
		buf_add(b, t, len);
	else if (v != NULL && !json_is_null(v))
		json_dump_buf(b, v);
}

/* one response_item's payload: a message, a call or a call's output;
 * role NULL when it is none of these (reasoning…): skipped; *partial: the
 * message held parts that are not text (an image) */
static int
codex_item(struct mig_reader *r, json_t *p, size_t line, const char **role,
    struct buf *text, json_t *tools, int *partial, struct error *e)
{
	const char *type = json_str(p, "type", NULL), *name;
	json_t *v;

	*role = NULL;
	*partial = 0;
	if (type == NULL)
		return mig_bad(r, e, "line %zu: payload.type: expected a string",
		    line);
	if (strcmp(type, "message") == 0) {
		v = json_object_get(p, "role");
		if (!json_is_string(v))
			return mig_bad(r, e, "line %zu: payload.role: expected a "
			    "string", line);
		if ((*role = codex_role(json_string_value(v))) == NULL)
			return mig_bad(r, e, "line %zu: payload.role: unknown "
			    "role '%s' (expected user, assistant, developer or "
			    "system)", line, json_string_value(v));
		mig_content_text(json_object_get(p, "content"), text, partial);
	} else if (strcmp(type, "function_call") == 0 ||
	    strcmp(type, "custom_tool_call") == 0) {
		if ((name = json_str(p, "name", NULL)) == NULL)
			return mig_bad(r, e, "line %zu: payload.name: expected a "
			    "string", line);
		*role = "assistant";
		mig_tool_add(tools, name);
	} else if (strcmp(type, "local_shell_call") == 0 ||
	    strcmp(type, "web_search_call") == 0) {
		*role = "assistant";	/* the tool is the call's kind */
		v = json_stringn(type, strlen(type) - strlen("_call"));
		mig_tool_add(tools, json_string_value(v));
		json_decref(v);
	} else if (strcmp(type, "function_call_output") == 0 ||
	    strcmp(type, "custom_tool_call_output") == 0) {
		*role = "tool";
		output_text(json_object_get(p, "output"), text);
	}
	return 0;
}

static int
codex_line(struct mig_reader *r, void *arg, json_t *rec, size_t line,
    struct error *e)
{
	/* the content is kept too when it held more than text */
	static const char *const mapped[] = { "id", "role", "content", NULL };
	static const char *const all_but_text[] = { "id", "role", NULL };
	struct codex_state *st = arg;
	struct buf text = { 0 }, id = { 0 }, where = { 0 };
	json_t *p, *tools = json_array(), *msg, *keep;
	const char *type, *role;
	int64_t ms;
	int rc = -1, partial;

	if (!json_is_object(rec)) {
		mig_bad(r, e, "line %zu: expected a JSON object", line);
		goto out;
	}
	type = json_str(rec, "type", NULL);
	p = json_object_get(rec, "payload");
	if (type == NULL || !json_is_object(p)) {
		mig_bad(r, e, "line %zu: %s", line, type == NULL ? "type: "
		    "expected a string" : "payload: expected an object");
		goto out;
	}
	rc = 0;
	if (strcmp(type, "session_meta") == 0 && st->meta == NULL) {
		st->meta = json_incref(p);
		/* the session's start: its own time, else the line's */
		if (mig_time_of(json_object_get(p, "timestamp"), &st->started) < 0 &&
		    mig_time_of(json_object_get(rec, "timestamp"), &st->started) < 0)
			st->started = -1;
	}
	/* event_msg repeats the response items; turn_context is settings */
	if (strcmp(type, "response_item") != 0)
		goto out;
	/* not the user's words: kept with the conversation, not a message */
	if (from_harness(p)) {
		json_array_append(st->harness, rec);
		goto out;
	}
	rc = -1;
	if (codex_item(r, p, line, &role, &text, tools, &partial, e) < 0)
		goto out;
	rc = 0;
	if (role == NULL)
		goto out;
	rc = -1;
	if (mig_want_time(r, json_object_get(rec, "timestamp"),
	    mig_path(&where, "line %zu: timestamp", line), &ms, e) < 0)
		goto out;
	if (json_str(p, "id", NULL) != NULL)
		buf_adds(&id, json_str(p, "id", NULL));
	else
		mig_message_id(&id, ms, json_array_size(st->msgs));
	msg = mig_message(id.data, ms, role, text.data ? text.data : "",
	    text.len);
	mig_set_tools(msg, tools);
	keep = json_object();
	mig_keep_extra(keep, p, partial ? all_but_text : mapped);
	json_object_set_new(msg, "imported", keep);
	json_array_append_new(st->msgs, msg);
	rc = 0;
out:
	json_decref(tools);
	buf_free(&text);
	buf_free(&id);
	buf_free(&where);
	return rc;
}

/* rollout-2025-05-07T17-24-21-UUID: the UUID at the end of its name */
static const char *
session_uuid(const char *name)
{
	size_t n = strlen(name);

	return n > 36 && name[n - 37] == '-' && name[n - 28] == '-' ?
	    name + n - 36 : name;
}

int
mig_read_codex(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	static const char *const mapped[] = { "id", NULL };
	struct codex_state st = { 0 };
	const char *id;
	json_t *c, *keep;
	int rc = -1;

	char ts[TS_LEN];

	st.msgs = json_array();
	st.harness = json_array();
	st.started = -1;
	if (mig_lines(r, in->text, in->len, codex_line, &st, e) < 0)
		goto out;
	rc = 0;
	id = json_str(st.meta, "id", NULL);
	if ((c = mig_session_of(r, id ? id : session_uuid(r->src->session),
	    st.msgs, NULL)) == NULL)
		goto out;
	if (st.started >= 0) {
		ts_format(st.started, ts);
		json_object_set_new(c, "startedAt", json_string(ts));
	}
	keep = json_object();
	if (st.meta != NULL)
		mig_keep_extra(keep, st.meta, mapped);
	if (json_array_size(st.harness) > 0)
		json_object_set(keep, "harness", st.harness);
	mig_add_keeping(r, c, keep);
out:
	json_decref(st.msgs);
	json_decref(st.meta);
	json_decref(st.harness);
	return rc;
}
