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
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "file.h"
#include "sqlite.h"
#include "rows.h"
#include "scan.h"

#define SQ_SCHEMA_VERSION 2	/* the newest schema this engine knows */
#define SQ_PREFIX "sqlite:"

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

/* the trigger that indexes each message as it is inserted */
#define MESSAGES_TEXT_INSERT \
	"CREATE TRIGGER messages_text_insert AFTER INSERT ON messages BEGIN" \
	"  INSERT INTO messages_text (rowid, doc) VALUES (new.n, new.doc); END"

/*
 * Version 1. Times are milliseconds since the epoch (UTC); doc is the JSON
 * text convctl wrote: a conversation's without its messages (messages []),
 * each message's whole. The views show them as sqlite3 users read them.
 */
static const char schema_sql[] =
	"CREATE TABLE root (one INTEGER PRIMARY KEY CHECK (one = 1),"
	"  doc TEXT NOT NULL);"
	"INSERT INTO root VALUES (1, '{\"version\": 1}');"
	"CREATE TABLE conversations ("
	"  pos INTEGER PRIMARY KEY,"
	"  id TEXT NOT NULL UNIQUE,"
	"  started_at INTEGER NOT NULL,"
	"  ended_at INTEGER,"
	"  title TEXT,"
	"  summary TEXT,"
	"  message_count INTEGER NOT NULL CHECK (message_count >= 0),"
	"  doc TEXT NOT NULL);"
	"CREATE UNIQUE INDEX conversations_one_active ON conversations ((1))"
	"  WHERE ended_at IS NULL;"
	"CREATE INDEX conversations_ended ON conversations"
	"  (ended_at DESC, pos DESC) WHERE ended_at IS NOT NULL;"
	"CREATE TABLE messages ("
	"  n INTEGER PRIMARY KEY,"
	"  conversation TEXT NOT NULL REFERENCES conversations (id)"
	"    ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL CHECK (seq >= 0),"
	"  id TEXT,"
	"  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system',"
	"    'tool')),"
	"  at INTEGER NOT NULL,"
	"  doc TEXT NOT NULL,"
	"  UNIQUE (conversation, seq));"
	"CREATE INDEX messages_at ON messages (at);"
	"CREATE VIRTUAL TABLE messages_text USING fts5 (doc, content = 'messages',"
	"  content_rowid = 'n', tokenize = 'trigram');"
	MESSAGES_TEXT_INSERT ";"
	"CREATE TRIGGER messages_text_delete AFTER DELETE ON messages BEGIN"
	"  INSERT INTO messages_text (messages_text, rowid, doc)"
	"  VALUES ('delete', old.n, old.doc); END;"
	"CREATE TRIGGER messages_text_update AFTER UPDATE ON messages BEGIN"
	"  INSERT INTO messages_text (messages_text, rowid, doc)"
	"  VALUES ('delete', old.n, old.doc);"
	"  INSERT INTO messages_text (rowid, doc) VALUES (new.n, new.doc); END;"
	"CREATE VIEW conversation_list AS SELECT id,"
	"  strftime('%Y-%m-%dT%H:%M:%fZ', started_at / 1000.0, 'unixepoch')"
	"    AS started,"
	"  strftime('%Y-%m-%dT%H:%M:%fZ', ended_at / 1000.0, 'unixepoch')"
	"    AS ended,"
	"  message_count, title, summary FROM conversations ORDER BY pos;"
	"CREATE VIEW message_list AS SELECT m.conversation, m.seq, m.role,"
	"  strftime('%Y-%m-%dT%H:%M:%fZ', m.at / 1000.0, 'unixepoch') AS at,"
	"  json_extract(m.doc, '$.content') AS content FROM messages m"
	"  JOIN conversations c ON c.id = m.conversation ORDER BY c.pos, m.seq;"
	"PRAGMA user_version = 1;";

/*
 * Version 1 to 2: the ended conversations counted by the schema (one row
 * its triggers keep), so that the rolling limit's count, which every add
 * asks for, reads a row instead of an index that grows with the history.
 */
