/*
 * migrate-formats.c - the five history formats convctl imports, each read into
 * conversation objects of the store's shape.
 *
 * A reader checks the shape as it goes and fails on the first thing wrong,
 * naming the file and the JSON path (or the line, for JSONL). Fields the store
 * does not know are kept on the conversation or message they came with, so
 * nothing the source said is lost.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"

#define PATH_LEN 512

/* "'FILE': " and the message */
static int
bad(struct mig_reader *r, struct error *e, const char *fmt, ...)
{
	char msg[sizeof(e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_set(e, "'%s': %s", r->src->file, msg);
}

#define time_of mig_time_of

/* v at path, which may be absent: its time, else the import time */
static int
want_time(struct mig_reader *r, json_t *v, const char *path, int64_t *ms,
    struct error *e)
{
	struct buf b = { 0 };

	if (v == NULL || json_is_null(v)) {
		*ms = r->rq->now;
		return 0;
	}
	if (time_of(v, ms) == 0)
		return 0;
	json_dump_buf(&b, v);
	bad(r, e, "%s: not a time (ISO 8601 or epoch milliseconds): %.200s",
	    path, b.data);
	buf_free(&b);
	return -1;
}

static json_t *
message(const char *id, int64_t ms, const char *role, const char *text,
    size_t len)
{
	char ts[TS_LEN];

	ts_format(ms, ts);
	return json_pack("{s:s, s:s, s:s, s:s%}", "id", id, "timestamp", ts,
	    "role", role, "content", text, len);
}

/* a message id for sources that give none: unique within the conversation */
static void
message_id(struct buf *b, int64_t ms, size_t index)
{
	b->len = 0;
	buf_addf(b, "m-%lld-%zu", (long long)ms, index);
}

static json_t *
conversation(const char *id, int64_t started, int64_t ended, const char *title,
    const char *summary)
{
	char s[TS_LEN], en[TS_LEN];
	json_t *c;

	ts_format(started, s);
	ts_format(ended, en);
	c = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:[]}", "id", id,
	    "startedAt", s, "endedAt", en, "title", title, "summary", summary,
	    "messages");
	return c;
}

/* the conversation's times from its messages, or the import time */
static json_t *
conversation_of(struct mig_reader *r, const char *id, json_t *msgs,
    const char *title)
{
	int64_t first = r->rq->now, last = r->rq->now;
	size_t n = json_array_size(msgs);
	json_t *c;

	if (n > 0) {
		ts_parse(json_str(json_array_get(msgs, 0), "timestamp", NULL), &first);
		ts_parse(json_str(json_array_get(msgs, n - 1), "timestamp", NULL),
		    &last);
	}
	c = conversation(id, first, last, title, NULL);
	json_object_set(c, "messages", msgs);
	return c;
}

/* a generated conversation id, as SmartHole names them; the run makes it unique */
static char *
generated_id(json_t *msgs, int64_t now)
{
	struct buf b = { 0 };
	int64_t ms = now;

	if (json_array_size(msgs) > 0)
		ts_parse(json_str(json_array_get(msgs, 0), "timestamp", NULL), &ms);
	buf_addf(&b, "conv-%lld", (long long)ms);
	return buf_detach(&b);
}

static int
is_one_of(const char *key, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		if (strcmp(key, *keys) == 0)
			return 1;
	return 0;
}

/* copies src's fields but those named, and those dst already has, into dst */
static void
keep_extra(json_t *dst, json_t *src, const char *const *skip)
{
	const char *key;
	json_t *v;

	json_object_foreach(src, key, v)
		if (!is_one_of(key, skip) && json_object_get(dst, key) == NULL)
			json_object_set(dst, key, v);
}

/* appends name to tools unless it is there: distinct, in first-seen order */
static void
tool_add(json_t *tools, const char *name)
{
	json_t *t;
	size_t i;

	if (name == NULL || *name == '\0')
		return;
	json_array_foreach(tools, i, t)
		if (strcmp(json_string_value(t), name) == 0)
			return;
	json_array_append_new(tools, json_string(name));
}

static void
set_tools(json_t *msg, json_t *tools)
{
	if (json_array_size(tools) > 0)
		json_object_set(msg, "toolsUsed", tools);
}

/*
 * The text of content: a string as it is, null as empty, an array of parts
 * as its text parts joined by newlines (*partial set when other parts, say
 * images, were there), anything else as its JSON text.
 */
