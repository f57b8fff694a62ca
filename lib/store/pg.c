/*
 * pg.c - the PostgreSQL engine: the store in a database that many
 * hosts share, reached through libpq (pg-libpq.c) with a postgresql:// URI; the
 * connection and the transaction are pg-session.c's.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg-session.h"
#include "pg.h"
#include "rows.h"
#include "scan.h"

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
 * The schema's version and the store's top-level fields. A writer upgrades
 * an older schema; a reader, which holds no lock, reads it as it is (every
 * version since 1 has the tables and columns it reads).
 */
#define ROOT_SQL "SELECT (SELECT value FROM @.meta WHERE key = " \
	"'schema_version'), (SELECT doc FROM @.root)"

/* ... from r, ROOT_SQL's result, which it clears */
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
	    scan_json(pq.getvalue(r, 0, 1), (size_t)pq.getlength(r, 0, 1));
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
 * The store's root read in the round trip that begins the transaction (and
 * takes a writer's lock); a store not made yet says so by failing it.
 */
static int
pg_open(struct store *st, const char *uri, double wait, int whole,
    struct error *e)
{
	struct pg_state *ps;
	PGresult *r;
	int rc;

	(void)whole;	/* only what a command asks for is ever read */
	st->next_pos = INT64_MAX / 2;	/* new ones after every stored one */
	if ((rc = pg_session_open(st, uri, wait, ROOT_SQL,
	    "cannot read the store", &r, e)) < 0)
		return rc;
	ps = st->be;
	ps->exists = r != NULL;
	if (!ps->exists && st->mode == STORE_WRITE) {
		/* made on first use, under the lock: one writer makes it */
		if (pg_run_only(st, "cannot create the store's tables",
		    schema_sql, 0, NULL, e) < 0 ||
		    (r = pg_run(st, "cannot read the store", ROOT_SQL, 0, NULL,
		    e)) == NULL)
			return -1;
		ps->exists = 1;
	}
	if (!ps->exists) {	/* read before any write: an empty store */
		st->root = json_object();
		return 0;
	}
	return read_root(st, r, e);
}

/* c (new, or loaded without its body) made whole from row i of r */
static int
fill_full(struct store *st, struct conv *c, PGresult *r, int i,
    struct error *e)
{
	json_t *obj, *msgs;

	obj = scan_json(pq.getvalue(r, i, 2), (size_t)pq.getlength(r, i, 2));
	msgs = scan_json(pq.getvalue(r, i, 3), (size_t)pq.getlength(r, i, 3));
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
	c->head = scan_json(pq.getvalue(r, i, 7), (size_t)pq.getlength(r, i, 7));
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

/* s (NULL: NULL) onto the array literal b, which "{" begins */
static void
array_add(struct buf *b, const char *s, size_t len)
{
	size_t i;

	if (b->len > 1)
		buf_addc(b, ',');
	if (s == NULL) {
		buf_adds(b, "NULL");
		return;
	}
	buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			buf_addc(b, '\\');
		buf_addc(b, s[i]);
	}
	buf_addc(b, '"');
}

/*
 * The messages of c from the k-th on, as four array literals in col, and
 * the four parameters p that are them: ids, roles, times and documents
 * (INSERT_MESSAGES). The database is not asked to read them out of the
 * documents: its text cannot hold the \u0000 a message's JSON may.
 */
static int
messages_from(struct store *st, struct buf col[4], const char *p[4],
    struct conv *c, size_t k, struct error *e)
{
	static const char *const field[3] = { "id", "role", "timestamp" };
	json_t *msgs = json_object_get(c->obj, "messages"), *m;
	struct buf doc = { 0 };
	const char *s;
	size_t i, j, len;
	int rc = -1;

	for (j = 0; j < 4; j++)
		buf_addc(&col[j], '{');
	for (i = k; i < json_array_size(msgs); i++) {
		m = json_array_get(msgs, i);
		for (j = 0; j < 3; j++) {
			s = json_str(m, field[j], &len);
			if (s != NULL && memchr(s, '\0', len) != NULL) {
				error_set(e, "store '%s': message %zu of '%s' has "
				    "\\u0000 in its %s, which PostgreSQL cannot "
				    "hold", st->path, i + 1, c->id, field[j]);
				goto out;
			}
			array_add(&col[j], s, len);
		}
		doc.len = 0;
		json_dump_buf(&doc, m);
		array_add(&col[3], doc.data, doc.len);
	}
	for (j = 0; j < 4; j++) {
		buf_addc(&col[j], '}');
		p[j] = col[j].data;
	}
	rc = 0;
out:
	buf_free(&doc);
	return rc;
}

