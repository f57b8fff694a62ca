/*
 * sqlite.c - the SQLite engine: the store in a database file on one
 * machine, named sqlite:PATH, through libsqlite3 (linked).
 *
 * A command is one transaction. A writer's is BEGIN IMMEDIATE, which takes
 * the database's one write lock at once, waiting up to --wait seconds (the
 * busy timeout) as the file engine waits for its lock; a reader's is a
 * plain BEGIN, one snapshot of the WAL. The database is in WAL mode with
 * synchronous=FULL, so a commit that returned is on disk and a writer
 * killed at any point leaves the last commit whole. As in the PostgreSQL
 * engine (pg.c), only what the command loads is read, only what it changed
 * is written, each document is kept as the JSON text convctl wrote (key
 * order, number texts and unknown fields survive), and the schema holds
 * the rules it can: one active conversation (a partial unique index),
 * unique ids, valid roles. Search goes through an FTS5 trigram index on
 * each message's document; the caller confirms every candidate.
 *
 * It knows nothing of the lifecycle's rules.
 *
 * This file holds the database opened and its transaction begun, the
 * reads (load, a body, each, the ended count, stats) and the engine's ops
 * table; the schema made and upgraded and the root row read are in
 * sqlite-schema.c, the write path and the commit in sqlite-write.c, search
 * in sqlite-search.c; sqlite.h is what they share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "../base/lex.h"	/* lex_json() */
#include "file.h"
#include "sqlite.h"
#include "rows.h"

#define SQ_PREFIX "sqlite:"
#define READ_WAIT 10.0	/* seconds a reader waits for a lock SQLite holds */

/*
 * A WAL's pages are read again by every process that opens the database
 * first (SQLite's recovery, as the last one closed it), so it is kept
 * short: a commit that leaves WAL_CHECKPOINT pages or more in it copies
 * them into the database and empties it (a TRUNCATE checkpoint, which a
 * reader in the way only postpones). This hook, which replaces SQLite's
 * own wal_autocheckpoint, counts them (WAL_CHECKPOINT: sqlite.h).
 */
static int
wal_frames(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	((struct sq_state *)arg)->walframes = frames;
	return SQLITE_OK;
}

/* the size of file, 0 when it is not there */
static off_t
sb_size(const char *file)
{
	struct stat sb;

	return stat(file, &sb) == 0 ? sb.st_size : 0;
}

/*
 * Opens the database and begins the command's transaction. A writer makes
 * the file (0600, its directories 0700) when it is not there, as the file
 * engine does; a reader finds an empty store. SQLite's busy timeout is the
 * lock's wait: BEGIN IMMEDIATE that gives up is another writer's lock,
 * exit 75.
 */
static int
sq_open(struct store *st, const char *path, double wait, int whole,
    struct error *e)
{
	struct sq_state *ss = xmalloc(sizeof(*ss));
	struct stat sb;
	int rc, fd, flags;

