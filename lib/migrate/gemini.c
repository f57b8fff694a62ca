/*
 * gemini.c - migrate's gemini format: a Gemini CLI session, one conversation:
 * the JSON lines of ~/.gemini/tmp/PROJECT/chats/session-*.jsonl, or an older
 * release's session-*.json (one object); or a checkpoint, what /chat save
 * TAG writes (tmp/PROJECT/checkpoint-TAG.json: {history, authType}, older
 * releases the history bare), a copy of the conversation's turns, without
 * ids or times: its own conversation, unless a session beside it (in
 * chats/) holds those turns, which it then is read in. The log of prompts
 * (logs.json) is told apart and imports nothing. It knows the reader
 * interface (reader.h) and nothing of the run.
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
#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

struct gemini_state {
	json_t *meta;		/* the session's fields: first line, $set */
	json_t *order;		/* the ids of its messages, in order */
	json_t *inorder;	/* id -> true: those in order */
	json_t *byid;		/* id -> the message, all writings merged */
	char *session;		/* the first sessionId */
};

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
static int
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
static void
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
static void
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
static json_t *
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
static const char *
base_name(const char *file)
{
	const char *b = strrchr(file, '/');

	return b != NULL ? b + 1 : file;
}

/* a line of a session (its first: sessionId and projectHash), or an older
 * release's session whole, or a checkpoint, or the log of prompts */
int
mig_detect_gemini(json_t *v)
{
	json_t *first, *h;

	if (json_is_string(json_object_get(v, "sessionId")) &&
	    json_is_string(json_object_get(v, "projectHash")))
		return 1;
	if (json_is_object(json_object_get(v, "$set")) ||
	    json_is_string(json_object_get(v, "$rewindTo")))
		return 1;
	h = json_object_get(v, "history");
	if (json_is_object(v) && json_is_array(h) && json_array_size(h) > 0 &&
	    json_is_string(json_object_get(json_array_get(h, 0), "role")) &&
	    json_is_array(json_object_get(json_array_get(h, 0), "parts")))
		return 1;
	first = json_array_get(v, 0);
	/* an older release's checkpoint: its history bare */
	if (json_is_array(v) && json_is_string(json_object_get(first,
	    "role")) && json_is_array(json_object_get(first, "parts")))
		return 1;
	return json_is_array(v) && json_is_string(json_object_get(first,
	    "sessionId")) && json_object_get(first, "messageId") != NULL &&
	    json_is_string(json_object_get(first, "message"));
}

/* a session written whole, as releases before JSON lines did */
static int
gemini_whole(struct mig_reader *r, struct gemini_state *st, json_t *root,
    struct error *e)
{
	json_t *msgs = json_object_get(root, "messages");

	if (msgs != NULL && !json_is_array(msgs))
		return mig_bad(r, e, "messages: expected an array");
	return gemini_meta(r, st, root, "", e);
}

static void
gemini_start(struct gemini_state *st)
{
	memset(st, 0, sizeof(*st));
	st->meta = json_object();
	st->order = json_array();
	st->inorder = json_object();
	st->byid = json_object();
}

static void
gemini_end(struct gemini_state *st)
{
	json_decref(st->meta);
	json_decref(st->order);
	json_decref(st->inorder);
	json_decref(st->byid);
	free(st->session);
}

/* a checkpoint's history (Content[]: {role, parts}) as the store's
 * messages: turn-N the Nth, its tool results as a session's are; ms, the
 * time of each (the file's: a checkpoint keeps none) */