static void
content_text(json_t *v, struct buf *b, int *partial)
{
	json_t *part;
	const char *t;
	size_t i, len, n = 0;

	*partial = 0;
	if (v == NULL || json_is_null(v))
		return;
	if (json_is_string(v)) {
		buf_add(b, json_string_value(v), json_string_length(v));
		return;
	}
	if (!json_is_array(v)) {
		json_dump_buf(b, v);
		return;
	}
	json_array_foreach(v, i, part) {
		if (json_is_string(part)) {
			t = json_string_value(part);
			len = json_string_length(part);
		} else if ((t = json_str(part, "text", &len)) == NULL) {
			*partial = 1;
			continue;
		}
		if (n++ > 0)
			buf_addc(b, '\n');
		buf_add(b, t, len);
	}
}

/* OpenAI's roles, and the two older ones mapped onto the store's */
static const char *
openai_role(const char *role)
{
	static const char *const map[][2] = {
		{ "user", "user" }, { "assistant", "assistant" },
		{ "system", "system" }, { "tool", "tool" },
		{ "developer", "system" }, { "function", "tool" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(role, map[i][0]) == 0)
			return map[i][1];
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
		message_id(&id, r->rq->now, index);
		msg = message(id.data, r->rq->now, "assistant",
		    json_string_value(item), json_string_length(item));
		goto out;
	}
	if (!json_is_object(item)) {
		bad(r, e, "%s: expected a message object or a string", path);
		goto out;
	}
	v = json_object_get(item, "role");
	if (!json_is_string(v)) {
		bad(r, e, "%s.role: %s", path, v == NULL ? "missing" :
		    "expected a string");
		goto out;
	}
	if ((role = openai_role(json_string_value(v))) == NULL) {
		bad(r, e, "%s.role: unknown role '%s' (expected user, assistant, "
		    "system, tool, developer or function)", path,
		    json_string_value(v));
		goto out;
	}
	if (want_time(r, json_object_get(item, "timestamp"), path, &ms, e) < 0)
		goto out;
	calls = json_object_get(item, "tool_calls");
	if (calls != NULL && !json_is_null(calls) && !json_is_array(calls)) {
		bad(r, e, "%s.tool_calls: expected an array", path);
		goto out;
	}
	tools = json_array();
	json_array_foreach(calls, i, call) {
		name = json_str(json_object_get(call, "function"), "name", NULL);
		tool_add(tools, name ? name : json_str(call, "name", NULL));
	}
	content_text(json_object_get(item, "content"), &text, &partial);
	if (json_str(item, "id", NULL) == NULL)
		message_id(&id, ms, index);
	else
		buf_adds(&id, json_str(item, "id", NULL));
	msg = message(id.data, ms, role, text.data ? text.data : "", text.len);
	set_tools(msg, tools);
	if (strcmp(role, json_string_value(v)) != 0)
		json_object_set(msg, "originalRole", v);
	if (partial)	/* parts that are not text: keep them all */
		json_object_set(msg, "contentParts", json_object_get(item, "content"));
	keep_extra(msg, item, known);
out:
	json_decref(tools);
	buf_free(&text);
	buf_free(&id);
	return msg;
}

/* an array of OpenAI-style messages, path naming it, into msgs */
static int
openai_messages(struct mig_reader *r, json_t *arr, const char *path,
    json_t *msgs, struct error *e)
{
	char at[PATH_LEN];
	json_t *item, *m;
	size_t i, n = json_array_size(arr);

	json_array_foreach(arr, i, item) {
		snprintf(at, sizeof(at), "%s[%zu]", path, i);
		if ((m = openai_message(r, item, at, i, e)) == NULL)
			return -1;
		json_array_append_new(msgs, m);
		mig_progress(r, i + 1, n);
	}
	return 0;
}