/* conversation $1's messages from the parameters ID, ROLE, AT and DOC
 * (messages_from()), numbered from SEQ on */
#define INSERT_MESSAGES(SEQ, ID, ROLE, AT, DOC) "INSERT INTO @.messages " \
	"(conversation, seq, id, role, at, doc) SELECT $1, " SEQ " + " \
	"t.n::integer - 1, t.id, t.role, t.at::timestamptz, t.doc FROM " \
	"unnest(" ID "::text[], " ROLE "::text[], " AT "::text[], " DOC \
	"::json[]) WITH ORDINALITY AS t(id, role, at, doc, n)"

/*
 * c's row and its messages from the first that changed, when anything did:
 * new, its doc or its messages not what was read. Found by comparing, so a
 * change is written whether or not its maker called conv_refresh(): flush()
 * calls it.
 */
static int
sync_conv(struct store *st, struct conv *c, struct error *e)
{
	struct buf doc = { 0 }, count = { 0 }, from = { 0 }, col[4] = { 0 };
	struct row_conv *pc = c->be;
	char started[TS_LEN], ended[TS_LEN];
	const char *p[12];
	size_t k = 0;
	PGresult *r;
	int rc = -1;

	if (c->obj == NULL)	/* listed, never read whole: unchanged */
		return 0;
	row_doc_text(c, &doc);
	if (!row_changed(c, &doc, &k)) {
		rc = 0;
		goto out;
	}
	buf_addf(&count, "%zu", c->nmsg);
	p[0] = c->id;
	p[1] = pg_ts_param(c->started, started);
	p[2] = pg_ts_param(c->ended, ended);
	p[3] = c->title;
	p[4] = c->summary;
	p[5] = count.data;
	p[6] = doc.data;
	if (pc == NULL) {
		/* the row and its messages in one statement: a copy makes
		 * thousands */
		if (messages_from(st, col, &p[7], c, 0, e) < 0)
			goto out;
		if ((r = pg_run(st, "cannot store a conversation", "WITH c AS ("
		    "INSERT INTO @.conversations (id, started_at, ended_at, "
		    "title, summary, message_count, doc) VALUES ($1, $2, $3, $4, "
		    "$5, $6, $7) RETURNING pos), m AS (" INSERT_MESSAGES("0",
		    "$8", "$9", "$10", "$11") ") SELECT pos FROM c", 11, p,
		    e)) == NULL)
			goto out;
		c->pos = strtoll(pq.getvalue(r, 0, 0), NULL, 10);
		pq.clear(r);
		k = c->nmsg;	/* all stored */
	} else if (k == pc->nmsg && k < c->nmsg) {
		/* messages after those stored (add): the row and them in one
		 * statement too */
		buf_addf(&from, "%zu", k);
		p[7] = from.data;
		if (messages_from(st, col, &p[8], c, k, e) < 0)
			goto out;
		if (pg_run_later(st, "cannot store a conversation", "WITH c AS ("
		    "UPDATE @.conversations SET started_at = $2, ended_at = $3, "
		    "title = $4, summary = $5, message_count = $6, doc = $7 "
		    "WHERE id = $1) " INSERT_MESSAGES("$8::integer", "$9",
		    "$10", "$11", "$12"), 12, p, e) < 0)
			goto out;
		k = c->nmsg;	/* all stored */
	} else {
		if (pg_run_later(st, "cannot store a conversation", "UPDATE "
		    "@.conversations SET started_at = $2, ended_at = $3, "
		    "title = $4, summary = $5, message_count = $6, doc = $7 "
		    "WHERE id = $1", 7, p, e) < 0)
			goto out;
		buf_addf(&from, "%zu", k);
		p[1] = from.data;
		if (k < pc->nmsg && pg_run_later(st, "cannot store messages",
		    "DELETE FROM @.messages WHERE conversation = $1 AND "
		    "seq >= $2", 2, p, e) < 0)
			goto out;
	}
	if (k < c->nmsg) {
		from.len = 0;
		buf_addf(&from, "%zu", k);
		p[1] = from.data;
		if (messages_from(st, col, &p[2], c, k, e) < 0)
			goto out;
		if (pg_run_later(st, "cannot store messages",
		    INSERT_MESSAGES("$2::integer", "$3", "$4", "$5", "$6"), 6,
		    p, e) < 0)
			goto out;
	}
	row_remember(c, &doc);
	rc = 0;
out:
	buf_free(&doc);
	buf_free(&count);
	buf_free(&from);
	for (k = 0; k < 4; k++)
		buf_free(&col[k]);
	return rc;
}

