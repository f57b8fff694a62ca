/*
 * sqlite-search.c - the SQLite engine's way to run a query (store_query()):
 * the text through the FTS5 trigram index messages_text, each filter a
 * condition, for a -n newest first, stepped only until the sink has
 * enough; the sink matches each message again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/lex.h"	/* lex_json() */
#include "rows.h"
#include "sqlite.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* how many spellings lit[i] has (query_spell()) */
static size_t
spellings(const struct query *q, size_t i)
{
	char sp[8];
	size_t n = 1;

	while (query_spell(q, i, n, sp) > 0)
		n++;
	return n;
}

/* the k-th spelling of lit[i] onto m, a phrase's '"' doubled */
static void
spell(struct buf *m, const struct query *q, size_t i, size_t k)
{
	char sp[8];

	query_spell(q, i, k, sp);
	if (sp[0] == '"')
		buf_addc(m, '"');
	buf_adds(m, sp);
}

#define FTS_SPELLINGS 16	/* a piece spelled more ways is cut instead */

/*
 * The FTS5 query that finds q's text in a message's doc as convctl writes
 * it, into m (empty: the index cannot narrow it). The trigram index folds
 * case by SQLite's rules, which an ASCII letter's other case meets; the
 * characters beyond ASCII that convctl folds to a letter (q->fold) are
 * each spelling of the piece, ORed. The text is cut at each byte the JSON
 * writer escapes (and at a letter with its folds, when a piece has too
 * many spellings): each piece of three characters or more must be there,
 * a superset of the messages that match, which the caller confirms.
 */
static void
fts_piece(struct buf *m, const struct query *q, size_t from, size_t to)
{
	size_t i, n = 1, k, v, cut;

	for (i = from; i < to && n <= FTS_SPELLINGS; i++)
		n *= spellings(q, i);
	if (n > FTS_SPELLINGS) {	/* cut at the letters with folds */
		for (i = cut = from; i <= to; i++)
			if (i == to || spellings(q, i) > 1) {
				if (i - cut >= 3)
					fts_piece(m, q, cut, i);
				cut = i + 1;
			}
		return;
	}
	if (to - from < 3)
		return;
	if (m->len > 0)
		buf_adds(m, " AND ");
	buf_adds(m, n > 1 ? "(" : "");
	for (v = 0; v < n; v++) {
		buf_adds(m, v > 0 ? " OR \"" : "\"");
		/* v in a mixed radix, one digit a letter */
		for (i = from, k = v; i < to; i++) {
			spell(m, q, i, k % spellings(q, i));
			k /= spellings(q, i);
		}
		buf_addc(m, '"');
	}
	buf_adds(m, n > 1 ? ")" : "");
}

static void
fts_query(struct buf *m, const struct query *q)
{
	char sp[8];
	size_t i, start = 0;

	for (i = 0; i <= q->litlen; i++) {
		if (i < q->litlen && query_spell(q, i, 0, sp) == 1)
			continue;
		fts_piece(m, q, start, i);
		start = i + 1;
	}
}

#define SORT_AT_MOST 2000	/* matches sorted; more are walked by time */