/* 1. smarthole */

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
			return bad(r, e, "%s: missing '%s'", path, keys[k]);
		if (!json_is_string(v))
			return bad(r, e, "%s.%s: expected a string", path,
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
		return bad(r, e, "%s: expected an object", path);
	v = json_object_get(en, "id");
	if (!json_is_string(v) && !json_is_integer(v))
		return bad(r, e, "%s.id: %s", path, v == NULL ? "missing" :
		    "expected a string");
	v = json_object_get(en, "timestamp");
	if (v == NULL)
		return bad(r, e, "%s: missing 'timestamp'", path);
	if (time_of(v, &ms) < 0)
		return bad(r, e, "%s.timestamp: expected an ISO 8601 time or "
		    "epoch milliseconds", path);
	if (want_strings(r, en, strings, path, e) < 0)
		return -1;
	v = json_object_get(en, "toolsUsed");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v))
			return bad(r, e, "%s.toolsUsed: expected an array", path);
		json_array_foreach(v, i, t)
			if (!json_is_string(t))
				return bad(r, e, "%s.toolsUsed[%zu]: expected a "
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
		return bad(r, e, "%s: expected an object", path);
	for (k = 0; dates[k] != NULL; k++) {
		v = json_object_get(s, dates[k]);
		if (v == NULL)
			return bad(r, e, "%s: missing '%s'", path, dates[k]);
		/* SmartHole writes ISO dates; a number (or numeric string)
		 * is epoch milliseconds, and only a number must be a time */
		if (!json_is_string(v) && time_of(v, &ms) < 0)
			return bad(r, e, "%s.%s: expected an ISO 8601 time or "
			    "epoch milliseconds", path, dates[k]);
	}
	if (want_strings(r, s, strings, path, e) < 0)
		return -1;
	v = json_object_get(s, "conversationCount");
	if (!json_is_integer(v))
		return bad(r, e, "%s.conversationCount: %s", path, v == NULL ?
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
	if (time_of(v, &ms) < 0)
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
			tool_add(tools, json_string_value(t));
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
	c = conversation(id.data, first, end, title.data, summary.data);
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
			m = message(mid.data, mig_time(en), who ? "assistant" :
			    "user", text, len);
			v = json_object_get(en, "toolsUsed");
			if (who && json_is_array(v))
				json_object_set_new(m, "toolsUsed",
				    json_deep_copy(v));
			keep_extra(m, en, known);	/* source, and the unknown */
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
	char at[PATH_LEN];
	struct entry_group *groups = NULL;
	json_t *entries, *summaries, *v;
	size_t i, ng = 0;

	if (!json_is_object(hist))
		return bad(r, e, "%s: expected a PersistedHistory object",
		    *base ? "conversationHistory" : "top");
	entries = json_object_get(hist, "recentConversations");
	if (entries == NULL)
		return bad(r, e, "%s%smissing 'recentConversations'", *base ?
		    "conversationHistory" : "", *base ? ": " : "");
	if (!json_is_array(entries))
		return bad(r, e, "%srecentConversations: expected an array", base);
	summaries = json_object_get(hist, "summaries");
	if (summaries != NULL && !json_is_null(summaries) &&
	    !json_is_array(summaries))
		return bad(r, e, "%ssummaries: expected an array", base);
	json_array_foreach(entries, i, v) {
		snprintf(at, sizeof(at), "%srecentConversations[%zu]", base, i);
		if (check_entry(r, v, at, e) < 0)
			return -1;
	}
	json_array_foreach(summaries, i, v) {
		snprintf(at, sizeof(at), "%ssummaries[%zu]", base, i);
		if (check_summary(r, v, at, e) < 0)
			return -1;
	}
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
	    !mig_is_epoch(json_string_value(v))) || time_of(v, &ms) < 0)
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
static int
smarthole_data(struct mig_reader *r, json_t *data, const char *base,
    struct error *e)
{
	char at[PATH_LEN], msg[sizeof(e->msg)];
	json_t *convs, *c, *v;
	size_t i;

	if (!json_is_object(data))
		return bad(r, e, "%s: expected an object", base);
	/* a newer SmartHole may mean something else by the same fields */
	v = json_object_get(data, "version");
	if (v != NULL && (!json_is_integer(v) || json_integer_value(v) < 1))
		return bad(r, e, "%s%sversion: expected a whole number from 1",
		    base, *base ? "." : "");
	if (v != NULL && json_integer_value(v) > STORE_VERSION)
		return bad(r, e, "%s%sversion %lld is newer than this convctl "
		    "reads (%d); nothing is imported: a newer convctl may read "
		    "it", base, *base ? "." : "",
		    (long long)json_integer_value(v), STORE_VERSION);
	convs = json_object_get(data, "conversations");
	if (convs == NULL)
		return bad(r, e, "%s%smissing 'conversations'", base,
		    *base ? ": " : "");
	if (!json_is_array(convs))
		return bad(r, e, "%s%sconversations: expected an array", base,
		    *base ? "." : "");
	json_array_foreach(convs, i, c) {
		snprintf(at, sizeof(at), "%s%sconversations[%zu]", base,
		    *base ? "." : "", i);
		epoch_to_iso(c);
		if (conv_validate(c, at, e) < 0) {
			memcpy(msg, e->msg, sizeof(msg));
			return bad(r, e, "%s", msg);
		}
		mig_add(r, json_incref(c), 1, 0);
	}
	return 0;
}

