/*
 * sqlite.h - what the SQLite engine's files share: sqlite.c's state, its
 * error, and what sqlite-schema.c, sqlite-write.c and sqlite-search.c give
 * the rest. Theirs alone.
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

/* sql run (one or more statements, no result) */
static inline int
sq_exec(struct store *st, const char *what, const char *sql, struct error *e)
{
	struct sq_state *ss = st->be;

	if (sqlite3_exec(ss->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sq_error(st, what, e);
	return 0;
}

/* the trigger that indexes each message as it is inserted (the schema's,
 * dropped and made again by a bulk copy: sqlite-write.c) */
#define MESSAGES_TEXT_INSERT \
	"CREATE TRIGGER messages_text_insert AFTER INSERT ON messages BEGIN" \
	"  INSERT INTO messages_text (rowid, doc) VALUES (new.n, new.doc); END"

/* a commit that leaves this many pages in the WAL or more checkpoints it
 * (sq_commit()); sqlite.c's wal_frames() counts them */
#define WAL_CHECKPOINT 256	/* pages: 1 MB of 4 KB pages */

/* a time in ms, or NULL for none (< 0) */
static inline void
sq_bind_ms(sqlite3_stmt *q, int i, int64_t ms)
{
	if (ms < 0)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_int64(q, i, ms);
}

/* sqlite-schema.c: the schema's version and the store's top-level fields
 * read; a writer makes a store not made yet and upgrades an older schema */
int sq_read_root(struct store *, struct error *);

/* sqlite-write.c: the prepared statement k (Q_*), reset and cleared for
 * new bindings */
sqlite3_stmt *sq_stmt(struct store *, int k, const char *what,
    struct error *);
/* a writer's transaction, which holds the database's write lock: -1 and
 * e, ERROR_TEMPORARY, when another writer held it past the wait (a lock
 * SQLite answers busy at once is tried again while the wait lasts) */
int sq_begin_write(struct store *, double wait, struct error *);
/* SQLite's busy timeout for a wait of wait seconds, in ms */
int sq_busy_ms(double wait);
/* every change in memory into the transaction, not yet committed */
int sq_flush(struct store *, struct error *);
/* the new conversations (no row yet) written, then freed: st keeps the
 * rest (rows.c) */
int sq_flush_new(struct store *, struct error *);
/* sq_flush(), then the commit */
int sq_commit(struct store *, struct error *);

/* sqlite-search.c: store_query() through the FTS5 index */
int sq_search(struct store *, const struct query *,
    const struct query_sink *, struct error *);

#endif
