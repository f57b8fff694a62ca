/*
 * pg.c - the PostgreSQL engine: the store in a database that many
 * hosts share, reached through libpq (pg-libpq.c) with a postgresql:// URI.
 * Here: the store opened, what a command reads (a load, a body, every
 * conversation through a cursor, the counts of `convctl stats') and the
 * engine's ops table. The schema, made and upgraded, is pg-schema.c's;
 * the writes and the commit pg-write.c's; the search op pg-search.c's; the
 * connection and the transaction pg-session.c's.
 *
 * A command is one transaction: a writer begins it holding a transaction
 * advisory lock on its schema, so writers on any host run one after another
 * as on the file's lock; a reader's is REPEATABLE READ, one snapshot. Only
 * what the command loads is read (store.c's store_load_*), only what it
 * changed is written: a conversation row, and the messages from the first
 * one that differs from what was read. Each document is kept as the `json'
 * text convctl wrote, so key order, number texts and unknown fields survive.
 * Round trips are few: the first begins the transaction, takes the lock
 * and reads the root; a write that needs no answer travels with the next
 * query (pg_run_later), so add is four (that, the active conversation, its
 * writes with the rolling limit's count, COMMIT); many new conversations
 * load with COPY.
 *
 * It knows nothing of the lifecycle's rules; the database holds the ones it
 * can (one active conversation, unique ids, valid roles) as constraints.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/lex.h"	/* lex_json() */
#include "pg-session.h"
#include "pg.h"
#include "rows.h"

/* a whole conversation: id, pos, doc, its messages as one JSON array */
#define FULL_COLUMNS "c.id, c.pos, c.doc, coalesce((SELECT " \
	"json_agg(m.doc ORDER BY m.seq) FROM @.messages m WHERE " \
	"m.conversation = c.id), '[]')"
/* what a list shows: id, pos, title, summary, started, ended (ms), count,
 * and the conversation's own fields for its marks (tags, pins) */
#define META_COLUMNS "c.id, c.pos, c.title, c.summary, " \
	"(extract(epoch FROM c.started_at) * 1000)::bigint, " \
	"(extract(epoch FROM c.ended_at) * 1000)::bigint, c.message_count, c.doc"

/*
 * The store's root read in the round trip that begins the transaction (and
 * takes a writer's lock); a store not made yet says so by failing it, and
 * pg-schema.c makes it or reads it as empty.
 */
static int
pg_open(struct store *st, const char *uri, double wait, int whole,
    struct error *e)
{
	PGresult *r;
	int rc;

	(void)whole;	/* only what a command asks for is ever read */
	st->next_pos = INT64_MAX / 2;	/* new ones after every stored one */
	if ((rc = pg_session_open(st, uri, wait, PG_ROOT_SQL,
	    "cannot read the store", &r, e)) < 0)
		return rc;
	return pg_schema_ready(st, r, e);
}

/* c (new, or loaded without its body) made whole from row i of r */
static int
fill_full(struct store *st, struct conv *c, PGresult *r, int i,
    struct error *e)
{
	json_t *obj, *msgs;

	obj = lex_json(pq.getvalue(r, i, 2), (size_t)pq.getlength(r, i, 2));
	msgs = lex_json(pq.getvalue(r, i, 3), (size_t)pq.getlength(r, i, 3));
	if (!json_is_object(obj) || !json_is_array(msgs)) {
		json_decref(obj);
		json_decref(msgs);
		return error_set(e, "store '%s': conversation '%s' is not a "
		    "JSON object with messages in the database", st->path,
		    pq.getvalue(r, i, 0));
	}
	json_object_set_new(obj, "messages", msgs);	/* in its place */
	json_decref(c->obj);
	c->obj = obj;
	c->pos = strtoll(pq.getvalue(r, i, 1), NULL, 10);
	if (conv_refresh(c, e) < 0)
		return -1;
	row_loaded(st, c);
	return 0;
}

