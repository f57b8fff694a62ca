/*
 * pg-session.c - the PostgreSQL engine's connection: the store URI, the
 * connection, a command's transaction with the writers' lock, statements and
 * what their errors mean. It knows no table and no conversation (pg.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg-session.h"

#define PG_DEFAULT_SCHEMA "convctl"

static void
quiet(void *arg, const char *message)
{
	(void)arg, (void)message;	/* notices are not the user's business */
}

/* the URI with any password, user:PASSWORD@ or password=, as *** */
char *
pg_uri_shown(const char *uri)
{
	const char *q = strchr(uri, '?'), *p, *end, *at, *colon, *slash;
	struct buf sh = { 0 };
	size_t n;

	p = strstr(uri, "://");
	p = p != NULL ? p + 3 : uri;
	slash = strpbrk(p, "/?");
	n = slash != NULL ? (size_t)(slash - p) : strlen(p);
	at = memchr(p, '@', n);
	colon = at != NULL ? memchr(p, ':', (size_t)(at - p)) : NULL;
	if (colon != NULL) {
		buf_add(&sh, uri, (size_t)(colon + 1 - uri));
		buf_adds(&sh, "***");
		buf_add(&sh, at, q != NULL ? (size_t)(q - at) : strlen(at));
	} else
		buf_add(&sh, uri, q != NULL ? (size_t)(q - uri) : strlen(uri));
	for (p = q; p != NULL && *p != '\0'; p = end) {
		p++;
		end = strchr(p, '&');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		buf_addc(&sh, p == q + 1 ? '?' : '&');
		if (n >= 9 && strncmp(p, "password=", 9) == 0)
			buf_adds(&sh, "password=***");
		else
			buf_add(&sh, p, n);
	}
	return buf_detach(&sh);
}

/*
 * The URI without convctl's own parameter, schema=NAME, which names the
 * schema (default convctl) so that stores can share a database; libpq gets
 * the rest as it was.
 */
static int
split_uri(struct store *st, const char *uri, char **conninfo, char **schema,
    struct error *e)
{
	const char *q = strchr(uri, '?'), *p, *end;
	struct buf ci = { 0 };
	size_t n;

