/*
 * pg-search.c - the PostgreSQL engine's way to run a query (store_query()):
 * SQL over the messages' table, the text through the trigram index
 * messages_text, each filter a condition; the rows that pass given to the
 * sink, which matches them again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/lex.h"	/* lex_json() */
#include "pg-session.h"
#include "pg.h"
#include "rows.h"

/*
 * The regular expression (PostgreSQL's, every byte but letters and digits
 * escaped) that finds q's text in a message's doc as convctl writes it:
 * each of its bytes as query_spell() spells them, a letter when case is
 * ignored as a class of both its cases and its folds. Case comes from the
 * classes, not from the server's locale.
 */
static void
text_pattern(struct buf *re, const struct query *q)
{
	char sp[8];
	size_t i, j, k, n;
	char c;

	for (i = 0; i < q->litlen; i++) {
		c = q->lit[i];
		if (q->icase && c >= 'a' && c <= 'z') {
			buf_addf(re, "[%c%c", c, c - ('a' - 'A'));
			for (k = 1; query_spell(q, i, k, sp) > 0; k++)
				buf_adds(re, sp);
			buf_addc(re, ']');
			continue;
		}
		n = query_spell(q, i, 0, sp);
		for (j = 0; j < n; j++) {
			c = sp[j];
			if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
			    !(c >= '0' && c <= '9'))
				buf_addc(re, '\\');
			buf_addc(re, c);
		}
	}
}

#define SEARCH_BATCH "256"	/* rows a FETCH brings, for a -n */

/*
 * The messages that may match q, in SQL over the messages' table: the
 * text through the trigram index messages_text where the schema has it
 * (the same query without it), each filter as a condition, only the rows
 * that pass sent. For a -n, newest first through a cursor, until the sink
 * has enough. None while conversations are loaded: they may be newer.
 */
int
pg_search(struct store *st, const struct query *q,
    const struct query_sink *sink, struct error *e)
{
	struct pg_state *ps = st->be;
	struct buf sql = { 0 }, re = { 0 }, tag = { 0 }, tool = { 0 };
	char since[TS_LEN], until[TS_LEN];
	const char *p[6];
	int n = 0, i, rows, stop = 0, taken, rc = -1;
	PGresult *r = NULL;
	struct query_msg msg;
	json_t *m;

	if (st->n > 0 || st->nremoved > 0)
		return 0;
	if (!ps->exists)
		return 1;
	if (q->max >= 0)
		buf_adds(&sql, "DECLARE search NO SCROLL CURSOR FOR ");
	buf_addf(&sql, "SELECT c.id, c.pos, m.seq, m.doc, %s FROM @.messages m "
	    "JOIN @.conversations c ON c.id = m.conversation WHERE true",
	    q->tag != NULL ? "c.doc" : "NULL");
	if (q->litlen > 0) {
		text_pattern(&re, q);
		p[n++] = re.data;
		buf_addf(&sql, " AND m.doc::text ~ $%d", n);
	}
	if (q->role >= 0) {
		p[n++] = role_name((enum conv_role)q->role);
		buf_addf(&sql, " AND m.role = $%d", n);
	}
	/* a millisecond wider: the caller compares the message's own text */
	if (q->since >= 0) {
		p[n++] = pg_ts_param(q->since > 0 ? q->since - 1 : 0, since);
		buf_addf(&sql, " AND m.at >= $%d", n);
	}
	if (q->until >= 0) {
		p[n++] = pg_ts_param(q->until + 1, until);
		buf_addf(&sql, " AND m.at < $%d", n);
	}
	if ((p[n] = row_json_param(&tool, q->tool)) != NULL)
		buf_addf(&sql, " AND strpos(m.doc::text, $%d) > 0", ++n);
	/* the tag as its text (the database's JSON functions refuse a
	 * document with \u0000 anywhere); query_tagged() then says */
	if ((p[n] = row_json_param(&tag, q->tag)) != NULL)
		buf_addf(&sql, " AND strpos(c.doc::text, $%d) > 0", ++n);
	if (q->max >= 0) {
		buf_adds(&sql, " ORDER BY m.at DESC, c.pos DESC, m.seq DESC");
		if (pg_run_only(st, "cannot search", sql.data, n, p, e) < 0)
			goto out;
	}
	do {
		r = q->max >= 0 ? pg_run(st, "cannot search", "FETCH "
		    SEARCH_BATCH " FROM search", 0, NULL, e) :
		    pg_run(st, "cannot search", sql.data, n, p, e);
		if (r == NULL)
			goto out;
		rows = pq.ntuples(r);
		for (i = 0; i < rows && !stop; i++) {
			if (!query_tagged(q, pq.getvalue(r, i, 4),
			    (size_t)pq.getlength(r, i, 4)))
				continue;
			m = lex_json(pq.getvalue(r, i, 3),
			    (size_t)pq.getlength(r, i, 3));
			if (!json_is_object(m)) {
				json_decref(m);
				error_set(e, "store '%s': conversation '%s': "
				    "message %s is not a JSON object", st->path,
				    pq.getvalue(r, i, 0), pq.getvalue(r, i, 2));
				goto out;
			}
			taken = query_json_msg(q, m, pq.getvalue(r, i, 0),
			    strtoll(pq.getvalue(r, i, 1), NULL, 10),
			    (size_t)strtoull(pq.getvalue(r, i, 2), NULL, 10),
			    &msg, e);
			if (taken > 0)
				stop = sink->message(sink->arg, &msg, e);
			json_decref(m);
			if (taken < 0 || stop < 0)
				goto out;
		}
		pq.clear(r);
		r = NULL;
	} while (q->max >= 0 && !stop && rows == atoi(SEARCH_BATCH));
	rc = 1;
out:
	pq.clear(r);
	buf_free(&sql);
	buf_free(&re);
	buf_free(&tag);
	buf_free(&tool);
	return rc;
}