/* a conversation as a list shows it, from row i of META_COLUMNS */
static struct conv *
meta_conv(PGresult *r, int i)
{
	struct conv *c = conv_new();

	c->id = c->own[0] = xstrdup(pq.getvalue(r, i, 0));
	c->pos = strtoll(pq.getvalue(r, i, 1), NULL, 10);
	if (!pq.getisnull(r, i, 2))
		c->title = c->own[1] = xstrdup(pq.getvalue(r, i, 2));
	if (!pq.getisnull(r, i, 3))
		c->summary = c->own[2] = xstrdup(pq.getvalue(r, i, 3));
	c->started = strtoll(pq.getvalue(r, i, 4), NULL, 10);
	c->ended = pq.getisnull(r, i, 5) ? -1 :
	    strtoll(pq.getvalue(r, i, 5), NULL, 10);
	c->last = c->ended >= 0 ? c->ended : c->started;
	c->nmsg = (size_t)strtoll(pq.getvalue(r, i, 6), NULL, 10);
	c->head = lex_json(pq.getvalue(r, i, 7), (size_t)pq.getlength(r, i, 7));
	return c;
}

static int
pg_load(struct store *st, const struct store_query *q, struct error *e)
{
	struct pg_state *ps = st->be;
	struct buf sql = { 0 }, limit = { 0 };
	const char *param[1] = { NULL };
	int full = q->what != LOAD_ENDED || q->bodies, n = 0, i, rc = -1;
	PGresult *r;
	struct conv *c;

	if (!ps->exists)
		return 0;
	buf_addf(&sql, "SELECT %s FROM @.conversations c ", full ?
	    FULL_COLUMNS : META_COLUMNS);
	switch (q->what) {
	case LOAD_ACTIVE:
		buf_adds(&sql, "WHERE c.ended_at IS NULL");
		break;
	case LOAD_ID:
		buf_adds(&sql, "WHERE c.id = $1");
		param[0] = q->id;
		n = 1;
		break;
	case LOAD_ENDED:
		buf_adds(&sql, "WHERE c.ended_at IS NOT NULL "
		    "ORDER BY c.ended_at DESC, c.pos DESC");
		if (q->limit != SIZE_MAX) {
			buf_addf(&limit, "%zu", q->limit);
			buf_adds(&sql, " LIMIT $1");
			param[0] = limit.data;
			n = 1;
		}
		break;
	case LOAD_ALL:
		buf_adds(&sql, "ORDER BY c.pos");
		break;
	}
	if ((r = pg_run(st, "cannot read conversations", sql.data, n, param,
	    e)) == NULL)
		goto out;
	for (i = 0; i < pq.ntuples(r); i++) {
		/* what this transaction has in memory is newer than the row */
		if (store_loaded(st, pq.getvalue(r, i, 0)) != NULL)
			continue;
		if (full) {
			c = conv_new();
			if (fill_full(st, c, r, i, e) < 0) {
				conv_free(c);
				pq.clear(r);
				goto out;
			}
		} else
			c = meta_conv(r, i);
		store_push(st, c);
	}
	pq.clear(r);
	if (q->what == LOAD_ALL && st->n > 1)
		qsort(st->conv, st->n, sizeof(*st->conv), conv_by_pos);
	rc = 0;
out:
	buf_free(&sql);
	buf_free(&limit);
	return rc;
}

static int
pg_load_body(struct store *st, struct conv *c, struct error *e)
{
	const char *param[1] = { c->id };
	PGresult *r;
	int rc;

	if ((r = pg_run(st, "cannot read a conversation", "SELECT " FULL_COLUMNS
	    " FROM @.conversations c WHERE c.id = $1", 1, param, e)) == NULL)
		return -1;
	if (pq.ntuples(r) != 1) {
		pq.clear(r);
		return error_set(e, "store '%s': conversation '%s' is gone",
		    st->path, c->id);
	}
	rc = fill_full(st, c, r, 0, e);
	pq.clear(r);
	return rc;
}

#define EACH_BATCH "64"		/* conversations a FETCH brings */

/* every conversation through a cursor, a batch of whole ones at a time */
static int
pg_each(struct store *st, store_each_fn fn, void *arg, struct error *e)
{
	struct pg_state *ps = st->be;
	struct conv *c;
	PGresult *r;
	int i, rows, rc;

	if (!ps->exists)
		return 0;
	if (pg_run_only(st, "cannot read conversations", "DECLARE every NO "
	    "SCROLL CURSOR FOR SELECT " FULL_COLUMNS " FROM @.conversations c "
	    "ORDER BY c.pos", 0, NULL, e) < 0)
		return -1;
	do {
		if ((r = pg_run(st, "cannot read conversations", "FETCH "
		    EACH_BATCH " FROM every", 0, NULL, e)) == NULL)
			return -1;
		rows = pq.ntuples(r);
		for (i = 0, rc = 0; i < rows && rc == 0; i++) {
			c = conv_new();
			rc = fill_full(st, c, r, i, e) < 0 ? -1 : fn(c, arg, e);
			conv_free(c);
		}
		pq.clear(r);
		if (rc < 0)
			return -1;
	} while (rows == atoi(EACH_BATCH));
	return pg_run_only(st, "cannot read conversations", "CLOSE every", 0,
	    NULL, e);
}

