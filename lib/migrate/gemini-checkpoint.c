/*
 * gemini-checkpoint.c - migrate's gemini format, its checkpoints: what
 * Gemini CLI's /chat save TAG writes (tmp/PROJECT/checkpoint-TAG.json:
 * {history, authType}, older releases the history bare), a copy of the
 * conversation's turns, without ids or times. It is its own conversation,
 * unless a session beside it (in chats/, read as gemini.c reads one) holds
 * those turns, which it then is read in; the session that saved it, when
 * the log of prompts beside it (logs.json) tells, is named. It knows the
 * reader interface (reader.h) and nothing of the run.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "gemini.h"

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
	const char *file = r->src->file, *base = gemini_base_name(file), *n;
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
	const char *file = r->src->file, *base = gemini_base_name(file), *m;
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
int
gemini_checkpoint(struct mig_reader *r, json_t *root, struct error *e)
{
	json_t *history = json_is_array(root) ? root : json_object_get(root,
	    "history"), *msgs = json_array(), *harness = json_array(), *c;
	json_t *keep;
	const char *file = r->src->file, *base = gemini_base_name(file), *p;
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
int
gemini_is_checkpoint(json_t *root)
{
	json_t *h = json_is_array(root) ? root : json_object_get(root,
	    "history"), *first = json_array_get(h, 0);

	return json_is_array(h) && (json_array_size(h) == 0 ||
	    json_is_string(json_object_get(first, "role")));
}
