/*
 * smarthole.c - migrate's smarthole format: SmartHole's data.json (its flat
 * PersistedHistory, its PersistedConversations, or both), or either alone.
 * It knows the reader interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

struct entry_group {
	size_t first, n;
};

/* each of obj's fields named in the NULL-ended keys is there, a string */
static int
want_strings(struct mig_reader *r, json_t *obj, const char *const *keys,
    const char *path, struct error *e)
{
	json_t *v;
	int k;

	for (k = 0; keys[k] != NULL; k++) {
		v = json_object_get(obj, keys[k]);
		if (v == NULL)
			return mig_bad(r, e, "%s: missing '%s'", path, keys[k]);
		if (!json_is_string(v))
			return mig_bad(r, e, "%s.%s: expected a string", path,
			    keys[k]);
	}
	return 0;
}

static int
check_entry(struct mig_reader *r, json_t *en, const char *path,
    struct error *e)
{
	static const char *const strings[] = { "userMessage",
	    "assistantResponse", NULL };
	json_t *v, *t;
	int64_t ms;
	size_t i;

	if (!json_is_object(en))
		return mig_bad(r, e, "%s: expected an object", path);
	v = json_object_get(en, "id");
	if (!json_is_string(v) && !json_is_integer(v))
		return mig_bad(r, e, "%s.id: %s", path, v == NULL ? "missing" :
		    "expected a string");
	v = json_object_get(en, "timestamp");
	if (v == NULL)
		return mig_bad(r, e, "%s: missing 'timestamp'", path);
	if (mig_time_of(v, &ms) < 0)
		return mig_bad(r, e, "%s.timestamp: expected an ISO 8601 time or "
		    "epoch milliseconds", path);
	if (want_strings(r, en, strings, path, e) < 0)
		return -1;
	v = json_object_get(en, "toolsUsed");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v))
			return mig_bad(r, e, "%s.toolsUsed: expected an array", path);
		json_array_foreach(v, i, t)
			if (!json_is_string(t))
				return mig_bad(r, e, "%s.toolsUsed[%zu]: expected a "
				    "string", path, i);
	}
	return 0;
}

static int
check_summary(struct mig_reader *r, json_t *s, const char *path,
    struct error *e)
{
	static const char *const strings[] = { "summary", NULL };
	static const char *const dates[] = { "startDate", "endDate", NULL };
	json_t *v;
	int64_t ms;
	int k;

	if (!json_is_object(s))
		return mig_bad(r, e, "%s: expected an object", path);
	for (k = 0; dates[k] != NULL; k++) {
		v = json_object_get(s, dates[k]);
		if (v == NULL)
			return mig_bad(r, e, "%s: missing '%s'", path, dates[k]);
		/* SmartHole writes ISO dates; a number (or numeric string)
		 * is epoch milliseconds, and only a number must be a time */
		if (!json_is_string(v) && mig_time_of(v, &ms) < 0)
			return mig_bad(r, e, "%s.%s: expected an ISO 8601 time or "
			    "epoch milliseconds", path, dates[k]);
	}
	if (want_strings(r, s, strings, path, e) < 0)
		return -1;
	v = json_object_get(s, "conversationCount");
	if (!json_is_integer(v))
		return mig_bad(r, e, "%s.conversationCount: %s", path, v == NULL ?
		    "missing" : "expected a whole number");
	return 0;
}

/* a summary's date as SmartHole wrote it, or epoch milliseconds as ISO */
static const char *
summary_date(json_t *s, const char *key, char out[TS_LEN])
{
	json_t *v = json_object_get(s, key);
	int64_t ms;

	if (json_is_string(v) && !mig_is_epoch(json_string_value(v)))
		return json_string_value(v);
	if (mig_time_of(v, &ms) < 0)
		return json_string_value(v);	/* checked: a string */
	ts_format(ms, out);
	return out;
}

/* SmartHole's summary of its migration, line for line */
static void
smarthole_summary(struct buf *b, json_t *summaries, json_t *entries,
    struct entry_group g)
{
	json_t *s, *tools = json_array(), *t;
	size_t i;

	if (json_array_size(summaries) > 0) {
		buf_adds(b, "Historical summaries:\n");
		json_array_foreach(summaries, i, s) {
			char from[TS_LEN], to[TS_LEN];

			buf_addf(b, "- %s to %s (%lld conversations): %s\n",
			    summary_date(s, "startDate", from),
			    summary_date(s, "endDate", to),
			    (long long)json_integer_value(json_object_get(s,
			    "conversationCount")), json_str(s, "summary", NULL));
		}
	}
	buf_addf(b, "Migrated %zu recent conversations from previous format.",
	    g.n);
	for (i = g.first; i < g.first + g.n; i++) {
		json_t *used = json_object_get(json_array_get(entries, i),
		    "toolsUsed");
		size_t j;

		json_array_foreach(used, j, t)
			mig_tool_add(tools, json_string_value(t));
	}
	json_array_foreach(tools, i, t)
		buf_addf(b, "%s%s", i == 0 ? "\nTools used: " : ", ",
		    json_string_value(t));
	json_decref(tools);
}

