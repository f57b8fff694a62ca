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

/*
 * What libpq or the server says, what it means, and the exit status: the
 * one table of them (convctl(1)'s EXIT STATUS has the same). The first row
 * that matches wins: at connection time (no SQLSTATE then) by the text of
 * each host's line, for a statement by the SQLSTATE or its class.
 */
#define NOT_THERE "no PostgreSQL server is running or reachable at that " \
	"host or socket (or it does not answer); exit 75 means try again later"
#define SETTINGS "libpq refused the connection's settings (the URI, the " \
	"PG* variables or the service file) before it tried a server"
#define READ_ONLY "the server is a read-only standby: a writer needs the " \
	"primary; list every host in the URI and add " \
	"target_session_attrs=read-write (exit 75: try again once one is up)"
#define REFUSED "the server refused the role, its password or the " \
	"database; a password goes in ~/.pgpass (or PGPASSFILE, or a service " \
	"in PGSERVICEFILE)"
#define NOT_READY "the server is starting, stopping or recovering; exit 75 " \
	"means try again later"
#define POOLER "the connection pooler (PgBouncer) had no server connection " \
	"to lend: the server behind it is down or full, or it is; exit 75 " \
	"means try again later"
static const struct pg_verdict verdicts[] = {
	/* the settings: libpq refuses them before it tries a server */
	{ NULL, "for connection option", PG_USAGE, SETTINGS },
	{ NULL, "invalid sslmode value", PG_USAGE, SETTINGS },
	{ NULL, "invalid gssencmode value", PG_USAGE, SETTINGS },
	{ NULL, "invalid channel_binding value", PG_USAGE, SETTINGS },
	{ NULL, "invalid target_session_attrs value", PG_USAGE, SETTINGS },
	{ NULL, "protocol version", PG_USAGE, SETTINGS },
	{ NULL, "invalid port number", PG_USAGE, SETTINGS },
	{ NULL, "could not match", PG_USAGE, SETTINGS },
	{ NULL, "service file", PG_USAGE, SETTINGS },
	{ NULL, "definition of service", PG_USAGE, SETTINGS },
	/* the server refused who connects, or to what: class 28, 3D */
	{ NULL, "no password supplied", PG_FAILED, REFUSED },
	{ "28P01", "password authentication failed", PG_FAILED, REFUSED },
	{ "28000", "no pg_hba.conf entry", PG_FAILED, REFUSED },
	{ "28000", "role \"", PG_FAILED, REFUSED },
	{ "28", "authentication failed", PG_FAILED, REFUSED },
	{ "42501", "permission denied for database", PG_FAILED, REFUSED },
	{ "3D000", "database \"", PG_FAILED, REFUSED },
	{ "3D", NULL, PG_FAILED, NULL },
	/* a standby where a writer needs the primary */
	{ "25006", "session is read-only", PG_AGAIN, READ_ONLY },
	{ NULL, "server is in hot standby mode", PG_AGAIN, READ_ONLY },
	{ NULL, "server is not in hot standby mode", PG_AGAIN, NULL },
	/* a server not ready, going, or full: the next try may do */
	{ "57P03", "the database system is", PG_AGAIN, NOT_READY },
	{ "57P01", "terminating connection due to", PG_AGAIN, NOT_READY },
	{ "57P02", "crash of another server process", PG_AGAIN, NOT_READY },
	{ "57P", NULL, PG_AGAIN, NOT_READY },
	{ "53300", "too many", PG_AGAIN, "the server has no connection free; "
	    "exit 75 means try again later" },
	{ "53300", "connection slots are reserved", PG_AGAIN, "the server has "
	    "no connection free; exit 75 means try again later" },
	{ "53", NULL, PG_AGAIN, NULL },
	/* PgBouncer's own refusals while connecting, for the same reasons */
	{ NULL, "query_wait_timeout", PG_AGAIN, POOLER },
	{ NULL, "no more connections allowed", PG_AGAIN, POOLER },
	{ NULL, "server login has been failing", PG_AGAIN, POOLER },
	{ NULL, "pgbouncer cannot connect to server", PG_AGAIN, POOLER },
	{ NULL, "server conn crashed", PG_AGAIN, POOLER },
	{ "08", NULL, PG_AGAIN, NOT_THERE },
	{ "40001", NULL, PG_AGAIN, NULL },
	{ "40P01", NULL, PG_AGAIN, NULL },
	/* lock_timeout, from --wait: another writer holds the lock (the
	 * message is store_locked()'s) */
	{ "55P03", NULL, PG_AGAIN, NULL },
	{ NULL, "timeout expired", PG_AGAIN, "the server did not answer "
	    "within connect_timeout (10 seconds unless the URI or "
	    "PGCONNECT_TIMEOUT sets it); exit 75 means try again later" },
	/* any other refusal by a server is not one a new try mends */
	{ NULL, "FATAL:", PG_FAILED, NULL },
	/* libpq reached no server: refused, no socket, no such host */
	{ NULL, "", PG_AGAIN, NOT_THERE },
};
#define NVERDICTS (sizeof(verdicts) / sizeof(verdicts[0]))
/* a statement's error that no row names */
static const struct pg_verdict failed = { NULL, NULL, PG_FAILED, NULL };