int
mig_read_smarthole(struct mig_reader *r, json_t *root, struct error *e)
{
	json_t *hist, *data;

	if (!json_is_object(root))
		return bad(r, e, "expected an object at the top (a SmartHole "
		    "data.json or PersistedHistory)");
	hist = json_object_get(root, "conversationHistory");
	data = json_object_get(root, "conversationData");
	if (hist == NULL && data == NULL) {
		/* a bare PersistedConversations (or a convctl store), or History */
		if (json_object_get(root, "conversations") != NULL &&
		    json_object_get(root, "recentConversations") == NULL)
			return smarthole_data(r, root, "", e);
		return smarthole_history(r, root, "", e);
	}
	if (hist != NULL && !json_is_null(hist) &&
	    smarthole_history(r, hist, "conversationHistory.", e) < 0)
		return -1;
	if (data != NULL && !json_is_null(data) &&
	    smarthole_data(r, data, "conversationData", e) < 0)
		return -1;
	return 0;
}

/* 2. messages */

int
mig_read_messages(struct mig_reader *r, json_t *root, struct error *e)
{
	json_t *msgs;
	char *id;

	if (!json_is_array(root))
		return bad(r, e, "expected an array of chat messages at the top");
	if (json_array_size(root) == 0) {
		mig_note(r, "'%s': no messages", r->src->file);
		return 0;
	}
	msgs = json_array();
	if (openai_messages(r, root, "", msgs, e) < 0) {
		json_decref(msgs);
		return -1;
	}
	id = generated_id(msgs, r->rq->now);
	mig_add(r, conversation_of(r, id, msgs, NULL), 0, 1);
	free(id);
	json_decref(msgs);
	return 0;
}

/* 3. jsonl */

struct jsonl_state {
	json_t *msgs, *events;
	json_t *last;		/* the message the previous record made, or NULL */
	const char *trace;	/* its trace_id */
};

static int
jsonl_record(struct mig_reader *r, struct jsonl_state *st, json_t *rec,
    size_t line, struct error *e)
{
	static const char *const known[] = { "timestamp", "id", "role",
	    "content", "tool_name", NULL };
	struct buf text = { 0 }, id = { 0 };
	json_t *v, *tools, *merged;
	const char *role, *trace, *tool;
	char where[32];
	int64_t ms;
	int partial, rc = -1;

	if (!json_is_object(rec))
		return bad(r, e, "line %zu: expected a JSON object", line);
	v = json_object_get(rec, "role");
	if (v == NULL || json_is_null(v)) {	/* an event, not a message */
		json_array_append(st->events, rec);
		st->last = NULL;
		return 0;
	}
	role = json_string_value(v);
	if (role == NULL || (strcmp(role, "user") != 0 &&
	    strcmp(role, "assistant") != 0 && strcmp(role, "tool") != 0 &&
	    strcmp(role, "system") != 0)) {
		json_dump_buf(&text, v);
		bad(r, e, "line %zu: role: unknown role %s (expected user, "
		    "assistant, tool or system)", line, text.data);
		goto out;
	}
	v = json_object_get(rec, "tool_name");
	if (v != NULL && !json_is_null(v) && !json_is_string(v)) {
		bad(r, e, "line %zu: tool_name: expected a string", line);
		goto out;
	}
	tool = json_string_value(v);
	snprintf(where, sizeof(where), "line %zu: timestamp", line);
	if (want_time(r, json_object_get(rec, "timestamp"), where, &ms, e) < 0)
		goto out;
	content_text(json_object_get(rec, "content"), &text, &partial);
	trace = json_str(rec, "trace_id", NULL);
	/* the next part of one reply: nothing between, and no other trace */
	if (st->last != NULL && strcmp(role, "assistant") == 0 &&
	    strcmp(json_str(st->last, "role", NULL), "assistant") == 0 &&
	    (trace == NULL || st->trace == NULL || strcmp(trace, st->trace) == 0)) {
		struct buf joined = { 0 };
		size_t len;
		const char *prev = json_str(st->last, "content", &len);

		buf_add(&joined, prev, len);
		if (len > 0 && text.len > 0)
			buf_addc(&joined, '\n');
		buf_add(&joined, text.data ? text.data : "", text.len);
		json_object_set_new(st->last, "content",
		    json_stringn(joined.data ? joined.data : "", joined.len));
		buf_free(&joined);
		tools = json_object_get(st->last, "toolsUsed");
		if (tool != NULL && tools == NULL) {
			tools = json_array();
			json_object_set_new(st->last, "toolsUsed", tools);
		}
		tool_add(tools, tool);
		/* the later records themselves, whole, so nothing is lost */
		if ((merged = json_object_get(st->last, "merged")) == NULL) {
			merged = json_array();
			json_object_set_new(st->last, "merged", merged);
		}
		json_array_append(merged, rec);
		rc = 0;
		goto out;
	}
	v = json_object_get(rec, "id");
	if (json_is_string(v))
		buf_adds(&id, json_string_value(v));
	else if (json_is_integer(v))
		buf_addf(&id, "%lld", (long long)json_integer_value(v));
	else
		message_id(&id, ms, json_array_size(st->msgs));
	st->last = message(id.data, ms, role, text.data ? text.data : "",
	    text.len);
	if (tool != NULL) {
		tools = json_array();
		tool_add(tools, tool);
		set_tools(st->last, tools);
		json_decref(tools);
	}
	keep_extra(st->last, rec, known);
	json_array_append_new(st->msgs, st->last);
	st->trace = trace;
	rc = 0;
out:
	buf_free(&text);
	buf_free(&id);
	return rc;
}