	(void)whole;	/* only what a command asks for is ever read */
	memset(ss, 0, sizeof(*ss));
	st->be = ss;
	st->next_pos = INT64_MAX / 2;	/* new ones after every stored one */
	path += strlen(SQ_PREFIX);
	if (*path == '\0') {
		error_set(e, "store '%s' names no file: sqlite:PATH", st->path);
		return -2;
	}
	if ((rc = path_resolve(path, &ss->file, e)) < 0)
		return rc;
	if (stat(ss->file, &sb) < 0) {
		if (errno != ENOENT)
			return error_errno(e, "cannot open store '%s'", st->path);
		if (st->mode != STORE_WRITE) {	/* not written yet: empty */
			st->root = json_object();
			return 0;
		}
		if (path_mkdirs_for(ss->file, e) < 0)
			return -1;
		/* SQLite would make it 0644: made here first, as the file
		 * engine's, and an empty file is an empty database */
		fd = open(ss->file, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		    0600);
		if (fd < 0)
			return error_errno(e, "cannot create store '%s'",
			    st->path);
		close(fd);
	}
	flags = st->mode == STORE_WRITE ? SQLITE_OPEN_READWRITE :
	    SQLITE_OPEN_READONLY;
	if (sqlite3_open_v2(ss->file, &ss->db, flags | SQLITE_OPEN_NOMUTEX,
	    NULL) != SQLITE_OK)
		return sq_error(st, "cannot open the database", e);
	sqlite3_extended_result_codes(ss->db, 1);
	/* the WAL is left for the next command, not checkpointed (and its
	 * pages written and synced again) by every one that closes; a commit
	 * that leaves it long checkpoints it and truncates it (sq_commit()) */
	sqlite3_db_config(ss->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	sqlite3_wal_hook(ss->db, wal_frames, ss);
	/* a reader, which waits for no writer, still meets SQLite's short
	 * exclusive moments (a WAL read again, emptied, the first commit's
	 * switch to WAL): it waits READ_WAIT for them */
	if (st->mode != STORE_WRITE && wait < READ_WAIT)
		wait = READ_WAIT;
	sqlite3_busy_timeout(ss->db, sq_busy_ms(wait));
	ss->wait = wait;
	if (st->mode == STORE_WRITE) {
		/* WAL is the file's own mode once set; a file still empty is
		 * set so by the commit that makes its tables (sq_commit()),
		 * so that a command that writes nothing leaves it empty */
		ss->nowal = sb_size(ss->file) == 0;
		if (sq_exec(st, "cannot open the database", !ss->nowal ?
		    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; "
		    "PRAGMA foreign_keys = ON" : "PRAGMA synchronous = FULL; "
		    "PRAGMA foreign_keys = ON", e) < 0)
			return -1;
		if (sq_begin_write(st, wait, e) < 0)
			return -1;
	} else {
		if (sq_exec(st, "cannot begin a transaction", "BEGIN", e) < 0)
			return -1;
		ss->intx = 1;
	}
	return sq_read_root(st, e);
}

/* c (new, or loaded without its body) made whole: its row's id, pos and
 * doc are columns 0, 1 and 2 of row, its messages read here */
static int
fill_full(struct store *st, struct conv *c, sqlite3_stmt *row,
    struct error *e)
{
	const char *id = (const char *)sqlite3_column_text(row, 0);
	json_t *obj, *msgs, *m;
	sqlite3_stmt *q;
	int rc;

