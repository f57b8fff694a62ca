/*
 * pgconnect.c - pg_connect_temporary(): which of libpq's messages for a
 * connection that failed mean "try again" (exit 75) and which do not. The
 * messages are PostgreSQL 15's and libpq's, as they print them.
 */
#include <stddef.h>

#include "../../lib/store/pg-session.h"
#include "tap.h"

#define SOCK "connection to server on socket \"/run/pg/.s.PGSQL.5432\" failed: "

/* a case: what it is, and libpq's message */
struct msg {
	const char *name, *text;
};

static const struct msg temporary[] = {
	{ "no server at the socket",
	    SOCK "No such file or directory\n\tIs the server running locally and "
	    "accepting connections on that socket?\n" },
	{ "no server at the port",
	    "connection to server at \"db\" (10.0.0.5), port 5432 failed: "
	    "Connection refused\n" },
	{ "the server closed the connection",
	    SOCK "server closed the connection unexpectedly\n" },
	{ "starting up",
	    SOCK "FATAL:  the database system is starting up\n" },
	{ "shutting down",
	    SOCK "FATAL:  the database system is shutting down\n" },
	{ "in recovery",
	    SOCK "FATAL:  the database system is in recovery mode\n" },
	{ "not yet accepting connections",
	    SOCK "FATAL:  the database system is not yet accepting connections\n"
	    "DETAIL:  Consistent recovery state has not been yet reached.\n" },
	{ "not accepting connections",
	    SOCK "FATAL:  the database system is not accepting connections\n"
	    "DETAIL:  Hot standby mode is disabled.\n" },
	{ "too many clients",
	    SOCK "FATAL:  sorry, too many clients already\n" },
	{ "stopped while connecting: postmaster exit",
	    SOCK "FATAL:  terminating connection due to unexpected postmaster "
	    "exit\n" },
	{ "stopped while connecting: administrator command",
	    SOCK "FATAL:  terminating connection due to administrator command\n" },
};

static const struct msg lasting[] = {
	{ "a wrong password",
	    SOCK "FATAL:  password authentication failed for user \"app\"\n" },
	{ "no such role",
	    SOCK "FATAL:  role \"nobody\" does not exist\n" },
	{ "no such database",
	    SOCK "FATAL:  database \"nosuch\" does not exist\n" },
	{ "no pg_hba.conf entry",
	    SOCK "FATAL:  no pg_hba.conf entry for host \"[local]\", user \"app\", "
	    "database \"app\", no encryption\n" },
	{ "no permission for the database",
	    SOCK "FATAL:  permission denied for database \"app\"\n" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

int
main(void)
{
	size_t i;

	ok(pg_connect_temporary(NULL), "no message at all: try again");
	for (i = 0; i < N(temporary); i++)
		ok(pg_connect_temporary(temporary[i].text), temporary[i].name);
	for (i = 0; i < N(lasting); i++)
		ok(!pg_connect_temporary(lasting[i].text), lasting[i].name);
	return done();
}