static json_t *
smarthole_conv(struct mig_reader *r, json_t *hist, json_t *entries,
    struct entry_group g, size_t k, size_t ngroups)
{
	static const char *const known[] = { "id", "timestamp", "userMessage",
	    "assistantResponse", "toolsUsed", NULL };
	struct buf id = { 0 }, title = { 0 }, summary = { 0 }, mid = { 0 };
	json_t *c, *msgs, *en, *m, *v;
	const char *text;
	int64_t first, end;
	size_t i, len;
	int who;

	/* SmartHole's own name for it: the time of the migration */
	buf_addf(&id, "conv-migrated-%lld", (long long)r->rq->now);
	buf_adds(&title, "Migrated Conversation History");
	if (ngroups > 1) {	/* --split: the first keeps the name */
		if (k > 0)
			buf_addf(&id, "-%zu", k + 1);
		buf_addf(&title, " (%zu of %zu)", k + 1, ngroups);
	}
	smarthole_summary(&summary, k == 0 ? json_object_get(hist, "summaries") :
	    NULL, entries, g);
	first = end = r->rq->now;
	if (g.n > 0) {
		first = mig_time(json_array_get(entries, g.first));
		end = mig_time(json_array_get(entries, g.first + g.n - 1));
	}
	c = mig_conversation(id.data, first, end, title.data, summary.data);
	msgs = json_object_get(c, "messages");
	for (i = g.first; i < g.first + g.n; i++) {
		en = json_array_get(entries, i);
		v = json_object_get(en, "id");
		id.len = 0;
		if (json_is_string(v))
			buf_adds(&id, json_string_value(v));
		else
			buf_addf(&id, "%lld", (long long)json_integer_value(v));
		/* <entry id>-user, then <entry id>-assistant with the tools */
		for (who = 0; who < 2; who++) {
			text = json_str(en, who ? "assistantResponse" :
			    "userMessage", &len);
			mid.len = 0;
			buf_addf(&mid, "%s-%s", id.data, who ? "assistant" :
			    "user");
			m = mig_message(mid.data, mig_time(en), who ? "assistant" :
			    "user", text, len);
			v = json_object_get(en, "toolsUsed");
			if (who && json_is_array(v))
				json_object_set_new(m, "toolsUsed",
				    json_deep_copy(v));
			mig_keep_extra(m, en, known);	/* source, and the unknown */
			json_array_append_new(msgs, m);
		}
		mig_progress(r, i + 1, json_array_size(entries));
	}
	v = json_object_get(hist, "lastSummarized");
	if (k == 0 && v != NULL && !json_is_null(v))
		json_object_set(c, "lastSummarized", v);
	buf_free(&id);
	buf_free(&title);
	buf_free(&summary);
	buf_free(&mid);
	return c;
}

/* a PersistedHistory: one conversation, or one for each stretch with --split */
static int
smarthole_history(struct mig_reader *r, json_t *hist, const char *base,
    struct error *e)
{
	struct buf at = { 0 };
	struct entry_group *groups = NULL;
	json_t *entries, *summaries, *v;
	size_t i, ng = 0;

	if (!json_is_object(hist))
		return mig_bad(r, e, "%s: expected a PersistedHistory object",
		    *base ? "conversationHistory" : "top");
	entries = json_object_get(hist, "recentConversations");
	if (entries == NULL)
		return mig_bad(r, e, "%s%smissing 'recentConversations'", *base ?
		    "conversationHistory" : "", *base ? ": " : "");
	if (!json_is_array(entries))
		return mig_bad(r, e, "%srecentConversations: expected an array", base);
	summaries = json_object_get(hist, "summaries");
	if (summaries != NULL && !json_is_null(summaries) &&
	    !json_is_array(summaries))
		return mig_bad(r, e, "%ssummaries: expected an array", base);
	json_array_foreach(entries, i, v)
		if (check_entry(r, v, mig_path(&at, "%srecentConversations[%zu]",
		    base, i), e) < 0)
			goto bad;
	json_array_foreach(summaries, i, v)
		if (check_summary(r, v, mig_path(&at, "%ssummaries[%zu]", base,
		    i), e) < 0)
			goto bad;
	buf_free(&at);
	if (json_array_size(entries) == 0 && json_array_size(summaries) == 0) {
		mig_note(r, "'%s': the flat history is empty", r->src->file);
		return 0;
	}
	groups = xmalloc((json_array_size(entries) + 1) * sizeof(*groups));
	groups[ng++] = (struct entry_group){ 0, 0 };
	json_array_foreach(entries, i, v) {
		if (r->rq->split && i > 0 && mig_time(v) -
		    mig_time(json_array_get(entries, i - 1)) > r->rq->idle_timeout)
			groups[ng++] = (struct entry_group){ i, 0 };
		groups[ng - 1].n++;
	}
	for (i = 0; i < ng; i++)
		mig_add(r, smarthole_conv(r, hist, entries, groups[i], i, ng), 0, 0);
	free(groups);
	return 0;
bad:
	buf_free(&at);
	return -1;
}

