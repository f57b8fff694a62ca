/*
 * pgfloor.c - the floor for any process that talks to a PostgreSQL store:
 * connect with the URI given, run "select 1", disconnect. scripts/bench-pg
 * times convctl against it. Linked with libpq (it is a bench tool; convctl
 * itself opens libpq with dlopen).
 */
#include <stdio.h>

#include <libpq-fe.h>

int
main(int argc, char **argv)
{
	PGconn *c;
	PGresult *r;
	int ok;

	if (argc != 2) {
		fprintf(stderr, "usage: pgfloor URI\n");
		return 2;
	}
	c = PQconnectdb(argv[1]);
	if (PQstatus(c) != CONNECTION_OK) {
		fprintf(stderr, "pgfloor: %s", PQerrorMessage(c));
		PQfinish(c);
		return 1;
	}
	r = PQexec(c, "select 1");
	ok = PQresultStatus(r) == PGRES_TUPLES_OK;
	PQclear(r);
	PQfinish(c);
	return ok ? 0 : 1;
}