	*schema = NULL;
	buf_add(&ci, uri, q != NULL ? (size_t)(q - uri) : strlen(uri));
	for (p = q; p != NULL && *p != '\0'; p = end) {
		p++;
		end = strchr(p, '&');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (n >= 7 && strncmp(p, "schema=", 7) == 0) {
			free(*schema);
			*schema = xmalloc(n - 6);
			memcpy(*schema, p + 7, n - 7);
			(*schema)[n - 7] = '\0';
			continue;
		}
		buf_addc(&ci, strchr(ci.data, '?') != NULL ? '&' : '?');
		buf_add(&ci, p, n);
	}
	*conninfo = buf_detach(&ci);
	if (*schema == NULL)
		*schema = xstrdup(PG_DEFAULT_SCHEMA);
	/* a plain SQL name: nothing to escape, nothing to misread */
	n = strspn(*schema, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (**schema == '\0' || n != strlen(*schema) || n > 63 ||
	    (**schema >= '0' && **schema <= '9'))
		return error_set(e, "store '%s': schema '%s' is not a name of "
		    "lower-case letters, digits and _ (at most 63, not starting "
		    "with a digit)", st->path, *schema);
	return 0;
}

/* the first line of libpq's message, without its "ERROR:  " */
static void
first_line(struct buf *b, const char *msg)
{
	size_t n;

	if (msg == NULL || *msg == '\0')
		msg = "no message";
	if (strncmp(msg, "ERROR:  ", 8) == 0 || strncmp(msg, "FATAL:  ", 8) == 0)
		msg += 8;
	n = strcspn(msg, "\n");
	buf_add(b, msg, n);
}

/*
 * What went wrong, as one line naming the store; a connection that broke,
 * a server going down or a transaction the server gave up are ERROR_TEMPORARY:
 * nothing was written, and the same command may succeed again.
 */
static int
pg_error(struct store *st, PGresult *r, const char *what, struct error *e)
{
	struct pg_state *ps = st->be;
	const char *state = r != NULL ?
	    pq.result_error_field(r, PG_DIAG_SQLSTATE) : NULL;
	struct buf b = { 0 };
	int temporary;

	temporary = pq.status(ps->conn) != CONNECTION_OK || (state != NULL &&
	    (strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0 ||
	    strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0));
	if (state != NULL && strcmp(state, "55P03") == 0)
		error_set(e, "store '%s' is locked by another convctl; gave up "
		    "after the wait (see --wait)", st->path);
	else {
		first_line(&b, r != NULL && pq.status(ps->conn) == CONNECTION_OK ?
		    pq.result_error_message(r) : pq.error_message(ps->conn));
		error_set(e, "store '%s': %s: %s%s", st->path, what, b.data,
		    temporary ? " (nothing was written; try again)" : "");
	}
	if (temporary)
		e->kind = ERROR_TEMPORARY;
	buf_free(&b);
	if (r != NULL)
		pq.clear(r);
	return -1;
}

/* sql with each @ replaced by the schema's quoted name */
static char *
sql_for(struct store *st, const char *sql)
{
	struct pg_state *ps = st->be;
	struct buf b = { 0 };
	const char *p;

	for (p = sql; *p != '\0'; p++)
		if (*p == '@')
			buf_adds(&b, ps->ident);
		else
			buf_addc(&b, *p);
	return buf_detach(&b);
}

static int begin(struct store *, struct error *);

/* runs sql (@: the schema) with n text parameters; the result, or NULL */
PGresult *
pg_run(struct store *st, const char *what, const char *sql, int n,
    const char *const *params, struct error *e)
{
	struct pg_state *ps = st->be;
	char *text;
	PGresult *r;
	ExecStatusType s;

	if (ps->committed) {	/* what comes after a commit is one of its own */
		ps->committed = 0;
		if (begin(st, e) < 0)
			return NULL;
	}
	text = sql_for(st, sql);

	r = n == 0 ? pq.exec(ps->conn, text) : pq.exec_params(ps->conn, text, n,
	    NULL, params, NULL, NULL, 0);
	free(text);
	s = r != NULL ? pq.result_status(r) : PGRES_FATAL_ERROR;
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_error(st, r, what, e);
		return NULL;
	}
	return r;
}

/* runs sql for its effect alone */
int
pg_run_only(struct store *st, const char *what, const char *sql, int n,
    const char *const *params, struct error *e)
{
	PGresult *r = pg_run(st, what, sql, n, params, e);

	if (r == NULL)
		return -1;
	pq.clear(r);
	return 0;
}

/*
 * No server, or one starting, stopping or full, may answer the next try;
 * one that refused the password, the role or the database will not. libpq
 * gives no SQLSTATE for a connection refused, only its text. A server
 * stopped while the connection is made says "terminating connection due to
 * unexpected postmaster exit" (or administrator command, or crash).
 */
int
pg_connect_temporary(const char *msg)
{
	return msg == NULL || strstr(msg, "FATAL:") == NULL ||
	    strstr(msg, "starting up") != NULL ||
	    strstr(msg, "accepting connections") != NULL ||
	    strstr(msg, "recovery mode") != NULL ||
	    strstr(msg, "shutting down") != NULL ||
	    strstr(msg, "terminating connection") != NULL ||
	    strstr(msg, "too many") != NULL;
}

static int
connect_to(struct store *st, const char *conninfo, struct error *e)
{
	struct pg_state *ps = st->be;
	struct buf b = { 0 };
	const char *msg;

	ps->conn = pq.connectdb(conninfo);
	if (ps->conn != NULL && pq.status(ps->conn) == CONNECTION_OK) {
		pq.set_notice_processor(ps->conn, quiet, NULL);
		return 0;
	}
	msg = ps->conn != NULL ? pq.error_message(ps->conn) : NULL;
	first_line(&b, msg);
	error_set(e, "cannot connect to store '%s': %s", st->path, b.data);
	buf_free(&b);
	if (pg_connect_temporary(msg))
		e->kind = ERROR_TEMPORARY;
	return -1;
}

