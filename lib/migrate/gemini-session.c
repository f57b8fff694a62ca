/*
 * gemini-session.c - migrate's gemini format, its sessions: a Gemini CLI
 * session's log read into a gemini_state and made the store's messages,
 * for gemini.c, which reads a session file, and gemini-checkpoint.c,
 * which reads the sessions beside a checkpoint.
 *
 * A session file is a log of changes, read as Gemini CLI reads it: a record
 * with an "id" is a message, and one whose id came before replaces that one
 * in its place; {"$set": {...}} changes the session's fields, and its
 * "messages" replace them all (a resume writes the whole history again, its
 * replies' tool calls folded into their parts and their times the resume's);
 * {"$rewindTo": ID} drops that message and those after it. A message written
 * again keeps what the earlier writing said that the later one left out
 * (tool calls, tokens) and its first time, so that a resumed or grown session
 * gives the same messages as before, and only the new ones besides.
 */
#include <stdlib.h>
#include <string.h>

#include "gemini.h"

/* text the CLI puts in a user turn that the person never typed */
static int
gemini_injected(const char *text)
{
	while (*text == ' ' || *text == '\n' || *text == '\t' || *text == '\r')
		text++;
	return strncmp(text, "<session_context>", 17) == 0 ||
	    strncmp(text, "<hook_context>", 14) == 0;
}

/* rec, a message written (again): into the order and merged by id */
static void
gemini_put(struct gemini_state *st, json_t *rec)
{
	const char *id = json_str(rec, "id", NULL), *key;
	json_t *old = json_object_get(st->byid, id), *m, *v;
	int64_t a, b;

	if (old == NULL) {
		json_object_set_new(st->byid, id, json_deep_copy(rec));
		json_array_append_new(st->order, json_string(id));
		json_object_set_new(st->inorder, id, json_true());
		return;
	}
	/* the later writing wins, but keeps what it leaves out, and the
	 * first time */
	m = json_deep_copy(old);
	json_object_foreach(rec, key, v)
		json_object_set(m, key, v);
	if (mig_time_of(json_object_get(old, "timestamp"), &a) == 0 &&
	    mig_time_of(json_object_get(rec, "timestamp"), &b) == 0 && a < b)
		json_object_set(m, "timestamp", json_object_get(old,
		    "timestamp"));
	json_object_set_new(st->byid, id, m);
	if (json_object_get(st->inorder, id) == NULL) {
		/* gone (a $set, a rewind) and written again: at the end */
		json_array_append_new(st->order, json_string(id));
		json_object_set_new(st->inorder, id, json_true());
	}
}

/* id's place in st->order, or -1 */
static ssize_t
gemini_find(struct gemini_state *st, const char *id)
{
	json_t *v;
	size_t i;

	json_array_foreach(st->order, i, v)
		if (strcmp(json_string_value(v), id) == 0)
			return (ssize_t)i;
	return -1;
}

/* a message record: its shape checked, then put */
static int
gemini_message(struct mig_reader *r, struct gemini_state *st, json_t *rec,
    const char *where, struct error *e)
{
	json_t *c = json_object_get(rec, "content");
	int64_t ms;

	if (!json_is_string(json_object_get(rec, "type")))
		return mig_bad(r, e, "%stype: expected a string", where);
	if (c != NULL && !json_is_null(c) && !json_is_string(c) &&
	    !json_is_array(c) && !json_is_object(c))
		return mig_bad(r, e, "%scontent: expected a string or an "
		    "array of parts", where);
	if (json_object_get(rec, "timestamp") != NULL &&
	    mig_time_of(json_object_get(rec, "timestamp"), &ms) < 0)
		return mig_bad(r, e, "%stimestamp: expected a time", where);
	if (json_object_get(rec, "toolCalls") != NULL &&
	    !json_is_array(json_object_get(rec, "toolCalls")))
		return mig_bad(r, e, "%stoolCalls: expected an array", where);
	gemini_put(st, rec);
	return 0;
}

/* the session's own fields: a first line, or the fields of a $set */
static int
gemini_meta(struct mig_reader *r, struct gemini_state *st, json_t *set,
    const char *where, struct error *e)
{
	json_t *msgs = json_object_get(set, "messages"), *m;
	const char *key, *s;
	struct buf path = { 0 };
	json_t *v;
	size_t i;

	if (msgs != NULL) {
		if (!json_is_array(msgs))
			return mig_bad(r, e, "%smessages: expected an array",
			    where);
		json_array_clear(st->order);
		json_object_clear(st->inorder);
		json_array_foreach(msgs, i, m) {
			mig_path(&path, "%smessages[%zu].", where, i);
			if (!json_is_string(json_object_get(m, "id"))) {
				mig_bad(r, e, "%sid: expected a string",
				    path.data);
				buf_free(&path);
				return -1;
			}
			if (gemini_message(r, st, m, path.data, e) < 0) {
				buf_free(&path);
				return -1;
			}
		}
		buf_free(&path);
	}
	if (st->session == NULL && (s = json_str(set, "sessionId", NULL)))
		st->session = xstrdup(s);
	json_object_foreach(set, key, v)
		if (strcmp(key, "messages") != 0 && (strcmp(key, "startTime") !=
		    0 || json_object_get(st->meta, key) == NULL))
			json_object_set(st->meta, key, v);
	return 0;
}

