/*
 * sqlite-schema.c - the SQLite engine's schema: the tables a new store is
 * made with (made on a writer's first use, under the write lock), the steps
 * that bring a store of an older version to the newest (SQ_SCHEMA_VERSION),
 * and the schema's version and the root row read as a store opens
 * (sq_read_root()).
 */
#include <sqlite3.h>

#include "../base/lex.h"	/* lex_json() */
#include "sqlite.h"

#define SQ_SCHEMA_VERSION 2	/* the newest schema this engine knows */

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

/* the schema's version and the store's top-level fields */
int
sq_read_root(struct store *st, struct error *e)
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
	st->root = lex_json((const char *)sqlite3_column_text(q, 0),
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

