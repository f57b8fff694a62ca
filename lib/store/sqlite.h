/*
 * sqlite.h - what the SQLite engine's files share: sqlite.c's state and
 * its error, and sqlite-search.c's search. Theirs alone.
 */
#ifndef CONVCTL_STORE_SQLITE_H
#define CONVCTL_STORE_SQLITE_H

#include <sqlite3.h>

#include "engine.h"

/* the statements the engine runs many times, prepared once */
enum {
	Q_MESSAGES,	/* a conversation's messages' docs, in order */
	Q_INSERT_CONV,
	Q_UPDATE_CONV,
	Q_INSERT_MSG,
	Q_DELETE_MSGS_FROM,
	Q_DELETE_CONV,
	Q_COUNT
};
struct sq_state {
	sqlite3 *db;
	char *file;		/* the database file, links followed */
	int exists;		/* the schema's tables are there */
	long version;		/* their schema's (a reader's may be older) */
	int intx;		/* a transaction is open */
	double wait;		/* the busy timeout: a writer's for the write
				 * lock, at least READ_WAIT a reader's */
	int nowal;		/* opened to write while the file was empty:
				 * WAL is to be set after the commit */
	int walframes;		/* pages in the WAL after the last commit */
	int bulk;		/* 1: messages inserted unindexed, indexed at
				 * once before the next other write (bulk_end());
				 * -1: not so (the store had messages) */
	int flushing_new;	/* in sq_flush_new() */
	sqlite3_stmt *stmt[Q_COUNT];
};

/* e from the database's last error: what failed, and what SQLite said; a
 * lock held past the wait is store_locked()'s (exit 75: try again), the
 * one message every engine gives. -1 */
static inline int
sq_error(struct store *st, const char *what, struct error *e)
{
	struct sq_state *ss = st->be;

	if (ss->db != NULL && (sqlite3_errcode(ss->db) & 0xff) == SQLITE_BUSY)
		return store_locked(st->path, ss->wait, e);
	error_set(e, "store '%s': %s: %s", st->path, what,
	    ss->db != NULL ? sqlite3_errmsg(ss->db) : "out of memory");
	return -1;
}
/* sqlite-search.c: store_query() through the FTS5 index */
int sq_search(struct store *, const struct query *,
    const struct query_sink *, struct error *);

#endif
