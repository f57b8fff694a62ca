/*
 * pg.h - what the PostgreSQL engine's files share beyond its session
 * (pg-session.h): pg.c's and pg-search.c's. Theirs alone.
 */
#ifndef CONVCTL_STORE_PG_H
#define CONVCTL_STORE_PG_H

#include "engine.h"

/* a time as the database reads it, into out; NULL for none (<0) */
static inline const char *
pg_ts_param(int64_t ms, char out[TS_LEN])
{
	if (ms < 0)
		return NULL;
	ts_format(ms, out);
	return out;
}
/* pg-search.c: store_query() in SQL */
int pg_search(struct store *, const struct query *,
    const struct query_sink *, struct error *);

#endif