/* 1: the index finds more than SORT_AT_MOST messages for match, 0: not */
static int
many_match(struct store *st, const struct buf *match, struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *r = NULL;
	int rc;

	if (sqlite3_prepare_v2(ss->db, "SELECT count(*) FROM (SELECT rowid FROM "
	    "messages_text WHERE messages_text MATCH ?1 LIMIT "
	    STR(SORT_AT_MOST) " + 1)", -1, &r, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(r, 1, match->data, (int)match->len,
	    SQLITE_STATIC) != SQLITE_OK || sqlite3_step(r) != SQLITE_ROW)
		rc = sq_error(st, "cannot search", e);
	else
		rc = sqlite3_column_int64(r, 0) > SORT_AT_MOST;
	sqlite3_finalize(r);
	return rc;
}

/*
 * The messages that may match q: the text through the trigram index
 * messages_text, each filter a condition, for a -n newest first, stepped
 * only until the sink has enough.
 */
int
sq_search(struct store *st, const struct query *q,
    const struct query_sink *sink, struct error *e)
{
	struct sq_state *ss = st->be;
	struct buf sql = { 0 }, match = { 0 }, tag = { 0 }, tool = { 0 };
	sqlite3_stmt *r = NULL;
	int step = SQLITE_DONE, stop = 0, taken, walk = 1, newest = q->max >= 0;
	int rc = -1;
	struct query_msg msg;
	json_t *m;

	if (st->n > 0 || st->nremoved > 0)
		return 0;	/* they may be newer than the database's */
	if (!ss->exists)
		return 1;
	if (q->litlen > 0)
		fts_query(&match, q);
	/* newest first, when many may match: walk the messages by time
	 * and stop once the sink has enough, not sort them all first */
	if (newest && match.len > 0 && (walk = many_match(st, &match,
	    e)) < 0)
		goto out;
	buf_addf(&sql, "SELECT c.id, c.pos, m.seq, m.doc, %s FROM messages m "
	    "%s JOIN conversations c ON c.id = m.conversation WHERE 1",
	    q->tag != NULL ? "c.doc" : "NULL", newest && walk ?
	    "INDEXED BY messages_at" : "");
	if (match.len > 0)
		buf_adds(&sql, " AND m.n IN (SELECT rowid FROM messages_text "
		    "WHERE messages_text MATCH ?1)");
	if (q->role >= 0)
		buf_adds(&sql, " AND m.role = ?2");
	if (q->since >= 0)
		buf_adds(&sql, " AND m.at >= ?3");
	if (q->until >= 0)
		buf_adds(&sql, " AND m.at <= ?4");
	if (row_json_param(&tool, q->tool) != NULL)
		buf_adds(&sql, " AND instr(m.doc, ?5) > 0");
	/* the tag as its text; query_tagged() then says */
	if (row_json_param(&tag, q->tag) != NULL)
		buf_adds(&sql, " AND instr(c.doc, ?6) > 0");
	if (newest)
		buf_adds(&sql, " ORDER BY m.at DESC, c.pos DESC, m.seq DESC");
	if (sqlite3_prepare_v2(ss->db, sql.data, -1, &r, NULL) != SQLITE_OK) {
		sq_error(st, "cannot search", e);
		goto out;
	}
	if (match.len > 0)
		sqlite3_bind_text(r, 1, match.data, (int)match.len,
		    SQLITE_STATIC);
	if (q->role >= 0)
		sqlite3_bind_text(r, 2, role_name((enum conv_role)q->role), -1,
		    SQLITE_STATIC);
	if (q->since >= 0)
		sqlite3_bind_int64(r, 3, q->since);
	if (q->until >= 0)
		sqlite3_bind_int64(r, 4, q->until);
	if (q->tool != NULL)
		sqlite3_bind_text(r, 5, tool.data, (int)tool.len, SQLITE_STATIC);
	if (q->tag != NULL)
		sqlite3_bind_text(r, 6, tag.data, (int)tag.len, SQLITE_STATIC);
	while (!stop && (step = sqlite3_step(r)) == SQLITE_ROW) {
		if (!query_tagged(q, (const char *)sqlite3_column_text(r, 4),
		    (size_t)sqlite3_column_bytes(r, 4)))
			continue;
		m = lex_json((const char *)sqlite3_column_text(r, 3),
		    (size_t)sqlite3_column_bytes(r, 3));
		if (!json_is_object(m)) {
			json_decref(m);
			error_set(e, "store '%s': conversation '%s': message %lld "
			    "is not a JSON object", st->path,
			    (const char *)sqlite3_column_text(r, 0),
			    (long long)sqlite3_column_int64(r, 2));
			goto out;
		}
		taken = query_json_msg(q, m, (const char *)
		    sqlite3_column_text(r, 0), sqlite3_column_int64(r, 1),
		    (size_t)sqlite3_column_int64(r, 2), &msg, e);
		if (taken > 0)
			stop = sink->message(sink->arg, &msg, e);
		json_decref(m);
		if (taken < 0 || stop < 0)
			goto out;
	}
	if (!stop && step != SQLITE_DONE) {
		sq_error(st, "cannot search", e);
		goto out;
	}
	rc = 1;
out:
	sqlite3_finalize(r);
	buf_free(&sql);
	buf_free(&match);
	buf_free(&tag);
	buf_free(&tool);
	return rc;
}

