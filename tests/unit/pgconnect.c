/*
 * pgconnect.c - pg_connect_verdict(): what each of libpq's messages for a
 * connection that failed means, by the table of verdicts: try again (exit
 * 75), a refusal a new try does not mend (1), or settings libpq refuses (2).
 * The messages are PostgreSQL 15's and libpq's, as they print them.
 */
#include <stddef.h>

#include "../../lib/store/pg-session.h"
#include "tap.h"

#define SOCK "connection to server on socket \"/run/pg/.s.PGSQL.5432\" failed: "
#define TCP "connection to server at \"db\" (10.0.0.5), port 5432 failed: "

/* a case: what it is, libpq's message, the exit status it means */
struct msg {
	const char *name, *text;
	int exit;
};

static const struct msg cases[] = {
	{ "no server at the socket",
	    SOCK "No such file or directory\n\tIs the server running locally and "
	    "accepting connections on that socket?\n", 75 },
	{ "no server at the port", TCP "Connection refused\n", 75 },
	{ "no such host", "could not translate host name \"db\" to address: "
	    "Name or service not known\n", 75 },
	{ "the server closed the connection",
	    SOCK "server closed the connection unexpectedly\n", 75 },
	{ "a silent server", TCP "timeout expired\n", 75 },
	{ "starting up", SOCK "FATAL:  the database system is starting up\n", 75 },
	{ "shutting down",
	    SOCK "FATAL:  the database system is shutting down\n", 75 },
	{ "in recovery",
	    SOCK "FATAL:  the database system is in recovery mode\n", 75 },
	{ "not yet accepting connections",
	    SOCK "FATAL:  the database system is not yet accepting connections\n"
	    "DETAIL:  Consistent recovery state has not been yet reached.\n", 75 },
	{ "not accepting connections",
	    SOCK "FATAL:  the database system is not accepting connections\n"
	    "DETAIL:  Hot standby mode is disabled.\n", 75 },
	{ "too many clients", SOCK "FATAL:  sorry, too many clients already\n",
	    75 },
	{ "slots reserved", SOCK "FATAL:  remaining connection slots are "
	    "reserved for non-replication superuser connections\n", 75 },
	{ "stopped while connecting: postmaster exit",
	    SOCK "FATAL:  terminating connection due to unexpected postmaster "
	    "exit\n", 75 },
	{ "stopped while connecting: administrator command",
	    SOCK "FATAL:  terminating connection due to administrator command\n",
	    75 },
	{ "PgBouncer, its server down since it started",
	    TCP "FATAL:  query_wait_timeout\n", 75 },
	{ "PgBouncer, max_client_conn",
	    TCP "FATAL:  no more connections allowed (max_client_conn)\n", 75 },
	{ "PgBouncer, server_login_retry", TCP "FATAL:  server login has been "
	    "failing, try again later (server_login_retry)\n", 75 },
	{ "PgBouncer, no server",
	    TCP "FATAL:  pgbouncer cannot connect to server\n", 75 },
	{ "a standby, for a writer", TCP "session is read-only\n", 75 },
	{ "a standby, for target_session_attrs=primary",
	    TCP "server is in hot standby mode\n", 75 },
	{ "a wrong password",
	    SOCK "FATAL:  password authentication failed for user \"app\"\n", 1 },
	{ "no password", TCP "fe_sendauth: no password supplied\n", 1 },
	{ "no such role", SOCK "FATAL:  role \"nobody\" does not exist\n", 1 },
	{ "no such database",
	    SOCK "FATAL:  database \"nosuch\" does not exist\n", 1 },
	{ "no pg_hba.conf entry",
	    SOCK "FATAL:  no pg_hba.conf entry for host \"[local]\", user \"app\", "
	    "database \"app\", no encryption\n", 1 },
	{ "no permission for the database",
	    SOCK "FATAL:  permission denied for database \"app\"\n", 1 },
	{ "a bad sslmode", "invalid sslmode value: \"bogus\"\n", 2 },
	{ "a port that is not a number",
	    "invalid integer value \"notaport\" for connection option \"port\"\n",
	    2 },
	{ "a connect_timeout that is not a number", TCP "invalid integer value "
	    "\"x\" for connection option \"connect_timeout\"\n", 2 },
	{ "no such service", "definition of service \"nosuch\" not found\n", 2 },
	{ "a bad target_session_attrs",
	    "invalid target_session_attrs value: \"writer\"\n", 2 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

int
main(void)
{
	size_t i;

	ok(pg_connect_verdict(NULL)->exit == PG_AGAIN, "no message at all: "
	    "try again");
	for (i = 0; i < N(cases); i++)
		ok((int)pg_connect_verdict(cases[i].text)->exit == cases[i].exit,
		    cases[i].name);
	return done();
}