const struct pg_verdict *
pg_connect_verdict(const char *msg)
{
	size_t i;

	for (i = 0; msg != NULL && i < NVERDICTS; i++)
		if (verdicts[i].says != NULL && strstr(msg, verdicts[i].says))
			return &verdicts[i];
	return &verdicts[NVERDICTS - 1];
}

static const struct pg_verdict *
statement_verdict(const char *state)
{
	size_t i;

	for (i = 0; state != NULL && i < NVERDICTS; i++)
		if (verdicts[i].state != NULL && strncmp(state,
		    verdicts[i].state, strlen(verdicts[i].state)) == 0)
			return &verdicts[i];
	return &failed;
}

static void
quiet(void *arg, const char *message)
{
	(void)arg, (void)message;	/* notices are not the user's business */
}

/* msg's first line, without its "ERROR:  ", no secret of the URI in it */
static void
first_line(struct store *st, struct buf *b, const char *msg)
{
	struct pg_state *ps = st->be;
	struct buf m = { 0 };

	if (msg == NULL || *msg == '\0')
		msg = "no message";
	if (strncmp(msg, "ERROR:  ", 8) == 0 || strncmp(msg, "FATAL:  ", 8) == 0)
		msg += 8;
	buf_add(&m, msg, strcspn(msg, "\n"));
	pg_uri_mask(&ps->uri, b, m.data);
	buf_free(&m);
}

/* e's kind and the line after it, from the verdict */
static void
judged(struct error *e, const struct pg_verdict *v)
{
	if (v->exit == PG_AGAIN)
		e->kind = ERROR_TEMPORARY;
	e->hint = v->means;
}

/*
 * What went wrong, as one line naming the store; what it means is the row of
 * the verdicts its SQLSTATE meets: a connection that broke, a server going
 * down or a transaction the server gave up are ERROR_TEMPORARY, nothing
 * was written, and the same command may succeed again.
 */
