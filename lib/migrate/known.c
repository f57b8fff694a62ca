/*
 * known.c - what of a source migrate imported before, told by content rather
 * than by the file's bytes: a conversation whose messages hash to one the
 * imports ledger holds is left out, and one of the source's own ids that an
 * earlier import brought in, changed since, is brought up to what a fresh
 * import gives: its new messages added, and where the source's branch
 * parts from the stored one (an answer regenerated) the source's messages
 * it no longer has replaced. A message that did not come from the source
 * (added with add, run or MCP: no mark; edited: a mark that no longer
 * matches) is never taken out nor changed. So a live file (SmartHole's
 * data.json, a session still being written) changed elsewhere imports
 * nothing twice, fails on nothing, and loses nothing of the user's. A
 * conversation that is a copy of another's turns (imported.copyOf: a
 * Gemini CLI checkpoint) is left out when the store holds that one with
 * them; a title the source renamed replaces the one an import gave.
 */
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "migrate.h"

/* the ledger's conversation hashes (hash -> importedAt) and ids (id -> 1) */
static void
ledger_sets(json_t *imports, json_t *hashes, json_t *ids)
{
	json_t *rec, *v;
	size_t i, k;

	json_array_foreach(imports, i, rec) {
		json_array_foreach(json_object_get(rec, "hashes"), k, v)
			if (json_is_string(v))
				json_object_set(hashes, json_string_value(v),
				    json_object_get(rec, "importedAt"));
		json_array_foreach(json_object_get(rec, "conversations"), k, v)
			if (json_is_string(v))
				json_object_set_new(ids, json_string_value(v),
				    json_true());
	}
}

/* m as compact JSON, its mark left out, and its time too when no_time */
static void
dump_message(struct buf *b, json_t *m, int no_time)
{
	json_t *x = json_object(), *v;
	const char *key;
	size_t klen;

	json_object_keylen_foreach(m, key, klen, v)
		if (!(klen == strlen(MIG_MARK) && memcmp(key, MIG_MARK, klen) ==
		    0) && !(no_time && klen == strlen("timestamp") &&
		    memcmp(key, "timestamp", klen) == 0))
			json_object_setn_nocheck(x, key, klen, v);
	json_dump_buf(b, x);
	json_decref(x);
}

/* the first MIG_MARK_LEN hex digits of the SHA-256 of m, its mark aside */
static void
mark_of(json_t *m, char out[MIG_MARK_LEN + 1])
{
	char h[SHA256_HEX_LEN];
	struct buf b = { 0 };

	dump_message(&b, m, 0);
	sha256_hex(b.data ? b.data : "", b.len, h);
	buf_free(&b);
	memcpy(out, h, MIG_MARK_LEN);
	out[MIG_MARK_LEN] = '\0';
}

void
mig_mark(json_t *m)
{
	char mark[MIG_MARK_LEN + 1];

	mark_of(m, mark);
	json_object_set_new(m, MIG_MARK, json_string(mark));
}

enum mig_origin
mig_origin(json_t *m)
{
	const char *have = json_str(m, MIG_MARK, NULL);
	char mark[MIG_MARK_LEN + 1];

	if (have == NULL)
		return ORIGIN_OWN;
	mark_of(m, mark);
	return strcmp(have, mark) == 0 ? ORIGIN_SOURCE : ORIGIN_EDITED;
}

/* the first MIG_MARK_LEN hex digits of the SHA-256 of title */
static void
title_mark_of(const char *title, char out[MIG_MARK_LEN + 1])
{
	char h[SHA256_HEX_LEN];

	sha256_hex(title, strlen(title), h);
	memcpy(out, h, MIG_MARK_LEN);
	out[MIG_MARK_LEN] = '\0';
}

void
mig_mark_title(json_t *conv)
{
	const char *title = json_str(conv, "title", NULL);
	char mark[MIG_MARK_LEN + 1];

	if (title == NULL) {
		json_object_del(conv, F_TITLE_MARK);
		return;
	}
	title_mark_of(title, mark);
	json_object_set_new(conv, F_TITLE_MARK, json_string(mark));
}

/*
 * The title c, the source's conversation, gives stored (the stored one's
 * JSON): c's title when it has one that stored lacks, or that differs from
 * stored's title while that is still the title an earlier import gave (its
 * F_TITLE_MARK matches) and c does not end before it; NULL when stored
 * keeps its own: the same, one set by hand or by a summarizer since, one
 * imported before titles were marked (whose origin cannot be told), or
 * one a newer copy of the source gave
 */
