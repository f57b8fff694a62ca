/*
 * sqlite-write.c - the SQLite engine's write path: every change in memory
 * written into the command's transaction (sq_flush()), then committed
 * (sq_commit()): a writer's transaction (sq_begin_write()) and the
 * engine's prepared statements (sq_stmt()). Only what changed since it was
 * read is written (rows.c finds it): a conversation's row, and its
 * messages from the first that differs. Many new conversations go in batches (sq_flush_new()); a copy
 * into a store with no messages indexes them all at once (bulk_begin()).
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "sqlite.h"
#include "rows.h"

static const char *const stmt_sql[Q_COUNT] = {
	"SELECT doc FROM messages WHERE conversation = ?1 ORDER BY seq",
	"INSERT INTO conversations (id, started_at, ended_at, title, summary, "
	"message_count, doc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	"UPDATE conversations SET started_at = ?2, ended_at = ?3, title = ?4, "
	"summary = ?5, message_count = ?6, doc = ?7 WHERE id = ?1",
	"INSERT INTO messages (conversation, seq, id, role, at, doc) VALUES "
	"(?1, ?2, ?3, ?4, ?5, ?6)",
	"DELETE FROM messages WHERE conversation = ?1 AND seq >= ?2",
	"DELETE FROM conversations WHERE id = ?1",
};

/* the prepared statement k, reset and cleared for new bindings */
sqlite3_stmt *
sq_stmt(struct store *st, int k, const char *what, struct error *e)
{
	struct sq_state *ss = st->be;

	if (ss->stmt[k] == NULL && sqlite3_prepare_v3(ss->db, stmt_sql[k], -1,
	    SQLITE_PREPARE_PERSISTENT, &ss->stmt[k], NULL) != SQLITE_OK) {
		sq_error(st, what, e);
		return NULL;
	}
	sqlite3_reset(ss->stmt[k]);
	sqlite3_clear_bindings(ss->stmt[k]);
	return ss->stmt[k];
}

int
sq_busy_ms(double wait)
{
	return wait <= 0 ? 0 : wait >= INT_MAX / 1000 ? INT_MAX :
	    (int)(wait * 1000);
}

/* seconds since t0 on the monotonic clock */
static double
since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) +
	    (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* a writer's transaction, which holds the database's write lock: -1 and
 * e, ERROR_TEMPORARY, when another writer held it past the wait. SQLite's
 * busy handler waits for a lock, but SQLite may answer busy without asking
 * it (seen with the first writers of a new database all at once, under
 * load): tried again, 10 ms apart, the handler given what is left of the
 * wait, so that giving up always means the wait was spent */
int
sq_begin_write(struct store *st, double wait, struct error *e)
{
	struct sq_state *ss = st->be;
	struct timespec t0, nap = { 0, 10 * 1000000 };
	double left;
	int rc, retried = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((rc = sqlite3_exec(ss->db, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL)) != SQLITE_OK) {
		if ((rc & 0xff) != SQLITE_BUSY)
			return sq_error(st, "cannot begin a transaction", e);
		if ((left = wait - since(&t0)) <= 0.01)
			return store_locked(st->path, wait, e);
		nanosleep(&nap, NULL);
		sqlite3_busy_timeout(ss->db, (int)(left * 1000));
		retried = 1;
	}
	if (retried)	/* the rest of the transaction waits as it did */
		sqlite3_busy_timeout(ss->db, sq_busy_ms(wait));
	ss->intx = 1;
	return 0;
}

/* steps s to its end (a write): 0, or -1 and e */
static int
step_done(struct store *st, sqlite3_stmt *s, const char *what,
    struct error *e)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return sq_error(st, what, e);
	return 0;
}