int
mig_read_jsonl(struct mig_reader *r, const char *text, size_t len,
    struct error *e)
{
	struct jsonl_state st = { 0 };
	json_error_t je;
	json_t *rec, *c;
	const char *p = text, *end = text + len, *nl, *q;
	size_t line = 0, nlines = 0, llen;
	int rc = -1;

	for (q = text; q < end && (q = memchr(q, '\n', (size_t)(end - q))); q++)
		nlines++;
	st.msgs = json_array();
	st.events = json_array();
	for (; p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		llen = (size_t)(nl - p);
		if (llen > 0 && p[llen - 1] == '\r')
			llen--;
		for (q = p; q < p + llen && (*q == ' ' || *q == '\t'); q++)
			;
		if (q == p + llen)
			continue;
		rec = json_loadb(p, llen, JSON_LOAD_FLAGS, &je);
		if (rec == NULL) {
			/* only the last line may be torn, by a crash mid-write */
			for (q = nl; q < end && (*q == '\n' || *q == '\r' ||
			    *q == ' ' || *q == '\t'); q++)
				;
			if (q == end) {
				mig_note(r, "'%s':%zu: the last line is torn (%s "
				    "at column %d); skipped it", r->src->file, line,
				    je.text, je.column);
				break;
			}
			error_set(e, "'%s':%zu:%d: %s", r->src->file, line,
			    je.column, je.text);
			goto out;
		}
		if (jsonl_record(r, &st, rec, line, e) < 0) {
			json_decref(rec);
			goto out;
		}
		json_decref(rec);
		mig_progress(r, line, nlines + 1);
		if (nl == end)
			break;
	}
	if (json_array_size(st.msgs) == 0) {
		mig_note(r, "'%s': no messages in it", r->src->file);
		rc = 0;
		goto out;
	}
	c = conversation_of(r, r->src->session, st.msgs, NULL);
	if (json_array_size(st.events) > 0)
		json_object_set(c, "events", st.events);
	mig_add(r, c, 1, 1);
	rc = 0;
out:
	json_decref(st.msgs);
	json_decref(st.events);
	return rc;
}

