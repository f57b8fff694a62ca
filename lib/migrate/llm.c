/*
 * llm.c - migrate's llm format: what simonw/llm's `llm logs --json` prints,
 * an array of response records, those sharing a conversation_id one
 * conversation. It knows the reader interface (reader.h) and nothing of the
 * run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* an array whose first item is a response record of llm's */
int
mig_detect_llm(json_t *root)
{
	json_t *rec = json_array_get(root, 0);

	return json_is_array(root) && json_object_get(rec, "datetime_utc") !=
	    NULL && json_object_get(rec, "response") != NULL;
}

/* a record's time, to order a conversation's records by */
struct llm_rec {
	json_t *rec;
	size_t index;
	int64_t ms;
};

static int
by_time(const void *a, const void *b)
{
	const struct llm_rec *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* text (a string, or null: none) as message RID-SUFFIX of role onto msgs */
static json_t *
llm_message(json_t *msgs, const char *rid, const char *suffix, int64_t ms,
    const char *role, json_t *text)
{
	struct buf id = { 0 };
	json_t *m;

	buf_addf(&id, "%s-%s", rid, suffix);
	m = mig_message(id.data, ms, role, json_is_string(text) ?
	    json_string_value(text) : "", json_string_length(text));
	json_array_append_new(msgs, m);
	buf_free(&id);
	return m;
}

static int
want_string(struct mig_reader *r, json_t *rec, const char *key, size_t i,
    struct error *e)
{
	json_t *v = json_object_get(rec, key);

	if (v == NULL || json_is_null(v) || json_is_string(v))
		return 0;
	return mig_bad(r, e, "[%zu].%s: expected a string", i, key);
}

/* one record's messages: system (when new), tool results, prompt, response */
static int
llm_record(struct mig_reader *r, const struct llm_rec *lr, const char **sys,
    json_t *msgs, struct error *e)
{
	static const char *const mapped[] = { "id", "prompt", "system",
	    "response", "conversation_id", "conversation_name", "datetime_utc",
	    NULL };
	static const char *const keys[] = { "id", "prompt", "system",
	    "response", "conversation_name", NULL };
	json_t *rec = lr->rec, *v, *tools, *msg, *keep;
	struct buf rid = { 0 }, sfx = { 0 };
	const char *s;
	size_t i, k;

	for (k = 0; keys[k] != NULL; k++)
		if (want_string(r, rec, keys[k], lr->index, e) < 0)
			return -1;
	if ((s = json_str(rec, "id", NULL)) != NULL)
		buf_adds(&rid, s);
	else
		mig_message_id(&rid, lr->ms, lr->index);
	s = json_str(rec, "system", NULL);
	if (s != NULL && *s != '\0' && (*sys == NULL || strcmp(s, *sys) != 0)) {
		llm_message(msgs, rid.data, "system", lr->ms, "system",
		    json_object_get(rec, "system"));
		*sys = s;
	}
	/* the results of the tools the record before it called */
	json_array_foreach(json_object_get(rec, "tool_results"), i, v) {
		msg = llm_message(msgs, rid.data, mig_path(&sfx, "tool-%zu", i),
		    lr->ms, "tool", json_object_get(v, "output"));
		json_object_set(msg, "imported", v);
	}
	if (json_string_length(json_object_get(rec, "prompt")) > 0)
		llm_message(msgs, rid.data, "prompt", lr->ms, "user",
		    json_object_get(rec, "prompt"));
	msg = llm_message(msgs, rid.data, "response", lr->ms, "assistant",
	    json_object_get(rec, "response"));
	tools = json_array();
	json_array_foreach(json_object_get(rec, "tool_calls"), i, v)
		mig_tool_add(tools, json_str(v, "name", NULL));
	mig_set_tools(msg, tools);
	json_decref(tools);
	keep = json_object();
	mig_keep_extra(keep, rec, mapped);
	json_object_set_new(msg, "imported", keep);
	buf_free(&rid);
	buf_free(&sfx);
	return 0;
}

/* the records of one conversation, in time order, into one conversation */
static int
llm_conversation(struct mig_reader *r, struct llm_rec *recs, size_t n,
    struct error *e)
{
	json_t *msgs = json_array(), *first = recs[0].rec;
	const char *sys = NULL, *id;
	struct buf gen = { 0 };
	size_t i;
	int rc = -1;

	qsort(recs, n, sizeof(*recs), by_time);
	for (i = 0; i < n; i++)
		if (llm_record(r, &recs[i], &sys, msgs, e) < 0)
			goto out;
	if ((id = json_str(first, "conversation_id", NULL)) == NULL) {
		if ((id = json_str(first, "id", NULL)) == NULL) {
			mig_message_id(&gen, recs[0].ms, recs[0].index);
			id = gen.data;
		}
	}
	mig_add(r, mig_conversation_of(r, id, msgs, json_str(first,
	    "conversation_name", NULL)), 1, 1);
	rc = 0;
out:
	json_decref(msgs);
	buf_free(&gen);
	return rc;
}

int
mig_read_llm(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	json_t *root = in->root, *rec, *groups = NULL, *g, *v;
	struct llm_rec *recs = NULL;
	struct buf where = { 0 };
	const char *cid, *key;
	size_t i, k, n = json_array_size(root), done = 0;
	int rc = -1;

	if (!json_is_array(root))
		return mig_bad(r, e, "expected an array of response records at "
		    "the top (llm logs --json)");
	/* conversation id -> the indexes of its records, first seen first */
	groups = json_object();
	json_array_foreach(root, i, rec) {
		if (!json_is_object(rec)) {
			mig_bad(r, e, "[%zu]: expected a response record", i);
			goto out;
		}
		v = json_object_get(rec, "conversation_id");
		if (v != NULL && !json_is_null(v) && !json_is_string(v)) {
			mig_bad(r, e, "[%zu].conversation_id: expected a string",
			    i);
			goto out;
		}
		/* a record of no conversation is one of its own */
		if ((cid = json_string_value(v)) != NULL)
			mig_path(&where, "c:%s", cid);
		else
			mig_path(&where, "r:%zu", i);
		if ((g = json_object_get(groups, where.data)) == NULL) {
			g = json_array();
			json_object_set_new(groups, where.data, g);
		}
		json_array_append_new(g, json_integer((json_int_t)i));
	}
	recs = xmalloc((n + 1) * sizeof(*recs));
	json_object_foreach(groups, key, g) {
		json_array_foreach(g, k, v) {
			i = (size_t)json_integer_value(v);
			recs[k].rec = json_array_get(root, i);
			recs[k].index = i;
			if (mig_want_time(r, json_object_get(recs[k].rec,
			    "datetime_utc"), mig_path(&where, "[%zu].datetime_utc",
			    i), &recs[k].ms, e) < 0)
				goto out;
		}
		if (llm_conversation(r, recs, json_array_size(g), e) < 0)
			goto out;
		done += json_array_size(g);
		mig_progress(r, done, n);
	}
	if (n == 0)
		mig_note(r, "'%s': no records in it", r->src->file);
	rc = 0;
out:
	free(recs);
	buf_free(&where);
	json_decref(groups);
	return rc;
}