/* s (NULL: NULL) bound as text of len bytes */
static void
bind_text(sqlite3_stmt *q, int i, const char *s, size_t len)
{
	if (s == NULL)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_text64(q, i, s, len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* the messages of c from the k-th on, as rows */
static int
insert_messages(struct store *st, struct conv *c, size_t k, struct error *e)
{
	json_t *msgs = json_object_get(c->obj, "messages"), *m;
	struct buf doc = { 0 };
	const char *s;
	sqlite3_stmt *q;
	int64_t at;
	size_t i, len;
	int rc = -1;

	for (i = k; i < json_array_size(msgs); i++) {
		m = json_array_get(msgs, i);
		if ((q = sq_stmt(st, Q_INSERT_MSG, "cannot store messages", e)) ==
		    NULL)
			goto out;
		if (ts_parse(json_str(m, "timestamp", NULL), &at) < 0) {
			error_set(e, "store '%s': message %zu of '%s' has a bad "
			    "timestamp", st->path, i + 1, c->id);
			goto out;
		}
		sqlite3_bind_text(q, 1, c->id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 2, (sqlite3_int64)i);
		s = json_str(m, "id", &len);
		bind_text(q, 3, s, len);
		s = json_str(m, "role", &len);
		bind_text(q, 4, s, len);
		sqlite3_bind_int64(q, 5, at);
		doc.len = 0;
		json_dump_buf(&doc, m);
		sqlite3_bind_text64(q, 6, doc.data, doc.len, SQLITE_STATIC,
		    SQLITE_UTF8);
		if (step_done(st, q, "cannot store messages", e) < 0)
			goto out;
	}
	rc = 0;
out:
	buf_free(&doc);
	return rc;
}

/*
 * c's row and its messages from the first that changed, when anything did:
 * new, its doc or its messages not what was read, as row_changed() tells
 * (as pg.c's sync_conv()).
 */
static int
sync_conv(struct store *st, struct conv *c, struct error *e)
{
	struct sq_state *ss = st->be;
	struct row_conv *sc = c->be;
	struct buf doc = { 0 };
	sqlite3_stmt *q;
	size_t k = 0;
	int rc = -1;

	if (c->obj == NULL)	/* listed, never read whole: unchanged */
		return 0;
	row_doc_text(c, &doc);
	if (!row_changed(c, &doc, &k)) {
		rc = 0;
		goto out;
	}
	if ((q = sq_stmt(st, sc == NULL ? Q_INSERT_CONV : Q_UPDATE_CONV,
	    "cannot store a conversation", e)) == NULL)
		goto out;
	sqlite3_bind_text(q, 1, c->id, -1, SQLITE_STATIC);
	sq_bind_ms(q, 2, c->started);
	sq_bind_ms(q, 3, c->ended);
	bind_text(q, 4, c->title, c->title ? strlen(c->title) : 0);
	bind_text(q, 5, c->summary, c->summary ? strlen(c->summary) : 0);
	sqlite3_bind_int64(q, 6, (sqlite3_int64)c->nmsg);
	sqlite3_bind_text64(q, 7, doc.data, doc.len, SQLITE_STATIC,
	    SQLITE_UTF8);
	if (step_done(st, q, "cannot store a conversation", e) < 0)
		goto out;
	if (sc == NULL)
		c->pos = sqlite3_last_insert_rowid(ss->db);
	else if (k < sc->nmsg) {
		if ((q = sq_stmt(st, Q_DELETE_MSGS_FROM, "cannot store messages",
		    e)) == NULL)
			goto out;
		sqlite3_bind_text(q, 1, c->id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 2, (sqlite3_int64)k);
		if (step_done(st, q, "cannot store messages", e) < 0)
			goto out;
	}
	if (insert_messages(st, c, k, e) < 0)
		goto out;
	row_remember(c, &doc);
	rc = 0;
out:
	buf_free(&doc);
	return rc;
}

/*
 * A copy into a store with no messages (sq_flush_new(), in batches, in one
 * transaction) inserts them without the trigger that indexes each, and
 * indexes them all at once before any other write (FTS5's rebuild: at
 * 1,000 conversations, 0.4 of the CPU time, scripts/bench-sqlite). The trigger
 * is dropped and made again in the same transaction: a copy that does not
 * commit leaves the schema as it was.
 */
static int
bulk_begin(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(ss->db, "SELECT 1 FROM messages LIMIT 1", -1,
	    &q, NULL) != SQLITE_OK)
		return sq_error(st, "cannot read messages", e);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW) {
		ss->bulk = -1;
		return 0;
	}
	if (rc != SQLITE_DONE)
		return sq_error(st, "cannot read messages", e);
	if (sq_exec(st, "cannot store messages",
	    "DROP TRIGGER messages_text_insert", e) < 0)
		return -1;
	ss->bulk = 1;
	return 0;
}

