/*
 * jsonl.c - migrate's jsonl format: a JSON-lines log of one session, a record
 * a line; the session id is the file's name. It knows the reader interface
 * (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

struct jsonl_state {
	json_t *msgs, *events;
	json_t *last;		/* the message the previous record made, or NULL */
	const char *trace;	/* its trace_id */
};

/* the store's roles, and only those: a log names them itself */
static int
jsonl_role(struct mig_reader *r, json_t *v, size_t line, const char **role,
    struct error *e)
{
	struct buf b = { 0 };
	enum conv_role known;

	if ((*role = json_string_value(v)) == NULL)
		return mig_bad(r, e, "line %zu: role: expected a string", line);
	if (role_parse(*role, &known) == 0)
		return 0;
	role_unknown(&b, *role, NULL);
	mig_bad(r, e, "line %zu: role: %s", line, b.data);
	buf_free(&b);
	return -1;
}

/* an assistant record right after an assistant message, of no other trace:
 * the next part of the same reply */
static int
continues_reply(const struct jsonl_state *st, const char *role,
    const char *trace)
{
	return st->last != NULL && strcmp(role, "assistant") == 0 &&
	    strcmp(json_str(st->last, "role", NULL), "assistant") == 0 &&
	    (trace == NULL || st->trace == NULL || strcmp(trace, st->trace) == 0);
}

/* rec's text and tool onto the last message; rec itself, whole, into its
 * "merged", so nothing is lost */
static void
merge_into_last(struct jsonl_state *st, json_t *rec, const struct buf *text,
    const char *tool)
{
	struct buf joined = { 0 };
	json_t *tools, *merged;
	size_t len;
	const char *prev = json_str(st->last, "content", &len);

	buf_add(&joined, prev, len);
	if (len > 0 && text->len > 0)
		buf_addc(&joined, '\n');
	buf_add(&joined, text->data ? text->data : "", text->len);
	json_object_set_new(st->last, "content",
	    json_stringn(joined.data ? joined.data : "", joined.len));
	buf_free(&joined);
	tools = json_object_get(st->last, "toolsUsed");
	if (tool != NULL && tools == NULL) {
		tools = json_array();
		json_object_set_new(st->last, "toolsUsed", tools);
	}
	mig_tool_add(tools, tool);
	if ((merged = json_object_get(st->last, "merged")) == NULL) {
		merged = json_array();
		json_object_set_new(st->last, "merged", merged);
	}
	json_array_append(merged, rec);
}

/* rec as a new message: its own id (a string or a number), or one made */
static void
append_message(struct jsonl_state *st, json_t *rec, int64_t ms,
    const char *role, const struct buf *text, const char *tool)
{
	static const char *const known[] = { "timestamp", "id", "role",
	    "content", "tool_name", NULL };
	struct buf id = { 0 };
	json_t *v = json_object_get(rec, "id"), *tools;

	if (json_is_string(v))
		buf_adds(&id, json_string_value(v));
	else if (json_is_integer(v))
		buf_addf(&id, "%lld", (long long)json_integer_value(v));
	else
		mig_message_id(&id, ms, json_array_size(st->msgs));
	st->last = mig_message(id.data, ms, role, text->data ? text->data : "",
	    text->len);
	if (tool != NULL) {
		tools = json_array();
		mig_tool_add(tools, tool);
		mig_set_tools(st->last, tools);
		json_decref(tools);
	}
	mig_keep_extra(st->last, rec, known);
	json_array_append_new(st->msgs, st->last);
	/* rec's string, kept alive by the message that holds its trace_id */
	st->trace = json_str(rec, "trace_id", NULL);
	buf_free(&id);
}

/* one line's record: an event, a new message, or the next part of a reply */
static int
jsonl_record(struct mig_reader *r, struct jsonl_state *st, json_t *rec,
    size_t line, struct error *e)
{
	struct buf text = { 0 }, where = { 0 };
	json_t *v;
	const char *role, *tool;
	int64_t ms;
	int partial, rc;

	if (!json_is_object(rec))
		return mig_bad(r, e, "line %zu: expected a JSON object", line);
	v = json_object_get(rec, "role");
	if (v == NULL || json_is_null(v)) {	/* an event, not a message */
		json_array_append(st->events, rec);
		st->last = NULL;
		return 0;
	}
	if (jsonl_role(r, v, line, &role, e) < 0)
		return -1;
	v = json_object_get(rec, "tool_name");
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return mig_bad(r, e, "line %zu: tool_name: expected a string",
		    line);
	tool = json_string_value(v);
	buf_addf(&where, "line %zu: timestamp", line);
	rc = mig_want_time(r, json_object_get(rec, "timestamp"), where.data, &ms,
	    e);
	buf_free(&where);
	if (rc < 0)
		return -1;
	mig_content_text(json_object_get(rec, "content"), &text, &partial);
	if (continues_reply(st, role, json_str(rec, "trace_id", NULL)))
		merge_into_last(st, rec, &text, tool);
	else
		append_message(st, rec, ms, role, &text, tool);
	buf_free(&text);
	return 0;
}

/* mig_lines()'s callback */
static int
jsonl_line(struct mig_reader *r, void *arg, json_t *rec, size_t line,
    struct error *e)
{
	return jsonl_record(r, arg, rec, line, e);
}

/* a JSON object with a role: a log of one record */
int
mig_detect_jsonl(json_t *root)
{
	return json_is_object(root) && json_object_get(root, "role") != NULL;
}

int
mig_read_jsonl(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	struct jsonl_state st = { 0 };
	json_t *c;
	int rc = -1;

	st.msgs = json_array();
	st.events = json_array();
	if (mig_lines(r, in->text, in->len, jsonl_line, &st, e) < 0)
		goto out;
	rc = 0;
	if ((c = mig_session_of(r, r->src->session, st.msgs, NULL)) == NULL)
		goto out;
	if (json_array_size(st.events) > 0)
		json_object_set(c, "events", st.events);
	mig_add(r, c, 1, 1);
out:
	json_decref(st.msgs);
	json_decref(st.events);
	return rc;
}