/* one record of a session's lines */
int
gemini_line(struct mig_reader *r, void *arg, json_t *rec, size_t line,
    struct error *e)
{
	struct gemini_state *st = arg;
	struct buf where = { 0 };
	json_t *set;
	const char *to;
	ssize_t k;
	int rc;

	if (!json_is_object(rec))
		return mig_bad(r, e, "line %zu: expected a JSON object", line);
	mig_path(&where, "line %zu: ", line);
	if ((to = json_str(rec, "$rewindTo", NULL)) != NULL) {
		/* that message and every one after it are gone */
		if ((k = gemini_find(st, to)) < 0)
			k = 0;
		while (json_array_size(st->order) > (size_t)k) {
			json_object_del(st->inorder, json_string_value(
			    json_array_get(st->order, json_array_size(st->order)
			    - 1)));
			json_array_remove(st->order, json_array_size(st->order)
			    - 1);
		}
		rc = 0;
	} else if (json_object_get(rec, "id") != NULL) {
		rc = json_is_string(json_object_get(rec, "id")) ?
		    gemini_message(r, st, rec, where.data, e) :
		    mig_bad(r, e, "line %zu: id: expected a string", line);
	} else if ((set = json_object_get(rec, "$set")) != NULL) {
		mig_path(&where, "line %zu: $set.", line);
		rc = json_is_object(set) ? gemini_meta(r, st, set, where.data,
		    e) : mig_bad(r, e, "line %zu: $set: expected an object",
		    line);
	} else if (json_is_string(json_object_get(rec, "sessionId"))) {
		rc = gemini_meta(r, st, rec, where.data, e);
	} else
		rc = mig_bad(r, e, "line %zu: expected a message (\"id\"), "
		    "\"$set\", \"$rewindTo\" or the session's \"sessionId\"",
		    line);
	buf_free(&where);
	return rc;
}

/* a functionResponse's text: its output, else its error, else its JSON */
static void
gemini_result_text(json_t *fr, struct buf *b)
{
	json_t *resp = json_object_get(fr, "response");
	const char *s;
	char *dump;

	if ((s = json_str(resp, "output", NULL)) != NULL ||
	    (s = json_str(resp, "error", NULL)) != NULL) {
		buf_adds(b, s);
		return;
	}
	if (resp == NULL)
		return;
	dump = json_dumps(resp, JSON_COMPACT);
	buf_adds(b, dump ? dump : "");
	free(dump);
}

/*
 * the tool message of fr (a functionResponse) unless its call's result came
 * before; id: the call's id, else fallback
 */
void
gemini_tool_message(json_t *msgs, json_t *done, json_t *fr,
    const char *fallback, int64_t ms)
{
	const char *id = json_str(fr, "id", NULL);
	struct buf text = { 0 };
	json_t *msg, *keep;

	if (id == NULL)
		id = fallback;
	if (json_object_get(done, id) != NULL)
		return;
	json_object_set_new(done, id, json_true());
	gemini_result_text(fr, &text);
	msg = mig_message(id, ms, "tool", text.data ? text.data : "", text.len);
	keep = json_object();
	if (json_str(fr, "name", NULL) != NULL)
		json_object_set(keep, "name", json_object_get(fr, "name"));
	json_object_set(msg, "imported", keep);
	json_decref(keep);
	json_array_append_new(msgs, msg);
	buf_free(&text);
}

/* a message's parts: text (joined), names of the functions it calls,
 * functionResponses; the injected text parts into harness */
void
gemini_parts(json_t *content, struct buf *text, json_t *tools, json_t *resps,
    json_t *harness)
{
	json_t *p, *fc;
	const char *s;
	size_t i;

	if (json_is_string(content)) {
		s = json_string_value(content);
		if (gemini_injected(s))
			json_array_append(harness, content);
		else
			buf_adds(text, s);
		return;
	}
	if (json_is_object(content)) {		/* one part */
		p = json_array();
		json_array_append(p, content);
		gemini_parts(p, text, tools, resps, harness);
		json_decref(p);
		return;
	}
	json_array_foreach(content, i, p) {
		if ((s = json_str(p, "text", NULL)) != NULL) {
			if (json_is_true(json_object_get(p, "thought")))
				continue;
			if (gemini_injected(s)) {
				json_array_append(harness, json_object_get(p,
				    "text"));
				continue;
			}
			if (text->len > 0)
				buf_addc(text, '\n');
			buf_adds(text, s);
		} else if ((fc = json_object_get(p, "functionCall")) != NULL)
			mig_tool_add(tools, json_str(fc, "name", NULL));
		else if ((fc = json_object_get(p, "functionResponse")) != NULL)
			json_array_append(resps, fc);
	}
}

