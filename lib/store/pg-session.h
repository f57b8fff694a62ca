/*
 * pg-session.h - what the PostgreSQL engine's files share: its URI read
 * (pg-uri.c), the state of its connection (pg-session.c) and the statements
 * the engine's files (pg*.c) run on it.
 * Nothing else includes it.
 */
#ifndef CONVCTL_PG_SESSION_H
#define CONVCTL_PG_SESSION_H

#include "engine.h"
#include "pg-libpq.h"

/* pg-uri.c: a store's URI, read */
struct pg_strings {
	char **v;
	size_t n;
};
struct pg_uri {
	char *uri;		/* as the user wrote it */
	char *conninfo;		/* the URI less schema=, for libpq */
	char *schema;		/* schema=, else convctl */
	char *shown;		/* the URI with every secret as *** */
	struct pg_strings secret;	/* each, as written and as decoded */
	struct pg_strings values;	/* every query value, as written and
					 * decoded: what a URI libpq cannot read
					 * may quote */
	int has_password;	/* user:PASSWORD@ or a secret parameter */
	int parsed;		/* libpq read it */
};
/* reads uri (libpq: with PQconninfoParse, which pq_load() made ready);
 * 0, or -2: a URI convctl or libpq refuses (e says why, secrets masked);
 * u is filled either way, for pg_uri_free() */
int pg_uri_read(struct pg_uri *u, const char *uri, int libpq, struct error *);
/* msg into out as it may be printed: no secret of u in it */
void pg_uri_mask(const struct pg_uri *u, struct buf *out, const char *msg);
void pg_uri_free(struct pg_uri *);

struct pg_state {
	PGconn *conn;
	struct pg_uri uri;
	char *schema;		/* its name, as given (uri.schema) */
	char *ident;		/* quoted for SQL: "convctl" */
	char *lock_key;		/* the writers' lock's key, quoted for SQL */
	int exists;		/* the schema's tables are there */
	double wait;		/* for the writers' lock, seconds */
	int committed;		/* the next statement begins a transaction */
	const char **later;	/* what each statement sent is, in a pipeline */
	size_t nlater, maxlater;
};

/* st->be made, the URI read (-2: it is not a store's; e says why), the
 * server connected and the command's transaction begun; a writer's holds
 * the writers' lock, waiting up to wait seconds for it. first (@: the
 * schema; what: what it does) is run in the same round trip: *r is its
 * result, or NULL when a table it reads is not there (a store not made) */
int pg_session_open(struct store *st, const char *uri, double wait,
    const char *first, const char *what, PGresult **r, struct error *);
/* what libpq's message for a connection that failed (NULL: none) means:
 * the row of the table of verdicts (pg-session.c) it meets */
struct pg_verdict {
	const char *state;	/* SQLSTATE, or its class; NULL: none */
	const char *says;	/* in libpq's or the server's text; NULL: none */
	enum pg_exit { PG_USAGE = 2, PG_FAILED = 1, PG_AGAIN = 75 } exit;
	const char *means;	/* what it means, what to do; NULL: nothing */
};
const struct pg_verdict *pg_connect_verdict(const char *msg);
/* runs sql (@: the schema) with n text parameters; the result, or NULL */
PGresult *pg_run(struct store *, const char *what, const char *sql, int n,
    const char *const *params, struct error *);
/* runs sql for its effect alone */
int pg_run_only(struct store *, const char *what, const char *sql, int n,
    const char *const *params, struct error *);
/* the same, sent now (a pipeline, where libpq has them) and its outcome read
 * with the next statement's, a round trip saved: an error is the next
 * pg_run's, pg_run_only's or pg_copy_begin's (sql: one statement) */
int pg_run_later(struct store *, const char *what, const char *sql, int n,
    const char *const *params, struct error *);
/*
 * COPY ... FROM STDIN (sql, @: the schema) in text format, streamed: begin
 * it, add rows to a buffer (pg_copy_field, '\t' between fields, '\n' after
 * each row) and hand it to pg_copy_put, which sends it once it holds
 * PG_COPY_CHUNK bytes, then pg_copy_end: with abort NULL it sends what is
 * left and says how the COPY went (what: as pg_run's), else it abandons
 * the COPY (and so the transaction) and returns -1 with e as it is.
 */
#define PG_COPY_CHUNK 65536
int pg_copy_begin(struct store *, const char *what, const char *sql,
    struct error *);
int pg_copy_put(struct store *, struct buf *rows, const char *what,
    struct error *);
int pg_copy_end(struct store *, struct buf *rows, const char *what,
    const char *abort, struct error *);
/* s (NULL: SQL's NULL, \N) as a field of COPY's text format: backslash,
 * tab, newline and carriage return escaped */
void pg_copy_field(struct buf *, const char *s, size_t len);
/* commits; the next statement begins a transaction of its own */
int pg_session_commit(struct store *, struct error *);
void pg_session_close(struct store *);

#endif