static json_t *
new_title(json_t *stored, json_t *c)
{
	json_t *t = json_object_get(c, "title");
	const char *have = json_str(stored, "title", NULL), *mark, *end;
	char now[MIG_MARK_LEN + 1];
	int64_t a, b;

	if (!json_is_string(t))
		return NULL;
	if (have == NULL)
		return t;
	if (strcmp(have, json_string_value(t)) == 0 ||
	    (mark = json_str(stored, F_TITLE_MARK, NULL)) == NULL)
		return NULL;
	/* an older copy of the source (it ends before the stored one) does
	 * not bring back the name it had then */
	if ((end = json_str(c, "endedAt", NULL)) != NULL &&
	    ts_parse(end, &a) == 0 && (end = json_str(stored, "endedAt",
	    NULL)) != NULL && ts_parse(end, &b) == 0 && a < b)
		return NULL;
	title_mark_of(have, now);
	return strcmp(mark, now) == 0 ? t : NULL;
}

/* g, a grown conversation's record: the title stored is to take from c,
 * and the one it had ("titleWas", when it had one) */
static void
grow_title(json_t *g, json_t *stored, json_t *c)
{
	json_t *t = new_title(stored, c);

	if (t == NULL)
		return;
	json_object_set(g, "title", t);
	if (json_is_string(json_object_get(stored, "title")))
		json_object_set(g, "titleWas", json_object_get(stored,
		    "title"));
}

/* a and b are the same message, their times (a source of messages without
 * a time of their own gives them the time of each import) and marks aside.
 * As JSON text: a number the store read back is its text, not jansson's real */
static int
same_message(json_t *a, json_t *b)
{
	struct buf x = { 0 }, y = { 0 };
	int same;

	dump_message(&x, a, 1);
	dump_message(&y, b, 1);
	same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
	buf_free(&x);
	buf_free(&y);
	return same;
}

/* stored message m, of origin o, stands for the source's s: the source's
 * as imported for one just like it, any other (edited since, or without a
 * mark) for one of its id too */
static int
stands_for(json_t *m, enum mig_origin o, json_t *s)
{
	const char *a = json_str(m, "id", NULL), *b = json_str(s, "id", NULL);

	if (o != ORIGIN_SOURCE && a != NULL && b != NULL && strcmp(a, b) == 0)
		return 1;
	return same_message(m, s);
}

/* the time of m in ms; 0 when it has none (the store's shape says it has) */
static int64_t
time_of(json_t *m)
{
	int64_t t;

	return ts_parse(json_str(m, "timestamp", NULL), &t) < 0 ? 0 : t;
}

/* mine and theirs, each in its order, into out by time (a tie goes to
 * mine), and both emptied */
static void
merge_by_time(json_t *out, json_t *mine, json_t *theirs)
{
	size_t i = 0, k = 0, n = json_array_size(mine),
	    m = json_array_size(theirs);

	while (i < n || k < m)
		if (k == m || (i < n && time_of(json_array_get(mine, i)) <=
		    time_of(json_array_get(theirs, k))))
			json_array_append(out, json_array_get(mine, i++));
		else
			json_array_append(out, json_array_get(theirs, k++));
	json_array_clear(mine);
	json_array_clear(theirs);
}

/*
 * Where stored message m (of origin o) is in the source's messages msgs,
 * looked for from position `at` on: there if it stands for that one (the
 * source grew, or nothing changed), else at the next message of its id
 * (one deleted since lies between). -1: not in them. idx: id -> positions,
 * cur: id -> how many of those lie before `at`, so each is passed once.
 */
static long
find_in(json_t *msgs, size_t at, json_t *m, enum mig_origin o, json_t *idx,
    json_t *cur)
{
	const char *id = json_str(m, "id", NULL);
	json_t *pos;
	size_t c, j;

	if (at < json_array_size(msgs) && stands_for(m, o,
	    json_array_get(msgs, at)))
		return (long)at;
	if (id == NULL || (pos = json_object_get(idx, id)) == NULL)
		return -1;
	c = (size_t)json_integer_value(json_object_get(cur, id));
	while (c < json_array_size(pos) &&
	    (size_t)json_integer_value(json_array_get(pos, c)) < at)
		c++;
	json_object_set_new_nocheck(cur, id, json_integer((json_int_t)c));
	if (c == json_array_size(pos))
		return -1;
	j = (size_t)json_integer_value(json_array_get(pos, c));
	return stands_for(m, o, json_array_get(msgs, j)) ? (long)j : -1;
}