static int
gemini_history(struct mig_reader *r, json_t *history, int64_t ms,
    json_t *msgs, json_t *harness, struct error *e)
{
	json_t *done = json_object(), *turn, *tools, *resps, *fr, *msg, *p;
	json_t *calls, *keep;
	struct buf text = { 0 }, id = { 0 }, fid = { 0 };
	const char *role;
	size_t i, k;
	int rc = -1;

	json_array_foreach(history, i, turn) {
		if ((role = json_str(turn, "role", NULL)) == NULL) {
			mig_bad(r, e, "history[%zu].role: expected a string", i);
			goto out;
		}
		if (!json_is_array(json_object_get(turn, "parts"))) {
			mig_bad(r, e, "history[%zu].parts: expected an array",
			    i);
			goto out;
		}
		text.len = 0;
		tools = json_array();
		resps = json_array();
		gemini_parts(json_object_get(turn, "parts"), &text, tools,
		    resps, harness);
		mig_path(&id, "turn-%zu", i + 1);
		if (text.len > 0 || json_array_size(tools) > 0) {
			msg = mig_message(id.data, ms, strcmp(role, "model") ==
			    0 ? "assistant" : "user", text.data ? text.data :
			    "", text.len);
			mig_set_tools(msg, tools);
			/* the calls, their arguments; their results follow */
			calls = json_array();
			json_array_foreach(json_object_get(turn, "parts"), k, p)
				if (json_is_object(json_object_get(p,
				    "functionCall")))
					json_array_append(calls,
					    json_object_get(p, "functionCall"));
			if (json_array_size(calls) > 0) {
				keep = json_object();
				json_object_set(keep, "functionCalls", calls);
				json_object_set_new(msg, "imported", keep);
			}
			json_decref(calls);
			json_array_append_new(msgs, msg);
		}
		json_array_foreach(resps, k, fr) {
			mig_path(&fid, "%s:%zu", id.data, k);
			gemini_tool_message(msgs, done, fr, fid.data, ms);
		}
		json_decref(tools);
		json_decref(resps);
	}
	rc = 0;
out:
	json_decref(done);
	buf_free(&text);
	buf_free(&id);
	buf_free(&fid);
	return rc;
}

/* a session file's messages as a fresh import gives them, into st; -1
 * when it does not read as one */
static int
gemini_session_file(struct mig_reader *r, const char *file,
    struct gemini_state *st, json_t **msgs)
{
	struct mig_source src = *r->src;
	struct mig_reader tr = *r;
	struct error e = { 0 };
	struct buf text = { 0 };
	json_t *root = NULL, *rec, *h = json_array(), *n = json_array();
	const char *p, *end, *nl;
	size_t line = 0;
	int rc = -1;

	src.file = (char *)file;
	tr.src = &src;
	if (migrate_read(file, r->rq->max_bytes, &text, &e) < 0 ||
	    text.len == 0)
		goto out;
	end = text.data + text.len;
	if ((root = json_loadb(text.data, text.len, JSON_LOAD_FLAGS, NULL)) !=
	    NULL && json_is_object(root) && json_object_get(root, "id") ==
	    NULL && json_object_get(root, "$set") == NULL) {
		if (gemini_whole(&tr, st, root, &e) < 0)
			goto out;
	} else
		for (p = text.data; p < end; p = nl < end ? nl + 1 : end) {
			line++;
			if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
				nl = end;
			/* what does not read is not what is looked for */
			if ((rec = json_loadb(p, (size_t)(nl - p),
			    JSON_LOAD_FLAGS, NULL)) == NULL)
				continue;
			gemini_line(&tr, st, rec, line, &e);
			json_decref(rec);
		}
	*msgs = gemini_messages(st, h, n);
	rc = 0;
out:
	json_decref(root);
	json_decref(h);
	json_decref(n);
	buf_free(&text);
	return rc;
}

/* msgs, in role and text, are where have begins */
static int
gemini_begins(json_t *have, json_t *msgs)
{
	json_t *a, *b;
	size_t i;

	if (json_array_size(msgs) == 0 || json_array_size(msgs) >
	    json_array_size(have))
		return 0;
	json_array_foreach(msgs, i, a) {
		b = json_array_get(have, i);
		if (!json_equal(json_object_get(a, "role"), json_object_get(b,
		    "role")) || !json_equal(json_object_get(a, "content"),
		    json_object_get(b, "content")))
			return 0;
	}
	return 1;
}

/* the session beside a checkpoint (DIR/chats/session-*.json, .jsonl) that
 * holds msgs, its turns: its file, its id into *id; NULL when none does */
static char *
gemini_holder(struct mig_reader *r, json_t *msgs, char **id)
{
	const char *file = r->src->file, *base = base_name(file), *n;
	struct buf dir = { 0 }, path = { 0 };
	struct gemini_state st;
	struct dirent *de;
	json_t *have;
	char *found = NULL;
	size_t len;
	DIR *d;

	buf_add(&dir, file, (size_t)(base - file));
	buf_adds(&dir, "chats");
	if ((d = opendir(dir.data)) == NULL) {
		buf_free(&dir);
		return NULL;
	}
	while (found == NULL && (de = readdir(d)) != NULL) {
		n = de->d_name;
		len = strlen(n);
		if (strncmp(n, "session-", 8) != 0 || !((len > 5 &&
		    strcmp(n + len - 5, ".json") == 0) || (len > 6 &&
		    strcmp(n + len - 6, ".jsonl") == 0)))
			continue;
		mig_path(&path, "%s/%s", dir.data, n);
		gemini_start(&st);
		have = NULL;
		if (gemini_session_file(r, path.data, &st, &have) == 0 &&
		    gemini_begins(have, msgs)) {
			found = buf_detach(&path);
			*id = st.session ? xstrdup(st.session) : NULL;
		}
		json_decref(have);
		gemini_end(&st);
	}
	closedir(d);
	buf_free(&dir);
	buf_free(&path);
	return found;
}

