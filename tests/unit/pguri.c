/*
 * pguri.c - a PostgreSQL store's URI as it is shown (every secret as ***)
 * and refused (exit 2: -2), read by libpq's parser; without libpq (as
 * `convctl config` reads it where libpq5 is not installed) with its whole
 * user information and query masked; and messages masked with it.
 */
#include <stddef.h>
#include <stdlib.h>

#include "../../lib/store/pg-session.h"
#include "tap.h"

struct shape {
	const char *uri;	/* as written */
	int rc;			/* pg_uri_read's */
	const char *shown;
	int password;		/* it holds one */
};

static const struct shape shapes[] = {
	{ "postgresql://alice:s3cr3t@db/app", 0,
	    "postgresql://alice:***@db/app", 1 },
	{ "postgresql://alice@db/app?sslmode=disable", 0,
	    "postgresql://alice@db/app?sslmode=disable", 0 },
	{ "postgresql://db/app?sslpassword=k3y&sslmode=disable", 0,
	    "postgresql://db/app?sslpassword=***&sslmode=disable", 1 },
	{ "postgres://db/app?%70assword=s3cr3t&schema=two", 0,
	    "postgres://db/app?%70assword=***&schema=two", 1 },
	{ "postgresql://h1,h2/app?target_session_attrs=read-write", 0,
	    "postgresql://h1,h2/app?target_session_attrs=read-write", 0 },
	/* what libpq would read otherwise than its writer meant */
	{ "postgresql://alice:s3/cr3t@db/app?x=1", -2,
	    "postgresql://***@db/app?***", 1 },
	{ "postgresql://alice:s3@cr3t@db/app", -2, "postgresql://***@db/app",
	    1 },
	{ "postgresql://alice:s3?cr3t@db/app", -2, "postgresql://***@db/app",
	    1 },
	{ "postgresql://db/app?schema=pg_mine", -2,
	    "postgresql://db/app?schema=pg_mine", 0 },
	{ "postgresql://db/app?schema=information_schema", -2,
	    "postgresql://db/app?schema=information_schema", 0 },
	{ "postgresql://db/app?schema=Upper", -2,
	    "postgresql://db/app?schema=Upper", 0 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
masked(const char *uri, const char *msg, const char *want, const char *name)
{
	struct pg_uri u;
	struct error e;
	struct buf b = { 0 };

	pg_uri_read(&u, uri, 1, &e);
	pg_uri_mask(&u, &b, msg);
	is_str(b.data, want, name);
	buf_free(&b);
	pg_uri_free(&u);
}

int
main(void)
{
	struct pg_uri u;
	struct error e;
	size_t i;

	if (pq_load(&e) < 0) {
		printf("1..0 # SKIP %s\n", e.msg);
		return 0;
	}
	for (i = 0; i < N(shapes); i++) {
		is_int(pg_uri_read(&u, shapes[i].uri, 1, &e), shapes[i].rc,
		    shapes[i].uri);
		is_str(u.shown, shapes[i].shown, "  shown");
		is_int(u.has_password, shapes[i].password, "  holds a password");
		pg_uri_free(&u);
	}
	masked("postgresql://alice:P%ZZW@db/app",
	    "invalid percent-encoded token: \"P%ZZW\"",
	    "invalid percent-encoded token: \"***\"",
	    "a quoted part of the password, as written");
	masked("postgresql://alice:s3%2Fcr3t@db/app",
	    "could not use \"s3/cr3t\"; nor s3/cr3t",
	    "could not use \"***\"; nor ***",
	    "the password as libpq decodes it, quoted or not");
	masked("postgresql://alice:ab@db/app",
	    "role \"alice\" and a tab: \"ab\"",
	    "role \"alice\" and a tab: \"***\"",
	    "a short password only where quoted");
	pg_uri_read(&u, "postgresql://alice:s3cr3t@db/app?sslmode=disable", 0,
	    &e);
	is_str(u.shown, "postgresql://***@db/app?***", "without libpq: the "
	    "user information and the query masked whole");
	is_int(u.has_password, 1, "  holds a password");
	pg_uri_free(&u);
	masked("postgresql://alice:s3cr3t@[::1/app",
	    "bad URI: \"postgresql://alice:s3cr3t@[::1/app\"",
	    "bad URI: \"postgresql://***@[::1/app\"",
	    "the URI quoted whole: shown");
	return done();
}
