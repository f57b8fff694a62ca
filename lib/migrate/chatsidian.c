/*
 * chatsidian.c - migrate's chatsidian format: one Chatsidian conversation
 * object. It knows the reader interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

static int64_t
conv_time(json_t *c, const char *key)
{
	int64_t ms = 0;

	ts_parse(json_str(c, key, NULL), &ms);
	return ms;
}

static void
conv_set_time(json_t *c, const char *key, int64_t ms)
{
	char ts[TS_LEN];

	ts_format(ms, ts);
	json_object_set_new(c, key, json_string(ts));
}

static json_t *
chatsidian_message(struct mig_reader *r, json_t *m, size_t index,
    struct error *e)
{
	static const char *const known[] = { "id", "role", "content",
	    "timestamp", NULL };
	struct buf at = { 0 }, text = { 0 }, id = { 0 };
	json_t *msg = NULL, *v, *tools = NULL, *call;
	enum conv_role role;
	int64_t ms;
	size_t i;
	int partial;

	mig_path(&at, "messages[%zu]", index);
	if (!json_is_object(m)) {
		mig_bad(r, e, "%s: expected an object", at.data);
		goto out;
	}
	v = json_object_get(m, "role");
	if (!json_is_string(v)) {
		mig_bad(r, e, "%s.role: %s", at.data, v == NULL ? "missing" :
		    "expected a string");
		goto out;
	}
	if (role_parse(json_string_value(v), &role) < 0) {
		role_unknown(&text, json_string_value(v), NULL);
		mig_bad(r, e, "%s.role: %s", at.data, text.data);
		goto out;
	}
	if (mig_want_time(r, json_object_get(m, "timestamp"), mig_path(&at,
	    "messages[%zu].timestamp", index), &ms, e) < 0)
		goto out;
	v = json_object_get(m, "toolCalls");
	if (v != NULL && !json_is_null(v) && !json_is_array(v)) {
		mig_bad(r, e, "messages[%zu].toolCalls: expected an array", index);
		goto out;
	}
	tools = json_array();
	json_array_foreach(v, i, call)
		mig_tool_add(tools, json_str(call, "name", NULL));
	mig_content_text(json_object_get(m, "content"), &text, &partial);
	if (json_str(m, "id", NULL) != NULL)
		buf_adds(&id, json_str(m, "id", NULL));
	else
		mig_message_id(&id, ms, index);
	msg = mig_message(id.data, ms, role_name(role), text.data ? text.data : "",
	    text.len);
	mig_set_tools(msg, tools);
	mig_keep_extra(msg, m, known);
out:
	json_decref(tools);
	buf_free(&at);
	buf_free(&text);
	buf_free(&id);
	return msg;
}

/* one conversation: its id and its messages */
int
mig_detect_chatsidian(json_t *root)
{
	return json_is_object(root) && json_object_get(root, "messages") !=
	    NULL && json_object_get(root, "id") != NULL;
}

int
mig_read_chatsidian(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	static const char *const known[] = { "id", "title", "createdAt",
	    "modifiedAt", "messages", NULL };
	json_t *root = in->root, *msgs, *m, *c, *list, *v;
	int64_t start, end;
	size_t i, n;

	if (!json_is_object(root))
		return mig_bad(r, e, "expected a Chatsidian conversation object at "
		    "the top");
	v = json_object_get(root, "id");
	if (!json_is_string(v) || json_string_length(v) == 0)
		return mig_bad(r, e, "id: %s", v == NULL ? "missing" :
		    "expected a non-empty string");
	v = json_object_get(root, "title");
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return mig_bad(r, e, "title: expected a string");
	list = json_object_get(root, "messages");
	if (!json_is_array(list))
		return mig_bad(r, e, "messages: %s", list == NULL ? "missing" :
		    "expected an array");
	msgs = json_array();
	n = json_array_size(list);
	json_array_foreach(list, i, m) {
		if ((m = chatsidian_message(r, m, i, e)) == NULL) {
			json_decref(msgs);
			return -1;
		}
		json_array_append_new(msgs, m);
		mig_progress(r, i + 1, n);
	}
	c = mig_conversation_of(r, json_str(root, "id", NULL), msgs,
	    json_str(root, "title", NULL));
	json_decref(msgs);
	start = conv_time(c, "startedAt");
	end = conv_time(c, "endedAt");
	if (mig_want_time(r, json_object_get(root, "createdAt"), "createdAt",
	    &start, e) < 0 || mig_want_time(r, json_object_get(root, "modifiedAt"),
	    "modifiedAt", &end, e) < 0) {
		json_decref(c);
		return -1;
	}
	/* absent, they default to the messages' times, not to now */
	v = json_object_get(root, "createdAt");
	if ((v == NULL || json_is_null(v)) && n > 0)
		start = conv_time(c, "startedAt");
	v = json_object_get(root, "modifiedAt");
	if (v == NULL || json_is_null(v))
		end = conv_time(c, "endedAt");
	conv_set_time(c, "startedAt", start);
	conv_set_time(c, "endedAt", end);
	mig_keep_extra(c, root, known);
	mig_add(r, c, 1, 1);
	return 0;
}
