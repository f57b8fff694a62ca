/*
 * pg.h - what the PostgreSQL engine's files share beyond its session
 * (pg-session.h): pg.c's, pg-schema.c's, pg-write.c's and pg-search.c's.
 * Theirs alone.
 */
#ifndef CONVCTL_STORE_PG_H
#define CONVCTL_STORE_PG_H

#include "engine.h"
#include "pg-session.h"

/* a time as the database reads it, into out; NULL for none (<0) */
static inline const char *
pg_ts_param(int64_t ms, char out[TS_LEN])
{
	if (ms < 0)
		return NULL;
	ts_format(ms, out);
	return out;
}
/* pg-schema.c: the schema's version and the store's top-level fields, read
 * in the round trip that begins the transaction (pg_open()) */
#define PG_ROOT_SQL "SELECT (SELECT value FROM @.meta WHERE key = " \
	"'schema_version'), (SELECT doc FROM @.root)"
/* the store ready from r, PG_ROOT_SQL's result (NULL: no store made yet),
 * which it clears: a writer makes a store not made yet and upgrades an
 * older schema; the root read into st */
int pg_schema_ready(struct store *, PGresult *r, struct error *);

/* pg-write.c: every change in memory into the transaction, not committed */
int pg_flush(struct store *, struct error *);
/* the new conversations (no row yet) written, then freed: st keeps the
 * rest (rows.c) */
int pg_flush_new(struct store *, struct error *);
/* pg_flush(), then the commit */
int pg_commit(struct store *, struct error *);

/* pg-search.c: store_query() in SQL */
int pg_search(struct store *, const struct query *,
    const struct query_sink *, struct error *);

#endif