/*
 * From this many new conversations on, a flush loads them with COPY (a
 * copy, a migrate): three statements whatever their number, where one
 * INSERT each would take a round trip each. Below it, add's one new
 * conversation is the one INSERT of sync_conv().
 */
#define COPY_FROM 2

/* the \u0000 PostgreSQL's text cannot hold, in field of message i of c */
static int
nul_in(struct store *st, struct conv *c, size_t i, const char *field,
    struct error *e)
{
	return error_set(e, "store '%s': message %zu of '%s' has \\u0000 in its "
	    "%s, which PostgreSQL cannot hold", st->path, i + 1, c->id, field);
}

/*
 * The n new conversations in memory (no row yet), in the store's order, by
 * COPY into both tables, streamed a chunk at a time: memory holds one
 * conversation's rows and a chunk. Their pos are reserved first, n at
 * once from the table's sequence, under the writers' lock, so that each
 * is known without reading it back.
 */
static int
copy_new(struct store *st, size_t n, struct error *e)
{
	static const char *const field[3] = { "id", "role", "timestamp" };
	struct buf rows = { 0 }, doc = { 0 }, num = { 0 };
	struct conv **fresh = xmalloc(n * sizeof(*fresh)), *c;
	char ts[TS_LEN];
	const char *p[1], *s, *abort = NULL;
	struct row_conv *pc;
	long long first;
	size_t i, j, k, len;
	json_t *msgs, *m;
	PGresult *r;
	int rc = -1;

	for (i = j = 0; i < st->n && j < n; i++)
		if (row_is_new(st->conv[i]))
			fresh[j++] = st->conv[i];
	buf_addf(&num, "%zu", n);
	p[0] = num.data;
	if ((r = pg_run(st, "cannot store conversations", "SELECT setval(s, "
	    "nextval(s) + $1::bigint - 1) - $1::bigint + 1 FROM "
	    "pg_get_serial_sequence('@.conversations', 'pos') AS s", 1, p,
	    e)) == NULL)
		goto out;
	first = strtoll(pq.getvalue(r, 0, 0), NULL, 10);
	pq.clear(r);
	if (pg_copy_begin(st, "cannot store conversations", "COPY "
	    "@.conversations (id, pos, started_at, ended_at, title, summary, "
	    "message_count, doc) FROM STDIN", e) < 0)
		goto out;
	for (i = 0; i < n && abort == NULL; i++) {
		c = fresh[i];
		doc.len = 0;
		row_doc_text(c, &doc);
		c->pos = first + (long long)i;
		c->be = row_conv_new(&doc, c->nmsg);	/* hashes: below */
		pg_copy_field(&rows, c->id, strlen(c->id));
		buf_addf(&rows, "\t%lld\t", (long long)c->pos);
		s = pg_ts_param(c->started, ts);
		pg_copy_field(&rows, s, s ? strlen(s) : 0);
		buf_addc(&rows, '\t');
		s = pg_ts_param(c->ended, ts);
		pg_copy_field(&rows, s, s ? strlen(s) : 0);
		buf_addc(&rows, '\t');
		pg_copy_field(&rows, c->title, c->title ? strlen(c->title) : 0);
		buf_addc(&rows, '\t');
		pg_copy_field(&rows, c->summary, c->summary ?
		    strlen(c->summary) : 0);
		buf_addf(&rows, "\t%zu\t", c->nmsg);
		pg_copy_field(&rows, doc.data, doc.len);
		buf_addc(&rows, '\n');
		if (pg_copy_put(st, &rows, "cannot store conversations", e) < 0)
			abort = "convctl could not send every row";
	}
	if (pg_copy_end(st, &rows, "cannot store conversations", abort, e) < 0)
		goto out;
	if (pg_copy_begin(st, "cannot store messages", "COPY @.messages "
	    "(conversation, seq, id, role, at, doc) FROM STDIN", e) < 0)
		goto out;
	for (i = 0; i < n && abort == NULL; i++) {
		c = fresh[i];
		pc = c->be;
		msgs = json_object_get(c->obj, "messages");
		json_array_foreach(msgs, j, m) {
			pg_copy_field(&rows, c->id, strlen(c->id));
			buf_addf(&rows, "\t%zu", j);
			for (k = 0; k < 3; k++) {
				s = json_str(m, field[k], &len);
				if (s != NULL && memchr(s, '\0', len) != NULL) {
					nul_in(st, c, j, field[k], e);
					abort = "a message convctl cannot store";
					break;
				}
				buf_addc(&rows, '\t');
				pg_copy_field(&rows, s, len);
			}
			if (abort != NULL)
				break;
			doc.len = 0;
			json_dump_buf(&doc, m);
			sha256(doc.data, doc.len, pc->hash[j]);
			buf_addc(&rows, '\t');
			pg_copy_field(&rows, doc.data, doc.len);
			buf_addc(&rows, '\n');
			if (pg_copy_put(st, &rows, "cannot store messages", e) < 0) {
				abort = "convctl could not send every row";
				break;
			}
		}
	}
	if (pg_copy_end(st, &rows, "cannot store messages", abort, e) < 0)
		goto out;
	rc = 0;
out:
	free(fresh);
	buf_free(&rows);
	buf_free(&doc);
	buf_free(&num);
	return rc;
}