/* 4. chatsidian */

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
	char at[64];
	struct buf text = { 0 }, id = { 0 };
	json_t *msg = NULL, *v, *tools = NULL, *call;
	enum conv_role role;
	int64_t ms;
	size_t i;
	int partial;

	snprintf(at, sizeof(at), "messages[%zu]", index);
	if (!json_is_object(m)) {
		bad(r, e, "%s: expected an object", at);
		goto out;
	}
	v = json_object_get(m, "role");
	if (!json_is_string(v) || role_parse(json_string_value(v), &role) < 0) {
		bad(r, e, "%s.role: %s", at, v == NULL ? "missing" :
		    "expected user, assistant, system or tool");
		goto out;
	}
	snprintf(at, sizeof(at), "messages[%zu].timestamp", index);
	if (want_time(r, json_object_get(m, "timestamp"), at, &ms, e) < 0)
		goto out;
	v = json_object_get(m, "toolCalls");
	if (v != NULL && !json_is_null(v) && !json_is_array(v)) {
		bad(r, e, "messages[%zu].toolCalls: expected an array", index);
		goto out;
	}
	tools = json_array();
	json_array_foreach(v, i, call)
		tool_add(tools, json_str(call, "name", NULL));
	content_text(json_object_get(m, "content"), &text, &partial);
	if (json_str(m, "id", NULL) != NULL)
		buf_adds(&id, json_str(m, "id", NULL));
	else
		message_id(&id, ms, index);
	msg = message(id.data, ms, role_name(role), text.data ? text.data : "",
	    text.len);
	set_tools(msg, tools);
	keep_extra(msg, m, known);
out:
	json_decref(tools);
	buf_free(&text);
	buf_free(&id);
	return msg;
}

int
mig_read_chatsidian(struct mig_reader *r, json_t *root, struct error *e)
{
	static const char *const known[] = { "id", "title", "createdAt",
	    "modifiedAt", "messages", NULL };
	json_t *msgs, *m, *c, *list, *v;
	int64_t start, end;
	size_t i, n;

	if (!json_is_object(root))
		return bad(r, e, "expected a Chatsidian conversation object at "
		    "the top");
	v = json_object_get(root, "id");
	if (!json_is_string(v) || json_string_length(v) == 0)
		return bad(r, e, "id: %s", v == NULL ? "missing" :
		    "expected a non-empty string");
	v = json_object_get(root, "title");
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return bad(r, e, "title: expected a string");
	list = json_object_get(root, "messages");
	if (!json_is_array(list))
		return bad(r, e, "messages: %s", list == NULL ? "missing" :
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
	c = conversation_of(r, json_str(root, "id", NULL), msgs,
	    json_str(root, "title", NULL));
	json_decref(msgs);
	start = conv_time(c, "startedAt");
	end = conv_time(c, "endedAt");
	if (want_time(r, json_object_get(root, "createdAt"), "createdAt",
	    &start, e) < 0 || want_time(r, json_object_get(root, "modifiedAt"),
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
	keep_extra(c, root, known);
	mig_add(r, c, 1, 1);
	return 0;
}

/* 5. aiwhisperer */

int
mig_read_aiwhisperer(struct mig_reader *r, json_t *root, struct error *e)
{
	static const char *const skip[] = { "context_manager", NULL };
	char at[PATH_LEN];
	const char *tid;
	json_t *tasks, *task, *cm, *hist, *msgs, *c, *keep;
	char *id;
	size_t done = 0, n;

	if (!json_is_object(root))
		return bad(r, e, "expected an agent state object at the top");
	tasks = json_object_get(root, "tasks");
	if (!json_is_object(tasks))
		return bad(r, e, "tasks: %s", tasks == NULL ? "missing" :
		    "expected an object");
	n = json_object_size(tasks);
	json_object_foreach(tasks, tid, task) {
		mig_progress(r, ++done, n);
		if (!json_is_object(task))
			return bad(r, e, "tasks.%s: expected an object", tid);
		cm = json_object_get(task, "context_manager");
		if (cm == NULL || json_is_null(cm))
			continue;
		if (!json_is_object(cm))
			return bad(r, e, "tasks.%s.context_manager: expected an "
			    "object", tid);
		hist = json_object_get(cm, "history");
		if (hist == NULL || json_is_null(hist))
			continue;
		if (!json_is_array(hist))
			return bad(r, e, "tasks.%s.context_manager.history: "
			    "expected an array", tid);
		if (json_array_size(hist) == 0)
			continue;
		snprintf(at, sizeof(at), "tasks.%s.context_manager.history", tid);
		msgs = json_array();
		if (openai_messages(r, hist, at, msgs, e) < 0) {
			json_decref(msgs);
			return -1;
		}
		id = generated_id(msgs, r->rq->now);
		c = conversation_of(r, id, msgs, tid);
		free(id);
		json_decref(msgs);
		keep = json_object();
		json_object_set_new(keep, "id", json_string(tid));
		keep_extra(keep, task, skip);
		json_object_set_new(c, "task", keep);
		if (json_object_get(root, "plan_id") != NULL)
			json_object_set(c, "planId", json_object_get(root,
			    "plan_id"));
		mig_add(r, c, 0, 1);
	}
	return 0;
}