static int
pg_count_ended(struct store *st, size_t *n, struct error *e)
{
	struct pg_state *ps = st->be;
	PGresult *r;

	*n = 0;
	if (!ps->exists)
		return 0;
	if (st->mode == STORE_WRITE && pg_flush(st, e) < 0)
		return -1;
	if ((r = pg_run(st, "cannot count conversations", "SELECT count(*) FROM "
	    "@.conversations WHERE ended_at IS NOT NULL", 0, NULL, e)) == NULL)
		return -1;
	*n = (size_t)strtoull(pq.getvalue(r, 0, 0), NULL, 10);
	pq.clear(r);
	return 0;
}

/* the conversations store_stats() asks for: the WHERE of a query whose
 * conversations are c; parameters $1 (since) and $2 (the tag as JSON, a
 * condition every tagged conversation meets: stats_conv() then says),
 * each NULL for none */
static void
stats_where(struct buf *sql)
{
	buf_adds(sql, " WHERE ($1::timestamptz IS NULL OR c.started_at >= $1)"
	    " AND ($2::text IS NULL OR strpos(c.doc::text, $2) > 0)");
}

/* a message's toolsUsed as the database reads it; NULL where the database's
 * JSON functions would refuse it (\u0000 anywhere in it: read here then) */
#define STATS_TOOLS "CASE WHEN strpos(m.doc::text, '\"toolsUsed\"') = 0 " \
	"THEN NULL WHEN strpos(m.doc::text, '\\u0000') > 0 THEN NULL " \
	"WHEN json_typeof(m.doc->'toolsUsed') = 'array' " \
	"THEN m.doc->'toolsUsed' END"

/*
 * In SQL: the store's size (its tables with their indexes and TOAST), one
 * row a conversation as a listing reads it (its head only when it may hold
 * tags or a pin), and its messages counted by role and tool with GROUP BY;
 * only a message whose JSON the database cannot read (\u0000) crosses the
 * wire. With --tag, a conversation's counts are taken only when
 * stats_conv() took it (taken).
 */
static int
pg_stats(struct store *st, const struct stats_request *rq,
    struct store_stats *s, struct error *e)
{
	static const char *const what = "cannot count conversations";
	struct pg_state *ps = st->be;
	struct buf sql = { 0 }, tag = { 0 };
	char since[TS_LEN];
	const char *p[2], *id;
	json_t *taken = json_object(), *doc;
	enum conv_role role;
	PGresult *r = NULL;
	struct conv *c;
	int i, rows, rc = -1;

	s->bytes = 0;
	if (!ps->exists) {
		rc = 1;
		goto out;
	}
	p[0] = pg_ts_param(rq->since, since);
	p[1] = row_json_param(&tag, rq->tag);
	if ((r = pg_run(st, what, "SELECT coalesce(sum(pg_total_relation_size("
	    "c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = "
	    "c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'", 1,
	    (const char *const *)&ps->schema, e)) == NULL)
		goto out;
	s->bytes = strtoll(pq.getvalue(r, 0, 0), NULL, 10);
	pq.clear(r);

