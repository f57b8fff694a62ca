/*
 * claude.c - migrate's claude format: a Claude Code session, the JSON lines
 * of ~/.claude/projects/DIR/SESSION.jsonl, one conversation. It knows the
 * reader interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

struct claude_state {
	json_t *msgs;
	char *session;		/* the first line's sessionId */
	char *title;		/* the last "summary" or "ai-title" line's text */
	char *custom;		/* the last "custom-title" line's: given by hand,
				 * it wins over the others */
	const char *reply;	/* the last message's message.id, when it is an
				 * assistant's: the reply it is part of */
};

/* a line that names the session: "summary" (Claude Code 1.x), "custom-title"
 * (--name, /rename), "ai-title" (2.x) */
static void
claude_title(struct claude_state *st, const char *type, json_t *rec)
{
	const char *t;

	if (strcmp(type, "custom-title") == 0 &&
	    (t = json_str(rec, "customTitle", NULL)) != NULL) {
		free(st->custom);
		st->custom = xstrdup(t);
	} else if ((strcmp(type, "summary") == 0 &&
	    (t = json_str(rec, "summary", NULL)) != NULL) ||
	    (strcmp(type, "ai-title") == 0 &&
	    (t = json_str(rec, "aiTitle", NULL)) != NULL)) {
		free(st->title);
		st->title = xstrdup(t);
	}
}

/*
 * msg, of an assistant line whose message.id is the last message's: the
 * same reply, which Claude Code writes a content block a line. Folded into
 * that message: its text after the text there, its tools added, the uuids
 * of both under the message's "imported", and what the later line kept
 * (its blocks, usage…) under "imported.merged"
 */
static void
claude_fold(json_t *into, json_t *msg)
{
	json_t *imp = json_object_get(into, "imported"), *uuids, *merged, *t;
	json_t *more = json_object_get(msg, "imported");
	struct buf text = { 0 };
	size_t i;

	buf_adds(&text, json_str(into, "content", NULL));
	if (json_string_length(json_object_get(msg, "content")) > 0 &&
	    text.len > 0)
		buf_addc(&text, '\n');
	buf_adds(&text, json_str(msg, "content", NULL));
	json_object_set_new(into, "content", json_stringn(text.data ? text.data :
	    "", text.len));
	buf_free(&text);
	json_array_foreach(json_object_get(msg, "toolsUsed"), i, t) {
		if (json_object_get(into, "toolsUsed") == NULL)
			json_object_set_new(into, "toolsUsed", json_array());
		mig_tool_add(json_object_get(into, "toolsUsed"),
		    json_string_value(t));
	}
	if (imp == NULL) {
		imp = json_object();
		json_object_set_new(into, "imported", imp);
	}
	if ((uuids = json_object_get(imp, "uuids")) == NULL) {
		uuids = json_array();
		json_array_append_new(uuids, json_string(json_str(into, "id",
		    NULL)));
		json_object_set_new(imp, "uuids", uuids);
	}
	json_array_append_new(uuids, json_string(json_str(msg, "id", NULL)));
	if ((merged = json_object_get(imp, "merged")) == NULL) {
		merged = json_array();
		json_object_set_new(imp, "merged", merged);
	}
	json_array_append_new(merged, more != NULL ? json_incref(more) :
	    json_object());
}

/* a line of Claude Code's: a "type", and its session or its uuids */
int
mig_detect_claude(json_t *line)
{
	return json_is_string(json_object_get(line, "type")) &&
	    (json_is_string(json_object_get(line, "sessionId")) ||
	    json_is_string(json_object_get(line, "leafUuid")));
}

/* a tool_result's content: a string, or blocks of which the text counts */
static void
result_text(json_t *v, struct buf *b)
{
	int partial;

	mig_content_text(v, b, &partial);
}

/*
 * blocks into text (text blocks, tool results' text), tools (tool_use
 * names); *result: a tool_result was among them; *kept: a block that is
 * not plain text was, so the blocks are kept whole
 */
static int
claude_blocks(struct mig_reader *r, json_t *blocks, size_t line,
    struct buf *text, json_t *tools, int *result, int *kept, struct error *e)
{
	json_t *b;
	const char *type;
	size_t i, n = 0;