static const char upgrade_2_sql[] =
	"CREATE TABLE counts (one INTEGER PRIMARY KEY CHECK (one = 1),"
	"  ended INTEGER NOT NULL CHECK (ended >= 0));"
	"INSERT INTO counts SELECT 1, count(*) FROM conversations"
	"  WHERE ended_at IS NOT NULL;"
	"CREATE TRIGGER conversations_count_insert AFTER INSERT ON conversations"
	"  WHEN new.ended_at IS NOT NULL BEGIN"
	"  UPDATE counts SET ended = ended + 1; END;"
	"CREATE TRIGGER conversations_count_delete AFTER DELETE ON conversations"
	"  WHEN old.ended_at IS NOT NULL BEGIN"
	"  UPDATE counts SET ended = ended - 1; END;"
	"CREATE TRIGGER conversations_count_update AFTER UPDATE OF ended_at"
	"  ON conversations WHEN (old.ended_at IS NULL) <> (new.ended_at IS NULL)"
	"  BEGIN UPDATE counts SET ended = ended +"
	"  (CASE WHEN new.ended_at IS NULL THEN -1 ELSE 1 END); END;"
	"PRAGMA user_version = 2;";

#define READ_WAIT 10.0	/* seconds a reader waits for a lock SQLite holds */

/* runs sql (one or more statements, no result) */
static int
sq_exec(struct store *st, const char *what, const char *sql, struct error *e)
{
	struct sq_state *ss = st->be;

	if (sqlite3_exec(ss->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sq_error(st, what, e);
	return 0;
}

/* the prepared statement k, reset and cleared for new bindings */
static sqlite3_stmt *
stmt(struct store *st, int k, const char *what, struct error *e)
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

/* a time in ms, or NULL for none (< 0) */
static void
bind_ms(sqlite3_stmt *q, int i, int64_t ms)
{
	if (ms < 0)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_int64(q, i, ms);
}

/* a writer's transaction, which holds the database's write lock: -1 and
 * e, ERROR_TEMPORARY, when another writer held it past the busy timeout */
static int
begin_write(struct store *st, double wait, struct error *e)
{
	struct sq_state *ss = st->be;
	int rc;

	if ((rc = sqlite3_exec(ss->db, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL)) != SQLITE_OK) {
		if ((rc & 0xff) == SQLITE_BUSY)
			return store_locked(st->path, wait, e);
		return sq_error(st, "cannot begin a transaction", e);
	}
	ss->intx = 1;
	return 0;
}

/* the schema's version and the store's top-level fields */
static int
read_root(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;
	sqlite3_stmt *q = NULL;
	long version = -1;
	int rc = -1;

	if (sqlite3_prepare_v2(ss->db, "PRAGMA user_version", -1, &q,
	    NULL) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW) {
		sq_error(st, "cannot read the store", e);
		goto out;
	}
	version = (long)sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	q = NULL;
	if (version == 0) {
		/* no tables at all: a database not made yet (a new file) */
		if (sqlite3_prepare_v2(ss->db, "SELECT count(*) FROM "
		    "sqlite_master", -1, &q, NULL) != SQLITE_OK ||
		    sqlite3_step(q) != SQLITE_ROW) {
			sq_error(st, "cannot read the store", e);
			goto out;
		}
		if (sqlite3_column_int64(q, 0) != 0) {
			error_set(e, "store '%s' is a SQLite database with tables "
			    "of its own and no convctl schema (user_version 0)",
			    st->path);
			goto out;
		}
		sqlite3_finalize(q);
		q = NULL;
		if (st->mode != STORE_WRITE) {	/* an empty store */
			st->root = json_object();
			rc = 0;
			goto out;
		}
		/* made on first use, under the write lock: one writer makes it */
		if (sq_exec(st, "cannot create the store's tables", schema_sql,
		    e) < 0)
			goto out;
		version = 1;	/* and upgraded below */
	}
	if (version < 1 || version > SQ_SCHEMA_VERSION) {
		error_set(e, "store '%s' has schema version %ld, and this "
		    "convctl knows versions 1 to %d%s", st->path, version,
		    SQ_SCHEMA_VERSION, version > SQ_SCHEMA_VERSION ?
		    ": use a newer convctl" : "");
		goto out;
	}
	/* an older schema is upgraded by a writer, in its transaction, one
	 * step at a time, as pg.c's upgrade(); a reader reads it as it is */
	if (version < 2 && st->mode == STORE_WRITE) {
		if (sq_exec(st, "cannot upgrade the store's schema",
		    upgrade_2_sql, e) < 0)
			goto out;
		version = 2;
	}
	ss->version = version;
	ss->exists = 1;
	if (sqlite3_prepare_v2(ss->db, "SELECT doc FROM root", -1, &q,
	    NULL) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW) {
		sq_error(st, "cannot read the store's root row", e);
		goto out;
	}
	st->root = scan_json((const char *)sqlite3_column_text(q, 0),
	    (size_t)sqlite3_column_bytes(q, 0));
	if (!json_is_object(st->root)) {
		error_set(e, "store '%s': its root row is not a JSON object",
		    st->path);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(q);
	return rc;
}

/*
 * A WAL's pages are read again by every process that opens the database
 * first (SQLite's recovery, as the last one closed it), so it is kept
 * short: a commit that leaves WAL_CHECKPOINT pages or more in it copies
 * them into the database and empties it (a TRUNCATE checkpoint, which a
 * reader in the way only postpones). This hook, which replaces SQLite's
 * own wal_autocheckpoint, counts them.
 */
#define WAL_CHECKPOINT 256	/* pages: 1 MB of 4 KB pages */

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
	int rc, fd, ms, flags;

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
	ms = wait <= 0 ? 0 : wait >= INT_MAX / 1000 ? INT_MAX :
	    (int)(wait * 1000);
	sqlite3_busy_timeout(ss->db, ms);
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
		if (begin_write(st, wait, e) < 0)
			return -1;
	} else {
		if (sq_exec(st, "cannot begin a transaction", "BEGIN", e) < 0)
			return -1;
		ss->intx = 1;
	}
	return read_root(st, e);
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

	if ((q = stmt(st, Q_MESSAGES, "cannot read messages", e)) == NULL)
		return -1;
	obj = scan_json((const char *)sqlite3_column_text(row, 2),
	    (size_t)sqlite3_column_bytes(row, 2));
	msgs = json_array();
	sqlite3_bind_text(q, 1, id, sqlite3_column_bytes(row, 0),
	    SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		m = scan_json((const char *)sqlite3_column_text(q, 0),
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
	c->head = scan_json((const char *)sqlite3_column_text(r, 7),
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
		if ((q = stmt(st, Q_INSERT_MSG, "cannot store messages", e)) ==
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
	if ((q = stmt(st, sc == NULL ? Q_INSERT_CONV : Q_UPDATE_CONV,
	    "cannot store a conversation", e)) == NULL)
		goto out;
	sqlite3_bind_text(q, 1, c->id, -1, SQLITE_STATIC);
	bind_ms(q, 2, c->started);
	bind_ms(q, 3, c->ended);
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
		if ((q = stmt(st, Q_DELETE_MSGS_FROM, "cannot store messages",
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
static int
flush(struct store *st, struct error *e)
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
	    begin_write(st, ss->wait, e) < 0)
		return -1;
	/* what a copy inserted unindexed is indexed before any other write */
	if (ss->bulk == 1 && !ss->flushing_new && bulk_end(st, e) < 0)
		return -1;
	for (i = 0; i < st->nremoved; i++) {
		if ((q = stmt(st, Q_DELETE_CONV, "cannot remove a conversation",
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
static int
sq_flush_new(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;
	int rc;

	if (ss->bulk == 0 && ss->intx && bulk_begin(st, e) < 0)
		return -1;
	ss->flushing_new = 1;
	rc = row_flush_new(st, flush, e);
	ss->flushing_new = 0;
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
	if (st->mode == STORE_WRITE && flush(st, e) < 0)
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
	bind_ms(r, 1, since);
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
	if (st->mode == STORE_WRITE && flush(st, e) < 0)
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
			c->head = scan_json((const char *)
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
		doc = scan_json((const char *)sqlite3_column_text(r, 1),
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

static int
sq_commit(struct store *st, struct error *e)
{
	struct sq_state *ss = st->be;

	if (flush(st, e) < 0)
		return -1;
	if (sq_exec(st, "cannot commit", "COMMIT", e) < 0)
		return -1;
	/* what the command writes after it begins a transaction of its
	 * own (flush()); what it reads, each statement its own */
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