/* the session's messages, merged and in order, into the store's */
json_t *
gemini_messages(struct gemini_state *st, json_t *harness, json_t *notices)
{
	static const char *const mapped[] = { "id", "timestamp", "type",
	    "content", "toolCalls", NULL };
	json_t *msgs = json_array(), *done = json_object(), *v, *rec, *tools,
	    *resps, *calls, *tc, *fr, *keep, *msg, *kc;
	const char *id, *type;
	struct buf text = { 0 }, fid = { 0 };
	size_t i, k, j;
	int64_t ms, tms;

	json_array_foreach(st->order, i, v) {
		id = json_string_value(v);
		rec = json_object_get(st->byid, id);
		if ((type = json_str(rec, "type", NULL)) == NULL)
			type = "";
		if (mig_time_of(json_object_get(rec, "timestamp"), &ms) < 0)
			ms = 0;
		if (strcmp(type, "user") != 0 && strcmp(type, "gemini") != 0) {
			/* info, warning, error: the CLI's notices */
			json_array_append(notices, rec);
			continue;
		}
		text.len = 0;
		tools = json_array();
		resps = json_array();
		gemini_parts(json_object_get(rec, "content"), &text, tools,
		    resps, harness);
		calls = json_object_get(rec, "toolCalls");
		json_array_foreach(calls, k, tc)
			mig_tool_add(tools, json_str(tc, "name", NULL));
		if (text.len > 0 || json_array_size(tools) > 0 ||
		    (strcmp(type, "gemini") == 0 && json_array_size(resps) ==
		    0 && json_array_size(json_object_get(rec, "thoughts")) >
		    0)) {
			msg = mig_message(id, ms, strcmp(type, "user") == 0 ?
			    "user" : "assistant", text.data ? text.data : "",
			    text.len);
			mig_set_tools(msg, tools);
			keep = json_object();
			mig_keep_extra(keep, rec, mapped);
			if (json_array_size(calls) > 0) {
				/* the calls, their results in the tool
				 * messages that follow */
				kc = json_deep_copy(calls);
				json_array_foreach(kc, k, tc)
					json_object_del(tc, "result");
				json_object_set_new(keep, "toolCalls", kc);
			}
			if (json_object_size(keep) > 0)
				json_object_set(msg, "imported", keep);
			json_decref(keep);
			json_array_append_new(msgs, msg);
		}
		/* each call's result once, where it is first written */
		json_array_foreach(calls, k, tc) {
			if (mig_time_of(json_object_get(tc, "timestamp"), &tms)
			    < 0)
				tms = ms;
			json_array_foreach(json_object_get(tc, "result"), j, v)
				if ((fr = json_object_get(v,
				    "functionResponse")) != NULL)
					gemini_tool_message(msgs, done, fr,
					    json_str(tc, "id", NULL) ?
					    json_str(tc, "id", NULL) : id, tms);
		}
		json_array_foreach(resps, k, fr) {
			mig_path(&fid, "%s:%zu", id, k);
			gemini_tool_message(msgs, done, fr, fid.data, ms);
		}
		json_decref(tools);
		json_decref(resps);
	}
	json_decref(done);
	buf_free(&text);
	buf_free(&fid);
	return msgs;
}

/* a file's name without its directory */
const char *
gemini_base_name(const char *file)
{
	const char *b = strrchr(file, '/');

	return b != NULL ? b + 1 : file;
}

/* a session written whole, as releases before JSON lines did */
int
gemini_whole(struct mig_reader *r, struct gemini_state *st, json_t *root,
    struct error *e)
{
	json_t *msgs = json_object_get(root, "messages");

	if (msgs != NULL && !json_is_array(msgs))
		return mig_bad(r, e, "messages: expected an array");
	return gemini_meta(r, st, root, "", e);
}

void
gemini_start(struct gemini_state *st)
{
	memset(st, 0, sizeof(*st));
	st->meta = json_object();
	st->order = json_array();
	st->inorder = json_object();
	st->byid = json_object();
}

void
gemini_end(struct gemini_state *st)
{
	json_decref(st->meta);
	json_decref(st->order);
	json_decref(st->inorder);
	json_decref(st->byid);
	free(st->session);
}

/* c handed to the run, keep (its reference taken) its imported, with the
 * injected text in harness, when there is any */
void
gemini_add(struct mig_reader *r, json_t *c, json_t *keep, json_t *harness)
{
	if (json_array_size(harness) > 0)
		json_object_set(keep, "harness", harness);
	mig_add_keeping(r, c, keep);
}