static int
pg_error(struct store *st, PGresult *r, const char *what, struct error *e)
{
	struct pg_state *ps = st->be;
	const char *state = r != NULL ?
	    pq.result_error_field(r, PG_DIAG_SQLSTATE) : NULL;
	const struct pg_verdict *v = pq.status(ps->conn) != CONNECTION_OK ?
	    pg_connect_verdict(NULL) : statement_verdict(state);
	struct buf b = { 0 };

	if (state != NULL && strcmp(state, "55P03") == 0)
		store_locked(st->path, ps->wait, e);
	else {
		first_line(st, &b, r != NULL && pq.status(ps->conn) ==
		    CONNECTION_OK ? pq.result_error_message(r) :
		    pq.error_message(ps->conn));
		error_set(e, "store '%s': %s: %s%s", st->path, what, b.data,
		    v->exit == PG_AGAIN ? " (nothing was written; try again)" :
		    "");
		judged(e, v);
	}
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

static int begin(struct store *, const char *, const char *, PGresult **,
    struct error *);

/*
 * The statements pg_run_later sent, then sql (NULL: none; one statement,
 * what its result says is the caller's), through the pipeline with one
 * sync: a round trip for all. *mine is sql's result; -1 and e from the
 * first that failed (what comes after it in the pipeline is aborted), the
 * connection out of pipeline mode either way.
 */
static int
settle(struct store *st, const char *text, int n, const char *const *params,
    PGresult **mine, struct error *e)
{
	struct pg_state *ps = st->be;
	size_t i, nq = ps->nlater;
	ExecStatusType s;
	PGresult *r;
	int rc = 0;

	*mine = NULL;
	if (text != NULL) {
		if (pq.send_query_params(ps->conn, text, n, NULL, params, NULL,
		    NULL, 0) == 1)
			nq++;
		else
			rc = pg_error(st, NULL, ps->later[0], e);
	}
	if (pq.pipeline_sync(ps->conn) != 1 && rc == 0)
		rc = pg_error(st, NULL, ps->later[0], e);
	for (i = 0; i < nq && pq.status(ps->conn) == CONNECTION_OK; i++)
		while ((r = pq.get_result(ps->conn)) != NULL) {
			s = pq.result_status(r);
			if (i == ps->nlater && rc == 0 && *mine == NULL)
				*mine = r;
			else if (rc == 0 && s != PGRES_COMMAND_OK &&
			    s != PGRES_TUPLES_OK)
				rc = pg_error(st, r, ps->later[i], e);
			else
				pq.clear(r);
		}
	while ((r = pq.get_result(ps->conn)) != NULL) {	/* the sync's */
		s = pq.result_status(r);
		pq.clear(r);
		if (s == PGRES_PIPELINE_SYNC)
			break;
	}
	if (rc == 0 && pq.status(ps->conn) != CONNECTION_OK)
		rc = pg_error(st, NULL, ps->later[ps->nlater - 1], e);
	ps->nlater = 0;
	if (pq.exit_pipeline_mode(ps->conn) != 1 && rc == 0)
		rc = pg_error(st, NULL, "cannot end a pipeline", e);
	if (rc < 0 && *mine != NULL) {
		pq.clear(*mine);
		*mine = NULL;
	}
	return rc;
}

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
		if (begin(st, NULL, NULL, NULL, e) < 0)
			return NULL;
	}
	/* statements sent before: with this one, unless it is several */
	if (ps->nlater > 0 && n == 0 && strchr(sql, ';') != NULL &&
	    settle(st, NULL, 0, NULL, &r, e) < 0)
		return NULL;
	text = sql_for(st, sql);
	if (ps->nlater > 0) {
		if (settle(st, text, n, params, &r, e) < 0) {
			free(text);
			return NULL;
		}
	} else
		r = n == 0 ? pq.exec(ps->conn, text) : pq.exec_params(ps->conn,
		    text, n, NULL, params, NULL, NULL, 0);
	free(text);
	s = r != NULL ? pq.result_status(r) : PGRES_FATAL_ERROR;
	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_error(st, r, what, e);
		return NULL;
	}
	return r;
}