/* what a report calls message k (0-based) of stored: its id, or #POSITION */
static json_t *
message_name(json_t *stored, size_t k)
{
	const char *id = json_str(json_array_get(stored, k), "id", NULL);
	struct buf b = { 0 };
	json_t *v;

	if (id != NULL)
		return json_string(id);
	buf_addf(&b, "#%zu", k + 1);
	v = json_string(b.data);
	buf_free(&b);
	return v;
}

/*
 * c, of the source's own id, imported before, against the stored
 * conversation: NULL when c has nothing the store lacks; else
 * {messages: c's messages to add, replaced: [names], kept: N, merged: the
 * conversation's messages after}. The stored messages that stand for one
 * of c's (the same message, or one edited since in place of it) are kept
 * in place, in c's order; a message that is not the source's as it was
 * imported (added with add, run or MCP, edited, or imported before marks
 * were kept) is never taken out; those that are the source's but c's
 * current branch no longer has are replaced; c's messages the store lacks
 * go in between the stored ones they lie between, by time among the
 * messages not the source's. So the source's messages are c's, in c's
 * order, and nothing else is lost.
 */
static json_t *
merge(struct conv *cv, json_t *c)
{
	json_t *stored = json_object_get(conv_json(cv), "messages");
	json_t *msgs = json_object_get(c, "messages"), *idx = json_object();
	json_t *cur = json_object(), *merged, *add, *replaced, *mine, *theirs;
	json_t *adopted;
	json_t *pos, *m, *r = NULL;
	size_t ns = json_array_size(stored), n = json_array_size(msgs);
	size_t k, j, at = 0, next = 0, kept = 0, aligned = 0;
	enum mig_origin *origin = xmalloc((ns + 1) * sizeof(*origin));
	long *anchor = xmalloc((ns + 1) * sizeof(*anchor));
	const char *id;

	json_array_foreach(msgs, j, m)
		if ((id = json_str(m, "id", NULL)) != NULL) {
			if ((pos = json_object_get(idx, id)) == NULL)
				json_object_set_new_nocheck(idx, id,
				    pos = json_array());
			json_array_append_new(pos, json_integer((json_int_t)j));
		}
	for (k = 0; k < ns; k++) {
		origin[k] = mig_origin(json_array_get(stored, k));
		anchor[k] = find_in(msgs, at, json_array_get(stored, k),
		    origin[k], idx, cur);
		if (anchor[k] >= 0) {
			at = (size_t)anchor[k] + 1;
			aligned++;
		}
	}
	if (aligned == n)	/* an older copy of what is stored: nothing new */
		goto out;
	merged = json_array();
	add = json_array();
	replaced = json_array();
	adopted = json_array();
	mine = json_array();
	theirs = json_array();
	for (k = 0; k <= ns; k++) {
		if (k < ns && anchor[k] < 0) {
			if (origin[k] == ORIGIN_SOURCE)
				json_array_append_new(replaced,
				    message_name(stored, k));
			else {
				json_array_append(mine, json_array_get(stored,
				    k));
				kept++;
			}
			continue;
		}
		/* c's messages up to this one the store has (or to its end) */
		for (j = k < ns ? (size_t)anchor[k] : n; next < j; next++) {
			json_array_append(theirs, json_array_get(msgs, next));
			json_array_append(add, json_array_get(msgs, next));
		}
		next++;
		merge_by_time(merged, mine, theirs);
		if (k < ns) {
			m = json_array_get(stored, k);
			json_array_append(merged, m);
			/* one without a mark that is the source's exactly was
			 * imported before marks were kept: it gets one */
			if (origin[k] == ORIGIN_OWN && same_message(m,
			    json_array_get(msgs, (size_t)anchor[k])))
				json_array_append(adopted, m);
			else if (origin[k] != ORIGIN_SOURCE)
				kept++;
		}
	}
	r = json_pack("{s:o, s:o, s:I, s:o, s:o}", "messages", add,
	    "replaced", replaced, "kept", (json_int_t)kept, "merged", merged,
	    "adopted", adopted);
	json_decref(mine);
	json_decref(theirs);
out:
	free(origin);
	free(anchor);
	json_decref(idx);
	json_decref(cur);
	return r;
}

/*
 * c, of the source's own id, imported before: what it has that the stored
 * conversation has not into res->grown (merge() says how the two become
 * one), and 2; 1 when it has nothing new; 0 when it was not imported; -1
 * when the stored one cannot be read (e says why)
 */