/* obj's key, when epoch milliseconds (a number or a numeric string), as the
 * ISO 8601 time the store holds; anything else is left for the check */
static void
iso_field(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char ts[TS_LEN];
	int64_t ms;

	if (v == NULL || json_is_null(v) || (json_is_string(v) &&
	    !mig_is_epoch(json_string_value(v))) || mig_time_of(v, &ms) < 0)
		return;
	ts_format(ms, ts);
	json_object_set_new(obj, key, json_string(ts));
}

/* a conversation's times, and its messages', in epoch ms made ISO 8601 */
static void
epoch_to_iso(json_t *c)
{
	json_t *m;
	size_t i;

	if (!json_is_object(c))
		return;
	iso_field(c, "startedAt");
	iso_field(c, "endedAt");
	json_array_foreach(json_object_get(c, "messages"), i, m)
		if (json_is_object(m))
			iso_field(m, "timestamp");
}

/*
 * SmartHole's new format, PersistedConversations, under base ("conversationData"
 * in a data.json, "" on its own): already the store's shape, taken as it is
 */
int
mig_persisted(struct mig_reader *r, json_t *data, const char *base,
    struct error *e)
{
	char msg[sizeof(e->msg)];
	struct buf at = { 0 };
	json_t *convs, *c, *v;
	size_t i;

	if (!json_is_object(data))
		return mig_bad(r, e, "%s: expected an object", base);
	/* a newer SmartHole may mean something else by the same fields */
	v = json_object_get(data, "version");
	if (v != NULL && (!json_is_integer(v) || json_integer_value(v) < 1))
		return mig_bad(r, e, "%s%sversion: expected a whole number from 1",
		    base, *base ? "." : "");
	if (v != NULL && json_integer_value(v) > STORE_VERSION)
		return mig_bad(r, e, "%s%sversion %lld is newer than this convctl "
		    "reads (%d); nothing is imported: a newer convctl may read "
		    "it", base, *base ? "." : "",
		    (long long)json_integer_value(v), STORE_VERSION);
	convs = json_object_get(data, "conversations");
	if (convs == NULL)
		return mig_bad(r, e, "%s%smissing 'conversations'", base,
		    *base ? ": " : "");
	if (!json_is_array(convs))
		return mig_bad(r, e, "%s%sconversations: expected an array", base,
		    *base ? "." : "");
	json_array_foreach(convs, i, c) {
		epoch_to_iso(c);
		if (conv_validate(c, mig_path(&at, "%s%sconversations[%zu]", base,
		    *base ? "." : "", i), e) < 0) {
			buf_free(&at);
			memcpy(msg, e->msg, sizeof(msg));
			return mig_bad(r, e, "%s", msg);
		}
		mig_add(r, json_incref(c), 1, 0);
	}
	buf_free(&at);
	return 0;
}

/* its flat history, its conversations, or both */
int
mig_detect_smarthole(json_t *root)
{
	return json_is_object(root) && (json_object_get(root,
	    "conversationHistory") != NULL || json_object_get(root,
	    "conversationData") != NULL || json_object_get(root,
	    "recentConversations") != NULL || json_is_array(json_object_get(root,
	    "conversations")));
}

int
mig_read_smarthole(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	json_t *root = in->root, *hist, *data;

	if (!json_is_object(root))
		return mig_bad(r, e, "expected an object at the top (a SmartHole "
		    "data.json or PersistedHistory)");
	hist = json_object_get(root, "conversationHistory");
	data = json_object_get(root, "conversationData");
	if (hist == NULL && data == NULL) {
		/* a bare PersistedConversations (or a convctl store), or History */
		if (json_object_get(root, "conversations") != NULL &&
		    json_object_get(root, "recentConversations") == NULL)
			return mig_persisted(r, root, "", e);
		return smarthole_history(r, root, "", e);
	}
	if (hist != NULL && !json_is_null(hist) &&
	    smarthole_history(r, hist, "conversationHistory.", e) < 0)
		return -1;
	if (data != NULL && !json_is_null(data) &&
	    mig_persisted(r, data, "conversationData", e) < 0)
		return -1;
	return 0;
}