static int
bulk_end(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;

	ss->bulk = -1;
	return sq_exec(st, "cannot index messages", "INSERT INTO messages_text "
	    "(messages_text) VALUES ('rebuild'); " MESSAGES_TEXT_INSERT, e);
}

/* every change in memory into the transaction, not yet committed */
int
sq_flush(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;
	struct buf doc = { 0 };
	sqlite3_stmt *q;
	struct conv *c;
	size_t i;
	int later, rc = -1;

	/* rows are written from memory: a spooled answer is read in first */
	if (store_spool_fill(st, e) < 0)
		return -1;
	/* after a commit, the next writes are a transaction of their own */
	if (st->mode == STORE_WRITE && !ss->intx &&
	    sq_begin_write(st, ss->wait, e) < 0)
		return -1;
	/* what a copy inserted unindexed is indexed before any other write */
	if (ss->bulk == 1 && !ss->flushing_new && bulk_end(st, e) < 0)
		return -1;
	for (i = 0; i < st->nremoved; i++) {
		if ((q = sq_stmt(st, Q_DELETE_CONV, "cannot remove a conversation",
		    e)) == NULL)
			goto out;
		sqlite3_bind_text(q, 1, st->removed[i], -1, SQLITE_STATIC);
		if (step_done(st, q, "cannot remove a conversation", e) < 0)
			goto out;
	}
	for (i = 0; i < st->nremoved; i++)
		free(st->removed[i]);
	st->nremoved = 0;
	if (row_refresh(st, e) < 0)
		goto out;
	/* rows that are ended first, then the rest in the store's order (a
	 * new row's pos is its place): two are never active at once, not
	 * even between two statements (conversations_one_active) */
	for (later = 0; later <= 1; later++)
		for (i = 0; i < st->n; i++) {
			c = st->conv[i];
			if ((c->be != NULL && c->ended >= 0) != later &&
			    sync_conv(st, c, e) < 0)
				goto out;
		}
	if (st->root_dirty) {
		json_dump_buf(&doc, st->root);
		if (sqlite3_prepare_v2(ss->db, "UPDATE "
		    "root SET doc = ?1", -1, &q, NULL) != SQLITE_OK) {
			sq_error(st, "cannot store the store's fields", e);
			goto out;
		}
		sqlite3_bind_text64(q, 1, doc.data, doc.len, SQLITE_STATIC,
		    SQLITE_UTF8);
		rc = sqlite3_step(q);
		sqlite3_finalize(q);
		if (rc != SQLITE_DONE) {
			rc = -1;
			sq_error(st, "cannot store the store's fields", e);
			goto out;
		}
		st->root_dirty = 0;
	}
	rc = 0;
out:
	buf_free(&doc);
	return rc;
}

/* the new conversations (no row yet) written, then freed: st keeps the
 * rest (rows.c) */
int
sq_flush_new(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;
	int rc;

	if (ss->bulk == 0 && ss->intx && bulk_begin(st, e) < 0)
		return -1;
	ss->flushing_new = 1;
	rc = row_flush_new(st, sq_flush, e);
	ss->flushing_new = 0;
	return rc;
}

/* sq_flush(), then the commit; a long WAL checkpointed after it */
int
sq_commit(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;

	if (sq_flush(st, e) < 0)
		return -1;
	if (sq_exec(st, "cannot commit", "COMMIT", e) < 0)
		return -1;
	/* what the command writes after it begins a transaction of its
	 * own (sq_flush()); what it reads, each statement its own */
	ss->intx = 0;
	/* committed: what fails now is no failure of the command's (the
	 * next writer sets WAL as it opens the database, and checkpoints).
	 * Every writer that opened the file empty sets WAL after its commit,
	 * not only the one that made the tables: that one's switch fails
	 * while another such writer waits for its turn, and the last of them
	 * to commit has none left beside it */
	if (ss->walframes >= WAL_CHECKPOINT)
		sqlite3_wal_checkpoint_v2(ss->db, NULL,
		    SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
	if (ss->nowal) {
		ss->nowal = 0;
		sqlite3_exec(ss->db, "PRAGMA journal_mode = WAL", NULL, NULL,
		    NULL);
	}
	return 0;
}