static int
grown(struct store *st, struct migrate_result *res, struct mig_source *s,
    json_t *c, json_t *ids, struct error *e)
{
	const char *id = json_str(c, "id", NULL);
	struct conv *cv = store_find(st, id);
	json_t *g;

	if (cv == NULL || json_object_get(ids, id) == NULL)
		return 0;
	if (conv_load(st, cv, e) < 0)
		return -1;
	/* compared: let go of, unless it grows (mig_grow() changes it) */
	if ((g = merge(cv, c)) == NULL) {
		conv_unload(st, cv);
		return 1;
	}
	json_object_set_new(g, "id", json_string(id));
	grow_title(g, conv_json(cv), c);
	json_object_set(g, "endedAt", json_object_get(c, "endedAt"));
	json_object_set_new(g, "file", json_string(s->name));
	json_object_set_new(g, "marks", json_boolean(!mig_format(
	    s->format)->as_is));
	json_array_append_new(res->grown, g);
	s->messages += json_array_size(json_object_get(g, "messages"));
	return 2;
}

/*
 * c, of the source's own id, imported before and nothing new in its
 * messages, now has a title the stored one is to take (new_title(): one
 * that came later, as Gemini CLI names a session when the next starts, or
 * the source's renamed, as claude.ai's export says after a rename): the
 * title into res->grown, and 2; 0 when not so; -1 when the stored one
 * cannot be read
 */
static int
retitled(struct store *st, struct migrate_result *res, struct mig_source *s,
    json_t *c, json_t *ids, struct error *e)
{
	const char *id = json_str(c, "id", NULL), *have;
	struct conv *cv = store_find(st, id);
	json_t *g;

	if (cv == NULL || json_object_get(ids, id) == NULL ||
	    !json_is_string(json_object_get(c, "title")))
		return 0;
	have = conv_title(cv);
	if (have != NULL && strcmp(have, json_str(c, "title", NULL)) == 0)
		return 0;
	if (conv_load(st, cv, e) < 0)
		return -1;
	if (new_title(conv_json(cv), c) == NULL) {
		conv_unload(st, cv);
		return 0;
	}
	g = json_pack("{s:s, s:O, s:[], s:[], s:i, s:s, s:b}", "id", id,
	    "merged", json_object_get(conv_json(cv), "messages"), "messages",
	    "replaced", "kept", 0, "file", s->name, "marks", 0);
	grow_title(g, conv_json(cv), c);
	json_array_append_new(res->grown, g);
	return 2;
}

/*
 * c says it is a copy of turns of another of the source's conversations
 * (imported.copyOf: a Gemini CLI checkpoint, of its session): 1 when the
 * store holds that one, imported, with c's messages among its own in
 * order (role and text), and a note says so; 0 when not; -1 when it cannot
 * be read
 */
static int
copied(struct store *st, struct migrate_result *res, struct mig_source *s,
    json_t *c, json_t *ids, struct error *e)
{
	const char *of = json_str(json_object_get(c, "imported"), MIG_COPY_OF,
	    NULL);
	json_t *msgs = json_object_get(c, "messages"), *have, *m, *h;
	struct conv *cv;
	size_t i, k = 0;

	if (of == NULL || json_object_get(ids, of) == NULL ||
	    (cv = store_find(st, of)) == NULL)
		return 0;
	if (conv_load(st, cv, e) < 0)
		return -1;
	have = json_object_get(conv_json(cv), "messages");
	json_array_foreach(msgs, i, m) {
		for (; (h = json_array_get(have, k)) != NULL; k++)
			if (json_equal(json_object_get(m, "role"),
			    json_object_get(h, "role")) &&
			    json_equal(json_object_get(m, "content"),
			    json_object_get(h, "content")))
				break;
		/* kept loaded: this run may grow it too */
		if (h == NULL)
			return 0;
		k++;
	}
	mig_notes_add(res->notes, "'%s': conversation '%s' is a copy of "
	    "turns of conversation '%s', imported before: left out",
	    s->file, json_str(c, "id", NULL), of);
	return 1;
}

int
mig_known(struct store *st, struct migrate_result *res, json_t *imports,
    struct error *e)
{
	json_t *hashes = json_object(), *ids = json_object(), *c, *when, *whole;
	char h[SHA256_HEX_LEN];
	const char *id;
	struct mig_source *s;
	size_t k, i, before;
	int g, t, rc = -1;

