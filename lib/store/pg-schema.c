/*
 * pg-schema.c - the PostgreSQL engine's schema: the tables a new store is
 * made with, the steps that bring a store of an older version to the newest
 * (PG_SCHEMA_VERSION), and the meta and root rows read as a store opens
 * (pg_schema_ready()).
 */
#include <stdlib.h>

#include "../base/lex.h"	/* lex_json() */
#include "pg-session.h"
#include "pg.h"

#define PG_SCHEMA_VERSION 2		/* the newest schema this engine knows */

/*
 * The schema as version 1 made it, in one transaction; the meta row says
 * its version. A new store is made so and then upgraded (upgrade()), so the
 * path every store from an older convctl takes is the one every new store
 * takes too.
 */
static const char schema_sql[] =
	"CREATE SCHEMA IF NOT EXISTS @;"
	"CREATE TABLE @.meta (key text PRIMARY KEY, value text NOT NULL);"
	"INSERT INTO @.meta VALUES ('schema_version', '1');"
	/* the store's top-level fields but its conversations: one row */
	"CREATE TABLE @.root (one boolean PRIMARY KEY DEFAULT true CHECK (one),"
	"  doc json NOT NULL);"
	"INSERT INTO @.root (doc) VALUES ('{\"version\": 1}');"
	/* doc: the conversation as stored, its messages [] */
	"CREATE TABLE @.conversations ("
	"  id text PRIMARY KEY,"
	"  pos bigserial NOT NULL UNIQUE,"
	"  started_at timestamptz NOT NULL,"
	"  ended_at timestamptz,"
	"  title text,"
	"  summary text,"
	"  message_count integer NOT NULL CHECK (message_count >= 0),"
	"  doc json NOT NULL);"
	"CREATE UNIQUE INDEX conversations_one_active ON @.conversations"
	"  ((true)) WHERE ended_at IS NULL;"
	"CREATE INDEX conversations_ended ON @.conversations"
	"  (ended_at DESC, pos DESC) WHERE ended_at IS NOT NULL;"
	"CREATE TABLE @.messages ("
	"  conversation text NOT NULL REFERENCES @.conversations (id)"
	"    ON DELETE CASCADE,"
	"  seq integer NOT NULL CHECK (seq >= 0),"
	"  id text,"
	"  role text NOT NULL CHECK (role IN ('user', 'assistant', 'system',"
	"    'tool')),"
	"  at timestamptz NOT NULL,"
	"  doc json NOT NULL,"
	"  PRIMARY KEY (conversation, seq));";


/*
 * Version 2: search's indexes (pg_search()): the messages by time, for the
 * newest matches first, and a trigram index on each message's text as
 * stored (its doc, which holds the content). pg_trgm ships with
 * PostgreSQL, but creating it takes the CREATE privilege on the database
 * (or a superuser, before PostgreSQL 13): where it cannot be had, the
 * store is version 2 without the index, and search runs the same SQL
 * unindexed. A savepoint keeps the failed CREATE EXTENSION from aborting
 * the command's transaction.
 */
static int
upgrade_search(struct store *st, struct error *e)
{
	struct error ignored;
	struct buf sql = { 0 };
	PGresult *r;
	int rc = -1;

	if (pg_run_only(st, "cannot upgrade the schema", "CREATE INDEX "
	    "messages_at ON @.messages (at); SAVEPOINT trgm", 0, NULL, e) < 0)
		return -1;
	if (pg_run_only(st, "", "CREATE EXTENSION IF NOT EXISTS pg_trgm", 0,
	    NULL, &ignored) < 0 && pg_run_only(st, "cannot upgrade the schema",
	    "ROLLBACK TO SAVEPOINT trgm", 0, NULL, e) < 0)
		return -1;
	/* wherever the database has it: it is one per database */
	if ((r = pg_run(st, "cannot upgrade the schema", "SELECT "
	    "quote_ident(n.nspname) FROM pg_extension x JOIN pg_namespace n ON "
	    "n.oid = x.extnamespace WHERE x.extname = 'pg_trgm'", 0, NULL,
	    e)) == NULL)
		return -1;
	if (pq.ntuples(r) == 1)
		buf_addf(&sql, "CREATE INDEX messages_text ON @.messages USING "
		    "gin ((doc::text) %s.gin_trgm_ops)", pq.getvalue(r, 0, 0));
	pq.clear(r);
	rc = sql.len == 0 ? 0 : pg_run_only(st, "cannot upgrade the schema",
	    sql.data, 0, NULL, e);
	buf_free(&sql);
	return rc;
}