/* c handed to the run, keep (its reference taken) its imported, with the
 * injected text in harness, when there is any */
static void
gemini_add(struct mig_reader *r, json_t *c, json_t *keep, json_t *harness)
{
	if (json_array_size(harness) > 0)
		json_object_set(keep, "harness", harness);
	mig_add_keeping(r, c, keep);
}

/* s with each %XX decoded, as Gemini CLI encodes a tag in a file's name
 * (encodeURIComponent), made valid UTF-8; a name it did not encode (a
 * '%' that starts no escape) as it is */
static char *
uri_decode(const char *s, size_t len)
{
	struct buf b = { 0 };
	char *out;

	if (buf_add_percent_decoded(&b, s, len) < 0) {
		b.len = 0;
		buf_add(&b, s, len);
	}
	out = mig_utf8_clean(b.data);
	buf_free(&b);
	return out;
}

/* the session that saved the checkpoint tag: the last in the log of prompts
 * beside it (DIR/logs.json) to have typed "/chat save TAG"; NULL when none */
static char *
gemini_saved_by(struct mig_reader *r, const char *tag)
{
	const char *file = r->src->file, *base = base_name(file), *m;
	struct buf path = { 0 }, text = { 0 };
	struct error e = { 0 };
	json_t *log = NULL, *rec;
	char *sid = NULL;
	size_t i, n;

	buf_add(&path, file, (size_t)(base - file));
	buf_adds(&path, "logs.json");
	if (migrate_read(path.data, r->rq->max_bytes, &text, &e) == 0)
		log = json_loadb(text.data ? text.data : "", text.len,
		    JSON_LOAD_FLAGS, NULL);
	json_array_foreach(log, i, rec) {
		if ((m = json_str(rec, "message", NULL)) == NULL ||
		    !json_is_string(json_object_get(rec, "sessionId")))
			continue;
		while (*m == ' ')
			m++;
		if (strncmp(m, "/chat save ", 11) != 0)
			continue;
		for (m += 11; *m == ' '; m++)
			;
		n = strlen(m);
		while (n > 0 && m[n - 1] == ' ')
			n--;
		if (n == strlen(tag) && memcmp(m, tag, n) == 0) {
			free(sid);
			sid = xstrdup(json_str(rec, "sessionId", NULL));
		}
	}
	json_decref(log);
	buf_free(&path);
	buf_free(&text);
	return sid;
}

/*
 * a checkpoint: its turns, unless a session beside it holds them (said,
 * and read there), as a conversation of their own: gemini-checkpoint-
 * PROJECT-TAG (PROJECT the directory it is in, tmp/PROJECT; TAG as the
 * file's name has it, encoded), titled TAG;
 * the session that saved it, when the log of prompts beside it tells, its
 * imported.copyOf
 */
static int
gemini_checkpoint(struct mig_reader *r, json_t *root, struct error *e)
{
	json_t *history = json_is_array(root) ? root : json_object_get(root,
	    "history"), *msgs = json_array(), *harness = json_array(), *c;
	json_t *keep;
	const char *file = r->src->file, *base = base_name(file), *p;
	struct buf cid = { 0 }, project = { 0 };
	char *holder = NULL, *sid = NULL, *tag = NULL;
	struct stat sb;
	size_t len = strlen(base);
	int64_t ms = r->rq->now;
	int rc = -1;

	if (!json_is_array(history)) {
		mig_bad(r, e, "history: expected an array");
		goto out;
	}
	if (stat(file, &sb) == 0)
		ms = (int64_t)sb.st_mtime * 1000;
	if (gemini_history(r, history, ms, msgs, harness, e) < 0)
		goto out;
	rc = 0;
	if ((holder = gemini_holder(r, msgs, &sid)) != NULL) {
		mig_note(r, "'%s': Gemini CLI's checkpoint (/chat save) of "
		    "session '%s', whose file holds its turns: read there "
		    "('%s')", file, sid ? sid : "?", holder);
		goto out;
	}
	/* the tag, from the name checkpoint-TAG.json */
	if (len > 16 && strncmp(base, "checkpoint-", 11) == 0 &&
	    strcmp(base + len - 5, ".json") == 0)
		tag = uri_decode(base + 11, len - 16);
	/* the project: the name of the directory it is in */
	for (p = base; p > file && p[-1] == '/'; p--)
		;
	len = (size_t)(p - file);
	while (p > file && p[-1] != '/')
		p--;
	if (len > (size_t)(p - file))
		buf_add(&project, p, len - (size_t)(p - file));
	/* the tag as its file's name has it (no spaces) */
	buf_addf(&cid, "gemini-checkpoint-%s%s", project.data ? project.data :
	    "", project.data ? "-" : "");
	if (tag != NULL)
		buf_add(&cid, base + 11, strlen(base) - 16);
	else
		buf_adds(&cid, base);
	if ((c = mig_session_of(r, cid.data, msgs, tag)) == NULL)
		goto out;
	keep = json_object();
	if (json_is_object(root))
		mig_keep_extra(keep, root, (const char *const[]){ "history",
		    NULL });
	/* the session it was saved from, which may be imported: if it holds
	 * these turns, they are not imported twice (known.c) */
	if (tag != NULL && (sid = gemini_saved_by(r, tag)) != NULL)
		json_object_set_new(keep, MIG_COPY_OF, json_string(sid));
	gemini_add(r, c, keep, harness);
out:
	json_decref(msgs);
	json_decref(harness);
	buf_free(&cid);
	buf_free(&project);
	free(holder);
	free(sid);
	free(tag);
	return rc;
}