	if ((q = sq_stmt(st, Q_MESSAGES, "cannot read messages", e)) == NULL)
		return -1;
	obj = lex_json((const char *)sqlite3_column_text(row, 2),
	    (size_t)sqlite3_column_bytes(row, 2));
	msgs = json_array();
	sqlite3_bind_text(q, 1, id, sqlite3_column_bytes(row, 0),
	    SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		m = lex_json((const char *)sqlite3_column_text(q, 0),
		    (size_t)sqlite3_column_bytes(q, 0));
		if (m == NULL)
			break;
		json_array_append_new(msgs, m);
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE || !json_is_object(obj)) {
		json_decref(obj);
		json_decref(msgs);
		if (rc != SQLITE_DONE && rc != SQLITE_ROW)
			return sq_error(st, "cannot read messages", e);
		return error_set(e, "store '%s': conversation '%s' is not a "
		    "JSON object with messages in the database", st->path, id);
	}
	json_object_set_new(obj, "messages", msgs);	/* in its place */
	json_decref(c->obj);
	c->obj = obj;
	c->pos = sqlite3_column_int64(row, 1);
	if (conv_refresh(c, e) < 0)
		return -1;
	row_loaded(st, c);
	return 0;
}

/* what a list shows: id, pos, title, summary, started, ended, count, doc */
#define META_COLUMNS "c.id, c.pos, c.title, c.summary, c.started_at, " \
	"c.ended_at, c.message_count, c.doc"

/* a conversation as a list shows it, from a row of META_COLUMNS */
static struct conv *
meta_conv(sqlite3_stmt *r)
{
	struct conv *c = conv_new();

	c->id = c->own[0] = xstrdup((const char *)sqlite3_column_text(r, 0));
	c->pos = sqlite3_column_int64(r, 1);
	if (sqlite3_column_type(r, 2) != SQLITE_NULL)
		c->title = c->own[1] =
		    xstrdup((const char *)sqlite3_column_text(r, 2));
	if (sqlite3_column_type(r, 3) != SQLITE_NULL)
		c->summary = c->own[2] =
		    xstrdup((const char *)sqlite3_column_text(r, 3));
	c->started = sqlite3_column_int64(r, 4);
	c->ended = sqlite3_column_type(r, 5) == SQLITE_NULL ? -1 :
	    sqlite3_column_int64(r, 5);
	c->last = c->ended >= 0 ? c->ended : c->started;
	c->nmsg = (size_t)sqlite3_column_int64(r, 6);
	c->head = lex_json((const char *)sqlite3_column_text(r, 7),
	    (size_t)sqlite3_column_bytes(r, 7));
	return c;
}

static int
sq_load(struct store *st, const struct store_query *q, struct error *e)
{
	struct sq_state *ss = st->be;
	struct buf sql = { 0 };
	int full = q->what != LOAD_ENDED || q->bodies, rc = -1, step;
	sqlite3_stmt *r = NULL;
	struct conv *c;

	if (!ss->exists)
		return 0;
	buf_addf(&sql, "SELECT %s FROM conversations c ", full ?
	    "c.id, c.pos, c.doc" : META_COLUMNS);
	switch (q->what) {
	case LOAD_ACTIVE:
		buf_adds(&sql, "WHERE c.ended_at IS NULL");
		break;
	case LOAD_ID:
		buf_adds(&sql, "WHERE c.id = ?1");
		break;
	case LOAD_ENDED:
		buf_adds(&sql, "WHERE c.ended_at IS NOT NULL "
		    "ORDER BY c.ended_at DESC, c.pos DESC");
		if (q->limit != SIZE_MAX)
			buf_addf(&sql, " LIMIT %zu", q->limit);
		break;
	case LOAD_ALL:
		buf_adds(&sql, "ORDER BY c.pos");
		break;
	}
	if (sqlite3_prepare_v2(ss->db, sql.data, -1, &r, NULL) != SQLITE_OK) {
		sq_error(st, "cannot read conversations", e);
		goto out;
	}
	if (q->what == LOAD_ID)
		sqlite3_bind_text(r, 1, q->id, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(r)) == SQLITE_ROW) {
		/* what this transaction has in memory is newer than the row */
		if (store_loaded(st, (const char *)sqlite3_column_text(r, 0)) !=
		    NULL)
			continue;
		if (full) {
			c = conv_new();
			if (fill_full(st, c, r, e) < 0) {
				conv_free(c);
				goto out;
			}
		} else
			c = meta_conv(r);
		store_push(st, c);
	}
	if (step != SQLITE_DONE) {
		sq_error(st, "cannot read conversations", e);
		goto out;
	}
	if (q->what == LOAD_ALL && st->n > 1)
		qsort(st->conv, st->n, sizeof(*st->conv), conv_by_pos);
	rc = 0;
out:
	sqlite3_finalize(r);
	buf_free(&sql);
	return rc;
}

static int
sq_load_body(struct store *st, struct conv *c, struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *r = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(ss->db, "SELECT id, pos, doc FROM conversations "
	    "WHERE id = ?1", -1, &r, NULL) != SQLITE_OK)
		return sq_error(st, "cannot read a conversation", e);
	sqlite3_bind_text(r, 1, c->id, -1, SQLITE_STATIC);
	switch (sqlite3_step(r)) {
	case SQLITE_ROW:
		rc = fill_full(st, c, r, e);
		break;
	case SQLITE_DONE:
		error_set(e, "store '%s': conversation '%s' is gone", st->path,
		    c->id);
		break;
	default:
		sq_error(st, "cannot read a conversation", e);
	}
	sqlite3_finalize(r);
	return rc;
}