	ledger_sets(imports, hashes, ids);
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		if (s->status != SRC_NEW)
			continue;
		before = json_array_size(res->grown);
		for (i = json_array_size(s->convs); i-- > 0;) {
			mig_conv_hash_at(s, i, h);
			json_array_insert_new(s->hashes, 0, json_string(h));
			when = json_object_get(hashes, h);
			id = mig_conv_id(s, i);
			/* grown() and retitled() look only at one of the
			 * source's own ids that the ledger and the store hold:
			 * only such a one is read whole */
			c = json_is_true(json_array_get(s->own, i)) &&
			    json_object_get(ids, id) != NULL &&
			    store_find(st, id) != NULL ? mig_conv(s, i) : NULL;
			g = when == NULL && c != NULL ?
			    grown(st, res, s, c, ids, e) : 0;
			/* a copy of another's turns (a Gemini CLI checkpoint)
			 * is never packed: read whole to see */
			if (g == 0 && when == NULL && !mig_conv_packed(s, i)) {
				whole = mig_conv(s, i);
				g = copied(st, res, s, whole, ids, e);
				json_decref(whole);
			}
			if (g >= 0 && (when != NULL || g == 1) && c != NULL) {
				if ((t = retitled(st, res, s, c, ids, e)) < 0)
					g = -1;
				else
					g = t > 0 ? t : g;
			}
			json_decref(c);
			if (g < 0)
				goto out;
			if (when == NULL && g == 0)
				continue;
			if (json_is_string(when) && s->before == NULL)
				s->before = xstrdup(json_string_value(when));
			s->messages -= mig_conv_messages(s, i);
			s->known += g != 2;
			json_array_remove(s->convs, i);
			json_array_remove(s->own, i);
		}
		/* nothing new in it: as if its bytes were seen, and not recorded */
		if (json_array_size(s->convs) == 0 &&
		    json_array_size(res->grown) == before) {
			s->status = SRC_BEFORE;
			if (s->before == NULL)
				s->before = xstrdup("the same conversations");
		}
	}
	rc = 0;
out:
	json_decref(hashes);
	json_decref(ids);
	return rc;
}

/* the names in a, as 'a', 'b' */
static void
names(struct buf *b, json_t *a)
{
	json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		buf_addf(b, "%s'%s'", i > 0 ? ", " : "", json_string_value(v));
}

int
mig_grow(struct store *st, struct migrate_result *res, struct error *e)
{
	json_t *g, *conv, *m, *replaced, *end, *was;
	struct buf list = { 0 };
	struct conv *cv;
	size_t i, k, cut;
	int64_t a, b;

	json_array_foreach(res->grown, i, g) {
		cv = store_find(st, json_str(g, "id", NULL));
		conv = conv_json(cv);
		replaced = json_object_get(g, "replaced");
		if ((cut = json_array_size(replaced)) > 0) {
			list.len = 0;
			names(&list, replaced);
			mig_notes_add(res->notes, "'%s': conversation '%s': %zu "
			    "message%s from the source %s by its current "
			    "branch: %s", json_str(g, "file", NULL),
			    json_str(g, "id", NULL), cut, cut == 1 ? "" : "s",
			    res->rq->dry_run ? "would be replaced" : "replaced",
			    list.data);
		}
		/* the source's messages marked: those added, and those
		 * stored unmarked (imported before marks were kept) that are
		 * the source's exactly; a message of one's own never */
		if (json_is_true(json_object_get(g, "marks"))) {
			json_array_foreach(json_object_get(g, "messages"), k, m)
				mig_mark(m);
			json_array_foreach(json_object_get(g, "adopted"), k, m)
				mig_mark(m);
		}
		json_object_set(conv, "messages", json_object_get(g, "merged"));
		/* a title the source gave later, where there was none,
		 * or the source's renamed */
		if (json_is_string(json_object_get(g, "title"))) {
			json_object_set(conv, "title", json_object_get(g,
			    "title"));
			conv_mark_title_given(conv);
			mig_mark_title(conv);
		}
		/* an ended conversation ends where its source now does, or,
		 * holding messages not the source's, where it did if later */
		end = json_object_get(g, "endedAt");
		if (!json_is_null(json_object_get(conv, "endedAt")) &&
		    json_is_string(end)) {
			was = json_object_get(conv, "endedAt");
			if (json_integer_value(json_object_get(g, "kept")) > 0 &&
			    json_is_string(was) &&
			    ts_parse(json_string_value(end), &a) == 0 &&
			    ts_parse(json_string_value(was), &b) == 0 && b > a)
				end = was;
			json_object_set(conv, "endedAt", end);
		}
		if (conv_validate(conv, json_str(g, "id", NULL), e) < 0 ||
		    conv_refresh(cv, e) < 0) {
			buf_free(&list);
			return -1;
		}
		res->ngrown += json_array_size(json_object_get(g, "messages"));
	}
	buf_free(&list);
	return 0;
}