int
pg_run_later(struct store *st, const char *what, const char *sql, int n,
    const char *const *params, struct error *e)
{
	struct pg_state *ps = st->be;
	char *text;
	int sent;

	if (pq.enter_pipeline_mode == NULL || ps->committed ||
	    (ps->nlater == 0 && pq.enter_pipeline_mode(ps->conn) != 1))
		return pg_run_only(st, what, sql, n, params, e);
	if (ps->nlater == ps->maxlater) {
		ps->maxlater = ps->maxlater * 2 + 8;
		ps->later = xrealloc(ps->later, ps->maxlater *
		    sizeof(*ps->later));
	}
	ps->later[ps->nlater++] = what;
	text = sql_for(st, sql);
	sent = pq.send_query_params(ps->conn, text, n, NULL, params, NULL, NULL,
	    0);
	free(text);
	if (sent != 1) {
		ps->nlater--;
		pg_error(st, NULL, what, e);
		if (ps->nlater == 0)
			pq.exit_pipeline_mode(ps->conn);
		return -1;
	}
	return 0;
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

void
pg_copy_field(struct buf *b, const char *s, size_t len)
{
	size_t i, from = 0;
	char c;

	if (s == NULL) {
		buf_adds(b, "\\N");
		return;
	}
	for (i = 0; i < len; i++) {
		c = s[i];
		if (c != '\\' && c != '\t' && c != '\n' && c != '\r')
			continue;
		buf_add(b, s + from, i - from);
		buf_addc(b, '\\');
		buf_addc(b, c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' :
		    '\\');
		from = i + 1;
	}
	buf_add(b, s + from, len - from);
}

int
pg_copy_begin(struct store *st, const char *what, const char *sql,
    struct error *e)
{
	struct pg_state *ps = st->be;
	char *text;
	PGresult *r;

	if (ps->committed) {	/* what comes after a commit is one of its own */
		ps->committed = 0;
		if (begin(st, NULL, NULL, NULL, e) < 0)
			return -1;
	}
	if (ps->nlater > 0 && settle(st, NULL, 0, NULL, &r, e) < 0)
		return -1;	/* COPY is not for a pipeline */
	text = sql_for(st, sql);
	r = pq.exec(ps->conn, text);
	free(text);
	if (r == NULL || pq.result_status(r) != PGRES_COPY_IN)
		return pg_error(st, r, what, e);
	pq.clear(r);
	return 0;
}

/* rows sent, when there are enough of them or last */
static int
copy_send(struct store *st, struct buf *rows, int last, const char *what,
    struct error *e)
{
	struct pg_state *ps = st->be;

	if (rows->len == 0 || (!last && rows->len < PG_COPY_CHUNK))
		return 0;
	if (pq.put_copy_data(ps->conn, rows->data, (int)rows->len) != 1)
		return pg_error(st, NULL, what, e);
	rows->len = 0;
	return 0;
}

int
pg_copy_put(struct store *st, struct buf *rows, const char *what,
    struct error *e)
{
	return copy_send(st, rows, 0, what, e);
}

/*
 * The COPY's end and its result, which the server sends once it has every
 * row (a constraint a row breaks is reported here, naming the row); every
 * result after it read, so that the connection is ready for the next.
 */
int
pg_copy_end(struct store *st, struct buf *rows, const char *what,
    const char *abort, struct error *e)
{
	struct pg_state *ps = st->be;
	PGresult *r;
	int rc = 0;

	if (abort == NULL && copy_send(st, rows, 1, what, e) < 0) {
		rc = -1;
		abort = "convctl could not send every row";
	}
	if (pq.put_copy_end(ps->conn, abort) != 1 && abort == NULL)
		rc = pg_error(st, NULL, what, e);
	while ((r = pq.get_result(ps->conn)) != NULL)
		if (pq.result_status(r) != PGRES_COMMAND_OK && rc == 0 &&
		    abort == NULL)
			rc = pg_error(st, r, what, e);	/* clears r */
		else
			pq.clear(r);
	if (abort != NULL)
		rc = -1;	/* e says why, as the caller or copy_send set it */
	return rc;
}

/*
 * libpq's message for a connection that failed: a line for each host it
 * tried (DETAIL, HINT and hints indented under it), each as one part of
 * the line printed; the verdict is "try again" when it is so for one host
 * (another try may find that one up), else the first host's.
 */
static enum pg_exit
connect_failed(struct store *st, const char *msg, struct error *e)
{
	struct pg_state *ps = st->be;
	const struct pg_verdict *v = NULL, *h;
	struct buf all = { 0 }, line = { 0 };
	const char *p;
	size_t n;

	buf_adds(&all, "");
	for (p = msg != NULL ? msg : ""; *p != '\0'; p += n + (p[n] == '\n')) {
		n = strcspn(p, "\n");
		if (n == 0 || p[0] == ' ' || p[0] == '\t' ||
		    strncmp(p, "DETAIL:", 7) == 0 || strncmp(p, "HINT:", 5) == 0)
			continue;
		line.len = 0;
		buf_add(&line, p, n);
		h = pg_connect_verdict(line.data);
		if (v == NULL || (h->exit == PG_AGAIN && v->exit != PG_AGAIN))
			v = h;
		if (all.len > 0)
			buf_adds(&all, "; ");
		first_line(st, &all, line.data);
	}
	if (v == NULL) {
		v = pg_connect_verdict(NULL);
		first_line(st, &all, NULL);
	}
	/* libpq says so, whatever its words: the server asked for one */
	if (ps->conn != NULL && pq.connection_needs_password(ps->conn))
		v = pg_connect_verdict("no password supplied");
	error_set(e, "cannot connect to store '%s': %s", st->path, all.data);
	judged(e, v);
	buf_free(&all);
	buf_free(&line);
	return v->exit;
}

/*
 * Every wait bounded: connect_timeout (per host) unless the URI or
 * PGCONNECT_TIMEOUT sets one, and a peer that went silent found out by TCP
 * keepalives and tcp_user_timeout. They come before the URI in libpq's
 * arrays, so that the URI's own values win.
 */
static const char *const bounds[][2] = {
	{ "connect_timeout", "10" },
	{ "keepalives", "1" },
	{ "keepalives_idle", "30" },
	{ "keepalives_interval", "10" },
	{ "keepalives_count", "3" },
	{ "tcp_user_timeout", "60000" },
};
#define NBOUNDS (sizeof(bounds) / sizeof(bounds[0]))

static int
connect_to(struct store *st, struct error *e)
{
	struct pg_state *ps = st->be;
	const char *key[NBOUNDS + 2], *val[NBOUNDS + 2], *env;
	size_t i, k = 0;

	env = getenv("PGCONNECT_TIMEOUT");
	for (i = 0; i < NBOUNDS; i++) {
		if (i == 0 && env != NULL && *env != '\0')
			continue;
		key[k] = bounds[i][0];
		val[k++] = bounds[i][1];
	}
	key[k] = "dbname";
	val[k++] = ps->uri.conninfo;
	key[k] = val[k] = NULL;
	ps->conn = pq.connectdb_params(key, val, 1);
	if (ps->conn != NULL && pq.status(ps->conn) == CONNECTION_OK) {
		pq.set_notice_processor(ps->conn, quiet, NULL);
		return 0;
	}
	return connect_failed(st, ps->conn != NULL ?
	    pq.error_message(ps->conn) : NULL, e) == PG_USAGE ? -2 : -1;
}

/*
 * The writers' lock with wait 0: try it once, and say so when another
 * writer holds it. (With a wait, begin() takes it in its first round trip.)
 */
static int
try_lock(struct store *st, struct error *e)
{
	struct pg_state *ps = st->be;
	struct buf sql = { 0 };
	PGresult *r;
	int got;

	buf_addf(&sql, "SELECT pg_try_advisory_xact_lock(hashtext(%s))",
	    ps->lock_key);
	r = pg_run(st, "cannot lock the store", sql.data, 0, NULL, e);
	buf_free(&sql);
	if (r == NULL)
		return -1;
	got = *pq.getvalue(r, 0, 0) == 't';
	pq.clear(r);
	if (!got)
		return store_locked(st->path, 0, e);
	return 0;
}

/* an undefined table or schema: what a store not made yet answers */
static int
not_made(PGresult *r)
{
	const char *state = r != NULL ?
	    pq.result_error_field(r, PG_DIAG_SQLSTATE) : NULL;

	return state != NULL && (strcmp(state, "42P01") == 0 ||
	    strcmp(state, "3F000") == 0);
}

/*
 * A writer's transaction holds the writers' lock, and the server keeps it
 * for as long as it keeps the transaction: with its own settings, for as
 * long as its side of a connection whose client went silent lives (many
 * minutes) or, for a client that froze, forever. So the server is bounded
 * too, for this transaction only (SET LOCAL, as set_config(..., true) is;
 * a pooler's server connection gets its settings back at its end): a
 * transaction left idle is ended, and the connection is given up when its
 * data goes unacknowledged or its keepalives unanswered, each within about
 * the default --wait, so the other writers go on. A bound the server, the
 * role or the client (PGOPTIONS) set lower is kept; a setting the server
 * does not have (tcp_user_timeout before PostgreSQL 12) is left out. A
 * value is in the setting's own unit (ms, s): SHOW gives the TCP ones as a
 * number, as the socket has them (its default for 0, 0 on a unix socket),
 * the idle one with its unit. (pg_settings would give each as a number,
 * but builds every setting's row: 2 ms a write, this 0.2 ms.)
 */
#define WRITER_BOUNDS "SELECT set_config(n, (CASE WHEN v BETWEEN 1 AND b " \
	"THEN v ELSE b END)::text, true) FROM (SELECT n, b, CASE WHEN ms " \
	"THEN (extract(epoch FROM current_setting(n)::interval) * 1000)" \
	"::bigint ELSE current_setting(n)::bigint END AS v FROM (VALUES " \
	"('idle_in_transaction_session_timeout', 10000, true), " \
	"('tcp_user_timeout', 10000, false), " \
	"('tcp_keepalives_idle', 5, false), " \
	"('tcp_keepalives_interval', 2, false), " \
	"('tcp_keepalives_count', 3, false)) AS bound(n, b, ms) " \
	"WHERE current_setting(n, true) IS NOT NULL) AS now_set"

/*
 * The command's transaction: a reader's REPEATABLE READ, one snapshot; a
 * writer's holds the writers' lock from its start, waiting up to the wait
 * for the writer before to finish. With first (the command's first query,
 * what: what it does, for its error), all of it in one round trip (one
 * simple query, which returns the last statement's result): *r is first's
 * result, or NULL when a table first reads is not there (a store not made
 * yet), rolled back to a savepoint made before it, the lock kept.
 */
static int
begin(struct store *st, const char *first, const char *what, PGresult **r,
    struct error *e)
{
	struct pg_state *ps = st->be;
	struct buf sql = { 0 };
	const char *ask = "cannot begin a transaction";
	PGresult *res;
	char *text;
	int rc = -1, one_trip = st->mode != STORE_WRITE || ps->wait > 0;

	/* a command's few small queries: compiling them (JIT, which a table's
	 * stale statistics can trigger) costs hundreds of times their run */
	if (st->mode != STORE_WRITE)
		buf_adds(&sql, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; "
		    "SET LOCAL jit = off");
	else
		buf_adds(&sql, "BEGIN; SET LOCAL client_min_messages = warning; "
		    "SET LOCAL jit = off; " WRITER_BOUNDS);
	if (st->mode == STORE_WRITE && ps->wait > 0)
		buf_addf(&sql, "; SET LOCAL lock_timeout = %ld; SELECT "
		    "pg_advisory_xact_lock(hashtext(%s))",
		    (long)(ps->wait * 1000) + 1, ps->lock_key);
	if (first != NULL && one_trip) {
		buf_addf(&sql, "; SAVEPOINT first; %s", first);
		ask = what;
	}
	text = sql_for(st, sql.data);
	res = pq.exec(ps->conn, text);
	free(text);
	if (!one_trip && (res == NULL || (pq.result_status(res) !=
	    PGRES_COMMAND_OK && pq.result_status(res) != PGRES_TUPLES_OK))) {
		pg_error(st, res, ask, e);
		goto out;
	}
	if (!one_trip) {
		pq.clear(res);
		if (try_lock(st, e) < 0)
			goto out;
		if (first == NULL) {
			rc = 0;
			goto out;
		}
		buf_free(&sql);
		buf_addf(&sql, "SAVEPOINT first; %s", first);
		ask = what;
		text = sql_for(st, sql.data);
		res = pq.exec(ps->conn, text);
		free(text);
	}
	if (first != NULL && not_made(res)) {
		pq.clear(res);
		*r = NULL;
		rc = pg_run_only(st, what, "ROLLBACK TO SAVEPOINT first", 0,
		    NULL, e);
		goto out;
	}
	if (res == NULL || (pq.result_status(res) != PGRES_COMMAND_OK &&
	    pq.result_status(res) != PGRES_TUPLES_OK)) {
		pg_error(st, res, ask, e);
		goto out;
	}
	if (first != NULL)
		*r = res;
	else
		pq.clear(res);
	rc = 0;
out:
	buf_free(&sql);
	return rc;
}

int
pg_session_open(struct store *st, const char *uri, double wait,
    const char *first, const char *what, PGresult **r, struct error *e)
{
	struct pg_state *ps;
	struct buf key = { 0 };
	int rc;

	*r = NULL;
	if (pq_load(e) < 0)
		return -1;
	ps = xmalloc(sizeof(*ps));
	memset(ps, 0, sizeof(*ps));
	st->be = ps;
	if (pg_uri_read(&ps->uri, uri, 1, e) < 0)
		return -2;
	ps->schema = ps->uri.schema;
	if ((rc = connect_to(st, e)) < 0)
		return rc;
	ps->ident = pq.escape_identifier(ps->conn, ps->schema,
	    strlen(ps->schema));
	buf_addf(&key, "convctl:%s", ps->schema);
	ps->lock_key = pq.escape_literal(ps->conn, key.data, key.len);
	buf_free(&key);
	if (ps->ident == NULL || ps->lock_key == NULL) {
		error_set(e, "store '%s': cannot quote its schema's name: %s",
		    st->path, pq.error_message(ps->conn));
		return -1;
	}
	ps->wait = wait;
	return begin(st, first, what, r, e);
}

int
pg_session_commit(struct store *st, struct error *e)
{
	struct pg_state *ps = st->be;
	PGresult *r;

	/* what failed before the COMMIT was sent is not stored: said so */
	if (ps->nlater > 0 && settle(st, NULL, 0, NULL, &r, e) < 0)
		return -1;
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
		if (ps->lock_key != NULL)
			pq.freemem(ps->lock_key);
		/* a transaction still open (a reader's, a write that failed)
		 * is ended before the connection: a pooler in transaction
		 * mode (PgBouncer) gives a server connection to the next
		 * client only once its transaction is over, and drops it
		 * otherwise */
		switch (pq.transaction_status(ps->conn)) {
		case PQTRANS_INTRANS:
		case PQTRANS_INERROR:
			pq.clear(pq.exec(ps->conn, "ROLLBACK"));
			break;
		default:
			break;
		}
		pq.finish(ps->conn);
	}
	pg_uri_free(&ps->uri);
	free(ps->later);
	free(ps);
	st->be = NULL;
}