	buf_adds(&sql, "SELECT c.id, (extract(epoch FROM c.started_at) * "
	    "1000)::bigint, (extract(epoch FROM c.ended_at) * 1000)::bigint, "
	    "CASE WHEN strpos(c.doc::text, '\"tags\"') > 0 OR "
	    "strpos(c.doc::text, '\"pinned\"') > 0 THEN c.doc END "
	    "FROM @.conversations c");
	stats_where(&sql);
	if ((r = pg_run(st, what, sql.data, 2, p, e)) == NULL)
		goto out;
	rows = pq.ntuples(r);
	for (i = 0; i < rows; i++) {
		c = conv_new();
		c->id = pq.getvalue(r, i, 0);
		c->started = strtoll(pq.getvalue(r, i, 1), NULL, 10);
		c->ended = pq.getisnull(r, i, 2) ? -1 :
		    strtoll(pq.getvalue(r, i, 2), NULL, 10);
		c->head = pq.getisnull(r, i, 3) ? json_object() :
		    lex_json(pq.getvalue(r, i, 3), (size_t)pq.getlength(r, i, 3));
		if (c->head == NULL)
			c->head = json_object();
		if (stats_conv(s, rq, c) && rq->tag != NULL)
			json_object_set_new(taken, c->id, json_true());
		conv_free(c);
	}
	pq.clear(r);

	sql.len = 0;
	buf_adds(&sql, "SELECT m.conversation, m.role, count(*) FROM "
	    "@.messages m JOIN @.conversations c ON c.id = m.conversation");
	stats_where(&sql);
	buf_adds(&sql, " GROUP BY 1, 2");
	if ((r = pg_run(st, what, sql.data, 2, p, e)) == NULL)
		goto out;
	rows = pq.ntuples(r);
	for (i = 0; i < rows; i++) {
		id = pq.getvalue(r, i, 0);
		if ((rq->tag == NULL || json_object_get(taken, id) != NULL) &&
		    role_parse(pq.getvalue(r, i, 1), &role) == 0)
			stats_role(s, role, strtoull(pq.getvalue(r, i, 2), NULL,
			    10));
	}
	pq.clear(r);

	sql.len = 0;
	buf_adds(&sql, "SELECT m.conversation, t.e #>> '{}', count(*) FROM "
	    "@.messages m JOIN @.conversations c ON c.id = m.conversation "
	    "CROSS JOIN LATERAL json_array_elements(" STATS_TOOLS ") t(e)");
	stats_where(&sql);
	buf_adds(&sql, " AND json_typeof(t.e) = 'string' GROUP BY 1, 2");
	if ((r = pg_run(st, what, sql.data, 2, p, e)) == NULL)
		goto out;
	rows = pq.ntuples(r);
	for (i = 0; i < rows; i++)
		if (rq->tag == NULL ||
		    json_object_get(taken, pq.getvalue(r, i, 0)) != NULL)
			stats_tool(s, pq.getvalue(r, i, 1),
			    (size_t)pq.getlength(r, i, 1),
			    strtoull(pq.getvalue(r, i, 2), NULL, 10));
	pq.clear(r);

	sql.len = 0;
	buf_adds(&sql, "SELECT m.conversation, m.doc FROM @.messages m JOIN "
	    "@.conversations c ON c.id = m.conversation");
	stats_where(&sql);
	buf_adds(&sql, " AND strpos(m.doc::text, '\"toolsUsed\"') > 0 AND "
	    "strpos(m.doc::text, '\\u0000') > 0");
	if ((r = pg_run(st, what, sql.data, 2, p, e)) == NULL)
		goto out;
	rows = pq.ntuples(r);
	for (i = 0; i < rows; i++) {
		if (rq->tag != NULL &&
		    json_object_get(taken, pq.getvalue(r, i, 0)) == NULL)
			continue;
		doc = lex_json(pq.getvalue(r, i, 1),
		    (size_t)pq.getlength(r, i, 1));
		stats_tools(s, json_object_get(doc, "toolsUsed"));
		json_decref(doc);
	}
	pq.clear(r);
	rc = 1;
out:
	json_decref(taken);
	buf_free(&sql);
	buf_free(&tag);
	return rc;
}

/* postgresql://... and postgres://... name a database */
static int
pg_claims(const char *path)
{
	return strncmp(path, "postgresql://", 13) == 0 ||
	    strncmp(path, "postgres://", 11) == 0;
}

const struct store_engine store_pg_engine = {
	.name = "postgresql",
	.claims = pg_claims,
	.shown = pg_uri_shown,
	.holds_password = pg_uri_has_password,
	.open = pg_open,
	.load = pg_load,
	.load_body = pg_load_body,
	.count_ended = pg_count_ended,
	.search = pg_search,
	.stats = pg_stats,
	.each = pg_each,
	.flush_new = pg_flush_new,
	.commit = pg_commit,
	.close = pg_session_close,
};
