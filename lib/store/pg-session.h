/*
 * pg-session.h - what the PostgreSQL engine's two files share: the state of
 * its connection (pg-session.c) and the statements pg.c runs on it.
 * Nothing else includes it.
 */
#ifndef CONVCTL_PG_SESSION_H
#define CONVCTL_PG_SESSION_H

#include "engine.h"
#include "pg-libpq.h"

struct pg_state {
	PGconn *conn;
	char *schema;		/* its name, as given */
	char *ident;		/* quoted for SQL: "convctl" */
	int exists;		/* the schema's tables are there */
	double wait;		/* for the writers' lock, seconds */
	int committed;		/* the next statement begins a transaction */
};

/* st->be made, the URI read (-2: it is not a store's; e says why), the
 * server connected and the command's transaction begun; a writer's holds
 * the writers' lock, waiting up to wait seconds for it */
int pg_session_open(struct store *st, const char *uri, double wait,
    struct error *);
/* the URI with any password as *** (the engine's shown) */
char *pg_uri_shown(const char *uri);
/* 1 when libpq's message for a connection that failed (NULL: none) says
 * the server may take the same connection on a later try */
int pg_connect_temporary(const char *msg);
/* runs sql (@: the schema) with n text parameters; the result, or NULL */
PGresult *pg_run(struct store *, const char *what, const char *sql, int n,
    const char *const *params, struct error *);
/* runs sql for its effect alone */
int pg_run_only(struct store *, const char *what, const char *sql, int n,
    const char *const *params, struct error *);
/* commits; the next statement begins a transaction of its own */
int pg_session_commit(struct store *, struct error *);
void pg_session_close(struct store *);

#endif