/* every change in memory into the transaction, not yet committed */
static int
flush(struct store *st, struct error *e)
{
	struct buf doc = { 0 };
	const char *p[1];
	struct conv *c;
	size_t i, fresh = 0;
	int later, bulk, rc = -1;

	/* rows are written from memory: a spooled answer is read in first */
	if (store_spool_fill(st, e) < 0)
		return -1;
	for (i = 0; i < st->nremoved; i++) {
		p[0] = st->removed[i];
		if (pg_run_later(st, "cannot remove a conversation", "DELETE FROM "
		    "@.conversations WHERE id = $1", 1, p, e) < 0)
			goto out;
	}
	for (i = 0; i < st->nremoved; i++)
		free(st->removed[i]);
	st->nremoved = 0;
	if (row_refresh(st, e) < 0)
		goto out;
	/* rows that are ended first, then the rest in the store's order (a
	 * new row's pos is its place): when resume ends one conversation and
	 * reopens another, two are never active at once, not even between
	 * two statements (the index conversations_one_active) */
	for (i = 0; i < st->n; i++)
		fresh += row_is_new(st->conv[i]);
	bulk = fresh >= COPY_FROM;
	for (later = 0; later <= 1; later++)
		for (i = 0; i < st->n; i++) {
			c = st->conv[i];
			if ((c->be != NULL && c->ended >= 0) != later &&
			    (!bulk || c->be != NULL) && sync_conv(st, c, e) < 0)
				goto out;
		}
	/* after the rest, as their pos is after every stored one's */
	if (bulk && copy_new(st, fresh, e) < 0)
		goto out;
	if (st->root_dirty) {
		json_dump_buf(&doc, st->root);
		p[0] = doc.data;
		if (pg_run_later(st, "cannot store the store's fields", "UPDATE "
		    "@.root SET doc = $1", 1, p, e) < 0)
			goto out;
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
pg_flush_new(struct store *st, struct error *e)
{
	return row_flush_new(st, flush, e);
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
	if (st->mode == STORE_WRITE && flush(st, e) < 0)
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
		    scan_json(pq.getvalue(r, i, 3), (size_t)pq.getlength(r, i, 3));
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
		doc = scan_json(pq.getvalue(r, i, 1),
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

static int
pg_commit(struct store *st, struct error *e)
{
	if (flush(st, e) < 0)
		return -1;
	return pg_session_commit(st, e);
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
