/*
 * openai.c - OpenAI-style chat messages ({"role", "content", "tool_calls"}),
 * which the messages and aiwhisperer formats hold, read into the store's
 * messages. It knows no format around them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* the two older roles OpenAI's messages may have besides the store's */
static const char *const older[] = { "developer", "function", NULL };

/* OpenAI's roles: the store's, and the older ones mapped onto them */
static const char *
openai_role(const char *role)
{
	static const enum conv_role as[] = { ROLE_SYSTEM, ROLE_TOOL };
	enum conv_role r;
	size_t i;

	if (role_parse(role, &r) == 0)
		return role_name(r);
	for (i = 0; older[i] != NULL; i++)
		if (strcmp(role, older[i]) == 0)
			return role_name(as[i]);
	return NULL;
}

/* one OpenAI-style chat message, or a bare string (an assistant reply) */
static json_t *
openai_message(struct mig_reader *r, json_t *item, const char *path,
    size_t index, struct error *e)
{
	static const char *const known[] = { "id", "role", "content",
	    "timestamp", NULL };
	struct buf text = { 0 }, id = { 0 };
	json_t *msg = NULL, *calls, *call, *tools = NULL, *v;
	const char *role, *name;
	int64_t ms;
	size_t i;
	int partial;

	if (json_is_string(item)) {
		mig_message_id(&id, r->rq->now, index);
		msg = mig_message(id.data, r->rq->now, "assistant",
		    json_string_value(item), json_string_length(item));
		goto out;
	}
	if (!json_is_object(item)) {
		mig_bad(r, e, "%s: expected a message object or a string", path);
		goto out;
	}
	v = json_object_get(item, "role");
	if (!json_is_string(v)) {
		mig_bad(r, e, "%s.role: %s", path, v == NULL ? "missing" :
		    "expected a string");
		goto out;
	}
	if ((role = openai_role(json_string_value(v))) == NULL) {
		role_unknown(&text, json_string_value(v), older);
		mig_bad(r, e, "%s.role: %s", path, text.data);
		goto out;
	}
	if (mig_want_time(r, json_object_get(item, "timestamp"), path, &ms, e) < 0)
		goto out;
	calls = json_object_get(item, "tool_calls");
	if (calls != NULL && !json_is_null(calls) && !json_is_array(calls)) {
		mig_bad(r, e, "%s.tool_calls: expected an array", path);
		goto out;
	}
	tools = json_array();
	json_array_foreach(calls, i, call) {
		name = json_str(json_object_get(call, "function"), "name", NULL);
		mig_tool_add(tools, name ? name : json_str(call, "name", NULL));
	}
	mig_content_text(json_object_get(item, "content"), &text, &partial);
	if (json_str(item, "id", NULL) == NULL)
		mig_message_id(&id, ms, index);
	else
		buf_adds(&id, json_str(item, "id", NULL));
	msg = mig_message(id.data, ms, role, text.data ? text.data : "", text.len);
	mig_set_tools(msg, tools);
	if (strcmp(role, json_string_value(v)) != 0)
		json_object_set(msg, "originalRole", v);
	if (partial)	/* parts that are not text: keep them all */
		json_object_set(msg, "contentParts", json_object_get(item, "content"));
	mig_keep_extra(msg, item, known);
out:
	json_decref(tools);
	buf_free(&text);
	buf_free(&id);
	return msg;
}

/* an array of OpenAI-style messages, path naming it, into msgs */
int
mig_openai_messages(struct mig_reader *r, json_t *arr, const char *path,
    json_t *msgs, struct error *e)
{
	struct buf at = { 0 };
	json_t *item, *m;
	size_t i, n = json_array_size(arr);

	json_array_foreach(arr, i, item) {
		m = openai_message(r, item, mig_path(&at, "%s[%zu]", path, i), i,
		    e);
		if (m == NULL) {
			buf_free(&at);
			return -1;
		}
		json_array_append_new(msgs, m);
		mig_progress(r, i + 1, n);
	}
	buf_free(&at);
	return 0;
}