/* a checkpoint: {history: [{role, parts}]}, or (older) the history bare */
static int
gemini_is_checkpoint(json_t *root)
{
	json_t *h = json_is_array(root) ? root : json_object_get(root,
	    "history"), *first = json_array_get(h, 0);

	return json_is_array(h) && (json_array_size(h) == 0 ||
	    json_is_string(json_object_get(first, "role")));
}

int
mig_read_gemini(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	static const char *const mapped[] = { "sessionId", "summary",
	    "lastUpdated", NULL };
	struct gemini_state st = { 0 };
	json_t *root = in->root, *msgs = NULL, *harness, *notices, *c, *keep;
	struct buf other = { 0 };
	const char *title;
	int rc = -1;
	FILE *f;

	if (root == NULL)
		root = json_loadb(in->text, in->len, JSON_LOAD_FLAGS, NULL);
	else
		json_incref(root);
	/* one line only, of a session's lines */
	if (json_object_get(root, "id") != NULL ||
	    json_object_get(root, "$set") != NULL ||
	    json_object_get(root, "$rewindTo") != NULL) {
		json_decref(root);
		root = NULL;
	}
	if (root != NULL && (json_is_array(root) || json_object_get(root,
	    "history") != NULL) && gemini_is_checkpoint(root)) {
		rc = gemini_checkpoint(r, root, e);
		json_decref(root);
		return rc;
	}
	if (root != NULL && !json_is_object(root)) {
		/* the prompts' log: what was typed, the replies not with it */
		mig_note(r, "'%s': Gemini CLI's log of prompts, what was typed "
		    "and no reply, each in its session's file "
		    "(chats/session-*.jsonl): nothing imported", r->src->file);
		json_decref(root);
		return 0;
	}
	/* an older release's SESSION.json that a resume wrote again as
	 * SESSION.jsonl beside it: read there */
	if (root != NULL && strlen(base_name(r->src->file)) > 5 &&
	    strcmp(r->src->file + strlen(r->src->file) - 5, ".json") == 0) {
		buf_addf(&other, "%sl", r->src->file);
		if ((f = fopen(other.data, "r")) != NULL) {
			fclose(f);
			mig_note(r, "'%s': resumed into '%s', which holds it: "
			    "read there", r->src->file, other.data);
			buf_free(&other);
			json_decref(root);
			return 0;
		}
		buf_free(&other);
	}
	gemini_start(&st);
	harness = json_array();
	notices = json_array();
	if (root != NULL ? gemini_whole(r, &st, root, e) < 0 :
	    mig_lines(r, in->text, in->len, gemini_line, &st, e) < 0)
		goto out;
	msgs = gemini_messages(&st, harness, notices);
	rc = 0;
	title = json_str(st.meta, "summary", NULL);
	if ((c = mig_session_of(r, st.session ? st.session : r->src->session,
	    msgs, title)) == NULL)
		goto out;
	keep = json_object();
	mig_keep_extra(keep, st.meta, mapped);
	if (json_array_size(notices) > 0)
		json_object_set(keep, "notices", notices);
	gemini_add(r, c, keep, harness);
out:
	json_decref(root);
	json_decref(msgs);
	json_decref(harness);
	json_decref(notices);
	gemini_end(&st);
	return rc;
}