/* the writers' lock: waits up to wait seconds for the one before to finish */
static int
lock_schema(struct store *st, double wait, struct error *e)
{
	struct pg_state *ps = st->be;
	struct buf key = { 0 }, timeout = { 0 };
	const char *param[1];
	PGresult *r;
	int got;

	buf_addf(&key, "convctl:%s", ps->schema);
	param[0] = key.data;
	if (wait > 0) {
		buf_addf(&timeout, "SET LOCAL lock_timeout = %ld",
		    (long)(wait * 1000) + 1);
		if (pg_run_only(st, "cannot set the lock wait", timeout.data, 0,
		    NULL, e) < 0 ||
		    (r = pg_run(st, "cannot lock the store",
		    "SELECT pg_advisory_xact_lock(hashtext($1))", 1, param,
		    e)) == NULL)
			goto fail;
		pq.clear(r);
	} else {
		if ((r = pg_run(st, "cannot lock the store",
		    "SELECT pg_try_advisory_xact_lock(hashtext($1))", 1, param,
		    e)) == NULL)
			goto fail;
		got = *pq.getvalue(r, 0, 0) == 't';
		pq.clear(r);
		if (!got) {
			error_set(e, "store '%s' is locked by another convctl; "
			    "gave up after 0 seconds (see --wait)", st->path);
			goto fail;
		}
	}
	buf_free(&key);
	buf_free(&timeout);
	return 0;
fail:
	buf_free(&key);
	buf_free(&timeout);
	return -1;
}

/* a writer's transaction holds the lock from its start */
static int
begin(struct store *st, struct error *e)
{
	struct pg_state *ps = st->be;

	/* a command's few small queries: compiling them (JIT, which a table's
	 * stale statistics can trigger) costs hundreds of times their run */
	if (st->mode != STORE_WRITE)
		return pg_run_only(st, "cannot begin a transaction", "BEGIN "
		    "ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL jit = "
		    "off", 0, NULL, e);
	if (pg_run_only(st, "cannot begin a transaction", "BEGIN; SET LOCAL "
	    "client_min_messages = warning; SET LOCAL jit = off", 0, NULL,
	    e) < 0)
		return -1;
	return lock_schema(st, ps->wait, e);
}

int
pg_session_open(struct store *st, const char *uri, double wait,
    struct error *e)
{
	struct pg_state *ps;
	char *conninfo = NULL;
	int rc = -1;

	if (pq_load(e) < 0)
		return -1;
	ps = xmalloc(sizeof(*ps));
	memset(ps, 0, sizeof(*ps));
	st->be = ps;
	if (split_uri(st, uri, &conninfo, &ps->schema, e) < 0) {
		rc = -2;
		goto out;
	}
	if (connect_to(st, conninfo, e) < 0)
		goto out;
	ps->ident = pq.escape_identifier(ps->conn, ps->schema,
	    strlen(ps->schema));
	ps->wait = wait;
	rc = begin(st, e);
out:
	free(conninfo);
	return rc;
}

int
pg_session_commit(struct store *st, struct error *e)
{
	if (pg_run_only(st, "cannot commit", "COMMIT", 0, NULL, e) < 0) {
		/* the server may or may not have committed before it went */
		if (e->kind == ERROR_TEMPORARY)
			error_set(e, "store '%s': the connection was lost while "
			    "committing; the change may or may not be stored",
			    st->path), e->kind = ERROR_TEMPORARY;
		return -1;
	}
	((struct pg_state *)st->be)->committed = 1;
	return 0;
}

/* an open transaction ends with the connection: the server rolls it back */
void
pg_session_close(struct store *st)
{
	struct pg_state *ps = st->be;

	if (ps == NULL)
		return;
	if (ps->conn != NULL) {
		if (ps->ident != NULL)
			pq.freemem(ps->ident);
		pq.finish(ps->conn);
	}
	free(ps->schema);
	free(ps);
	st->be = NULL;
}