	*result = *kept = 0;
	json_array_foreach(blocks, i, b) {
		if ((type = json_str(b, "type", NULL)) == NULL)
			return mig_bad(r, e, "line %zu: message.content[%zu].type: "
			    "expected a string", line, i);
		if (strcmp(type, "tool_use") == 0) {
			mig_tool_add(tools, json_str(b, "name", NULL));
			*kept = 1;
			continue;
		}
		if (strcmp(type, "tool_result") == 0) {
			*result = *kept = 1;
			if (n++ > 0)
				buf_addc(text, '\n');
			result_text(json_object_get(b, "content"), text);
			continue;
		}
		if (strcmp(type, "text") != 0) {	/* thinking, image… */
			*kept = 1;
			continue;
		}
		if (n++ > 0)
			buf_addc(text, '\n');
		buf_adds(text, json_str(b, "text", NULL) ?
		    json_str(b, "text", NULL) : "");
	}
	return 0;
}

/* one line: a message when it is a user's or the assistant's */
static int
claude_line(struct mig_reader *r, void *arg, json_t *rec, size_t line,
    struct error *e)
{
	static const char *const mapped[] = { "type", "uuid", "timestamp",
	    "sessionId", "message", NULL };
	static const char *const inner[] = { "role", "content", NULL };
	struct claude_state *st = arg;
	struct buf text = { 0 }, id = { 0 }, where = { 0 };
	json_t *m, *content, *tools = NULL, *msg, *keep, *km;
	const char *type, *role, *s;
	int result = 0, kept = 0, rc = -1;
	int64_t ms;

	if (!json_is_object(rec))
		return mig_bad(r, e, "line %zu: expected a JSON object", line);
	if ((type = json_str(rec, "type", NULL)) == NULL)
		return mig_bad(r, e, "line %zu: type: expected a string", line);
	if (st->session == NULL && (s = json_str(rec, "sessionId", NULL)))
		st->session = xstrdup(s);
	claude_title(st, type, rec);
	if (strcmp(type, "user") != 0 && strcmp(type, "assistant") != 0)
		return 0;	/* titles, snapshots, system notices */
	role = type;
	m = json_object_get(rec, "message");
	if (!json_is_object(m))
		return mig_bad(r, e, "line %zu: message: expected an object", line);
	content = json_object_get(m, "content");
	tools = json_array();
	if (json_is_string(content))
		buf_add(&text, json_string_value(content),
		    json_string_length(content));
	else if (!json_is_array(content)) {
		mig_bad(r, e, "line %zu: message.content: expected a string or "
		    "an array of blocks", line);
		goto out;
	} else if (claude_blocks(r, content, line, &text, tools, &result, &kept,
	    e) < 0)
		goto out;
	if (result)
		role = "tool";
	if (mig_want_time(r, json_object_get(rec, "timestamp"),
	    mig_path(&where, "line %zu: timestamp", line), &ms, e) < 0)
		goto out;
	if ((s = json_str(rec, "uuid", NULL)) != NULL)
		buf_adds(&id, s);
	else
		mig_message_id(&id, ms, json_array_size(st->msgs));
	msg = mig_message(id.data, ms, role, text.data ? text.data : "",
	    text.len);
	mig_set_tools(msg, tools);
	keep = json_object();
	mig_keep_extra(keep, rec, mapped);
	km = json_object();
	mig_keep_extra(km, m, inner);
	if (kept)
		json_object_set(km, "content", content);
	if (json_object_size(km) > 0)
		json_object_set(keep, "message", km);
	json_decref(km);
	if (json_object_size(keep) > 0)
		json_object_set(msg, "imported", keep);
	json_decref(keep);
	s = strcmp(role, "assistant") == 0 ? json_str(m, "id", NULL) : NULL;
	if (s != NULL && st->reply != NULL && strcmp(s, st->reply) == 0) {
		claude_fold(json_array_get(st->msgs, json_array_size(st->msgs) -
		    1), msg);
		json_decref(msg);
	} else
		json_array_append_new(st->msgs, msg);
	/* the reply's id, as the message now last holds it */
	st->reply = s != NULL ? json_str(json_object_get(json_object_get(
	    json_array_get(st->msgs, json_array_size(st->msgs) - 1),
	    "imported"), "message"), "id", NULL) : NULL;
	rc = 0;
out:
	json_decref(tools);
	buf_free(&text);
	buf_free(&id);
	buf_free(&where);
	return rc;
}

int
mig_read_claude(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	struct claude_state st = { 0 };
	int rc = -1;

	st.msgs = json_array();
	if (mig_lines(r, in->text, in->len, claude_line, &st, e) < 0)
		goto out;
	rc = 0;
	if (json_array_size(st.msgs) == 0) {
		mig_note(r, "'%s': no messages in it", r->src->file);
		goto out;
	}
	mig_add(r, mig_conversation_of(r, st.session ? st.session :
	    r->src->session, st.msgs, st.custom ? st.custom : st.title), 1, 1);
out:
	json_decref(st.msgs);
	free(st.session);
	free(st.title);
	free(st.custom);
	return rc;
}