/* every conversation, whole, one at a time */
static int
sq_each(struct store *st, store_each_fn fn, void *arg, struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *r = NULL;
	struct conv *c;
	int step, rc = 0;

	if (!ss->exists)
		return 0;
	if (sqlite3_prepare_v2(ss->db, "SELECT id, pos, doc FROM conversations "
	    "ORDER BY pos", -1, &r, NULL) != SQLITE_OK)
		return sq_error(st, "cannot read conversations", e);
	while (rc == 0 && (step = sqlite3_step(r)) == SQLITE_ROW) {
		c = conv_new();
		rc = fill_full(st, c, r, e) < 0 ? -1 : fn(c, arg, e);
		conv_free(c);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = sq_error(st, "cannot read conversations", e);
	sqlite3_finalize(r);
	return rc < 0 ? -1 : 0;
}

static int
sq_count_ended(struct store *st, size_t *n, struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *r = NULL;
	int rc = -1;

	*n = 0;
	if (!ss->exists)
		return 0;
	if (st->mode == STORE_WRITE && sq_flush(st, e) < 0)
		return -1;
	if (sqlite3_prepare_v2(ss->db, ss->version >= 2 ? "SELECT ended FROM "
	    "counts" : "SELECT count(*) FROM conversations WHERE ended_at IS "
	    "NOT NULL", -1, &r, NULL) != SQLITE_OK ||
	    sqlite3_step(r) != SQLITE_ROW)
		sq_error(st, "cannot count conversations", e);
	else {
		*n = (size_t)sqlite3_column_int64(r, 0);
		rc = 0;
	}
	sqlite3_finalize(r);
	return rc;
}

/* the conversations store_stats() asks for: the WHERE of a query whose
 * conversations are c; ?1 the since (NULL: none) */
#define STATS_WHERE " WHERE (?1 IS NULL OR c.started_at >= ?1)"

/* stmt prepared from sql, ?1 bound to since (<0: NULL): NULL and e when
 * the database refuses it */
static sqlite3_stmt *
stats_query(struct store *st, const char *sql, int64_t since,
    struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *r = NULL;

	if (sqlite3_prepare_v2(ss->db, sql, -1, &r, NULL) != SQLITE_OK) {
		sq_error(st, "cannot count conversations", e);
		sqlite3_finalize(r);
		return NULL;
	}
	sq_bind_ms(r, 1, since);
	return r;
}

/* row r's column i names a conversation stats_conv() took: any, with no
 * --tag; else one in taken */
static int
stats_taken(sqlite3_stmt *r, int i, const struct stats_request *rq,
    json_t *taken)
{
	return rq->tag == NULL || json_object_get(taken,
	    (const char *)sqlite3_column_text(r, i)) != NULL;
}

/*
 * In SQL: the store's size (its pages), one row a conversation as a
 * listing reads it (its doc only when it may hold tags or a pin), and its
 * messages counted by role and tool with GROUP BY (per conversation only
 * with --tag, whose conversations stats_conv() takes: taken); only a
 * message whose toolsUsed SQLite's JSON functions would read otherwise
 * than jansson (one holding \u0000) is read here.
 */
static int
sq_stats(struct store *st, const struct stats_request *rq,
    struct store_stats *s, struct error *e)
{
	struct sq_state *ss = st->be;
	const char *by = rq->tag != NULL ? "m.conversation" : "NULL";
	struct buf sql = { 0 };
	json_t *taken = json_object(), *doc;
	enum conv_role role;
	sqlite3_stmt *r = NULL;
	struct conv *c;
	int step, rc = -1;

	s->bytes = 0;
	if (!ss->exists) {
		rc = 1;
		goto out;
	}
	if (st->mode == STORE_WRITE && sq_flush(st, e) < 0)
		goto out;
	if ((r = stats_query(st, "SELECT page_count * page_size FROM "
	    "pragma_page_count(), pragma_page_size()", -1, e)) == NULL)
		goto out;
	if ((step = sqlite3_step(r)) == SQLITE_ROW)
		s->bytes = sqlite3_column_int64(r, 0);
	sqlite3_finalize(r);
	if (step != SQLITE_ROW) {
		r = NULL;
		sq_error(st, "cannot count conversations", e);
		goto out;
	}

	if ((r = stats_query(st, "SELECT c.id, c.started_at, c.ended_at, "
	    "CASE WHEN instr(c.doc, '\"tags\"') > 0 OR "
	    "instr(c.doc, '\"pinned\"') > 0 THEN c.doc END "
	    "FROM conversations c" STATS_WHERE, rq->since, e)) == NULL)
		goto out;
	while ((step = sqlite3_step(r)) == SQLITE_ROW) {
		c = conv_new();
		c->id = (const char *)sqlite3_column_text(r, 0);
		c->started = sqlite3_column_int64(r, 1);
		c->ended = sqlite3_column_type(r, 2) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(r, 2);
		if (sqlite3_column_type(r, 3) != SQLITE_NULL)
			c->head = lex_json((const char *)
			    sqlite3_column_text(r, 3),
			    (size_t)sqlite3_column_bytes(r, 3));
		if (c->head == NULL)
			c->head = json_object();
		if (stats_conv(s, rq, c) && rq->tag != NULL)
			json_object_set_new(taken, c->id, json_true());
		conv_free(c);
	}
	if (step != SQLITE_DONE)
		goto failed;
	sqlite3_finalize(r);

	buf_addf(&sql, "SELECT %s, m.role, count(*) FROM messages m "
	    "JOIN conversations c ON c.id = m.conversation" STATS_WHERE
	    " GROUP BY 1, 2", by);
	if ((r = stats_query(st, sql.data, rq->since, e)) == NULL)
		goto out;
	while ((step = sqlite3_step(r)) == SQLITE_ROW)
		if (stats_taken(r, 0, rq, taken) && role_parse((const char *)
		    sqlite3_column_text(r, 1), &role) == 0)
			stats_role(s, role,
			    (uint64_t)sqlite3_column_int64(r, 2));
	if (step != SQLITE_DONE)
		goto failed;
	sqlite3_finalize(r);

	sql.len = 0;
	buf_addf(&sql, "SELECT %s, t.value, count(*) FROM messages m "
	    "JOIN conversations c ON c.id = m.conversation, "
	    "json_each(m.doc, '$.toolsUsed') t" STATS_WHERE
	    " AND instr(m.doc, '\"toolsUsed\"') > 0 AND "
	    "instr(m.doc, '\\u0000') = 0 AND "
	    "json_type(m.doc, '$.toolsUsed') = 'array' AND t.type = 'text' "
	    "GROUP BY 1, 2", by);
	if ((r = stats_query(st, sql.data, rq->since, e)) == NULL)
		goto out;
	while ((step = sqlite3_step(r)) == SQLITE_ROW)
		if (stats_taken(r, 0, rq, taken))
			stats_tool(s, (const char *)sqlite3_column_text(r, 1),
			    (size_t)sqlite3_column_bytes(r, 1),
			    (uint64_t)sqlite3_column_int64(r, 2));
	if (step != SQLITE_DONE)
		goto failed;
	sqlite3_finalize(r);

	if ((r = stats_query(st, "SELECT m.conversation, m.doc FROM messages m "
	    "JOIN conversations c ON c.id = m.conversation" STATS_WHERE
	    " AND instr(m.doc, '\"toolsUsed\"') > 0 AND "
	    "instr(m.doc, '\\u0000') > 0", rq->since, e)) == NULL)
		goto out;
	while ((step = sqlite3_step(r)) == SQLITE_ROW) {
		if (!stats_taken(r, 0, rq, taken))
			continue;
		doc = lex_json((const char *)sqlite3_column_text(r, 1),
		    (size_t)sqlite3_column_bytes(r, 1));
		stats_tools(s, json_object_get(doc, "toolsUsed"));
		json_decref(doc);
	}
	if (step != SQLITE_DONE)
		goto failed;
	rc = 1;
	goto done;
failed:
	sq_error(st, "cannot count conversations", e);
done:
	sqlite3_finalize(r);
out:
	json_decref(taken);
	buf_free(&sql);
	return rc;
}

static void
sq_close(struct store *st)
{
	struct sq_state *ss = st->be;
	int k;

	if (ss == NULL)
		return;
	for (k = 0; k < Q_COUNT; k++)
		sqlite3_finalize(ss->stmt[k]);
	if (ss->db != NULL) {
		if (ss->intx)
			sqlite3_exec(ss->db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(ss->db);
	}
	free(ss->file);
	free(ss);
	st->be = NULL;
}

/* the database's directory: a spool there is on its filesystem */
static char *
sq_spool_dir(struct store *st)
{
	struct sq_state *ss = st->be;

	return ss != NULL && ss->file != NULL ? path_dir(ss->file) : NULL;
}

/* sqlite:PATH names a database file */
static int
sq_claims(const char *path)
{
	return strncmp(path, SQ_PREFIX, strlen(SQ_PREFIX)) == 0;
}

const struct store_engine store_sqlite_engine = {
	.name = "sqlite",
	.claims = sq_claims,
	.shown = xstrdup,
	.open = sq_open,
	.load = sq_load,
	.load_body = sq_load_body,
	.count_ended = sq_count_ended,
	.stats = sq_stats,
	.search = sq_search,
	.each = sq_each,
	.flush_new = sq_flush_new,
	.commit = sq_commit,
	.close = sq_close,
	.spool_dir = sq_spool_dir,
};