/* the steps from each version to the next: upgrades[v - 1] makes v + 1 */
static int (*const upgrades[PG_SCHEMA_VERSION - 1])(struct store *,
    struct error *) = {
	upgrade_search,		/* 1 -> 2 */
};

/*
 * A store of an older schema made the newest, in the writer's transaction,
 * which holds the writers' lock: the next writer finds it done, and a
 * failure later in the command leaves it as it was.
 */
static int
upgrade(struct store *st, long version, struct error *e)
{
	struct buf v = { 0 };
	const char *param[1];
	int rc = -1;

	for (; version < PG_SCHEMA_VERSION; version++)
		if (upgrades[version - 1](st, e) < 0)
			goto out;
	buf_addf(&v, "%d", PG_SCHEMA_VERSION);
	param[0] = v.data;
	rc = pg_run_only(st, "cannot upgrade the schema", "UPDATE @.meta SET "
	    "value = $1 WHERE key = 'schema_version'", 1, param, e);
out:
	buf_free(&v);
	return rc;
}

/*
 * The schema's version and the store's top-level fields, from r,
 * PG_ROOT_SQL's result, which it clears. A writer upgrades an older schema;
 * a reader, which holds no lock, reads it as it is (every version since 1
 * has the tables and columns it reads).
 */
static int
read_root(struct store *st, PGresult *r, struct error *e)
{
	long version;
	const char *v;
	char *stop;
	int rc = -1;

	v = pq.getisnull(r, 0, 0) ? NULL : pq.getvalue(r, 0, 0);
	version = v != NULL ? strtol(v, &stop, 10) : 0;
	/* what is not a version is quoted, never read as one */
	if (v == NULL || *v < '0' || *v > '9' || *stop != '\0') {
		error_set(e, "store '%s': its schema version (meta's "
		    "schema_version) is %s%.40s%s, not a whole number; this "
		    "convctl knows versions 1 to %d", st->path, v ? "'" : "",
		    v ? v : "missing", v ? "'" : "", PG_SCHEMA_VERSION);
		goto out;
	}
	if (version < 1 || version > PG_SCHEMA_VERSION) {
		error_set(e, "store '%s' has schema version %ld, and this "
		    "convctl knows versions 1 to %d%s", st->path, version,
		    PG_SCHEMA_VERSION, version > PG_SCHEMA_VERSION ?
		    ": use a newer convctl" : "");
		goto out;
	}
	if (version < PG_SCHEMA_VERSION && st->mode == STORE_WRITE &&
	    upgrade(st, version, e) < 0)
		goto out;
	st->root = pq.getisnull(r, 0, 1) ? NULL :
	    lex_json(pq.getvalue(r, 0, 1), (size_t)pq.getlength(r, 0, 1));
	if (!json_is_object(st->root)) {
		error_set(e, "store '%s': its root row is not a JSON object",
		    st->path);
		goto out;
	}
	rc = 0;
out:
	pq.clear(r);
	return rc;
}

/*
 * The store ready, from r, PG_ROOT_SQL's result in the round trip that
 * began the transaction (NULL: the store is not made yet), which it clears:
 * a writer makes the store on first use, under the lock, so one writer
 * makes it; a reader before any write finds an empty store.
 */
int
pg_schema_ready(struct store *st, PGresult *r, struct error *e)
{
	struct pg_state *ps = st->be;

	ps->exists = r != NULL;
	if (!ps->exists && st->mode == STORE_WRITE) {
		if (pg_run_only(st, "cannot create the store's tables",
		    schema_sql, 0, NULL, e) < 0 ||
		    (r = pg_run(st, "cannot read the store", PG_ROOT_SQL, 0,
		    NULL, e)) == NULL)
			return -1;
		ps->exists = 1;
	}
	if (!ps->exists) {
		st->root = json_object();
		return 0;
	}
	return read_root(st, r, e);
}
