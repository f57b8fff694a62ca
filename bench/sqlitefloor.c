/*
 * sqlitefloor.c - the least a command on a SQLite store can cost, for
 * scripts/bench-sqlite to measure convctl against (linked with libsqlite3,
 * as convctl is):
 *   sqlitefloor write DB        opens DB and commits one row durably: a
 *                               writer's transaction (BEGIN IMMEDIATE) that
 *                               rewrites the store's root row, in the
 *                               database's WAL with synchronous=FULL, as
 *                               convctl's commits are
 *   sqlitefloor read DB SQL...  opens DB read-only and, in one transaction,
 *                               steps each SQL's rows to the end, every
 *                               column's text read
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

static int
fail(sqlite3 *db, const char *what)
{
	fprintf(stderr, "sqlitefloor: %s: %s\n", what, sqlite3_errmsg(db));
	sqlite3_close(db);
	return 1;
}

static int
read_rows(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	size_t bytes = 0;
	int i, rc;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		for (i = 0; i < sqlite3_column_count(s); i++) {
			(void)sqlite3_column_text(s, i);
			bytes += (size_t)sqlite3_column_bytes(s, i);
		}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? (int)(bytes & 1) : -1;
}

int
main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	int i, w;

	if (argc < 3 || (strcmp(argv[1], "write") != 0 &&
	    strcmp(argv[1], "read") != 0)) {
		fprintf(stderr, "usage: sqlitefloor write DB | read DB SQL...\n");
		return 2;
	}
	w = strcmp(argv[1], "write") == 0;
	if (sqlite3_open_v2(argv[2], &db, w ? SQLITE_OPEN_READWRITE :
	    SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return fail(db, argv[2]);
	sqlite3_busy_timeout(db, 10000);
	if (w) {
		if (sqlite3_exec(db, "PRAGMA synchronous = FULL; BEGIN IMMEDIATE; "
		    "UPDATE root SET doc = doc WHERE one = 1; COMMIT", NULL, NULL,
		    NULL) != SQLITE_OK)
			return fail(db, "write");
	} else {
		if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
			return fail(db, "begin");
		for (i = 3; i < argc; i++)
			if (read_rows(db, argv[i]) < 0)
				return fail(db, argv[i]);
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	}
	sqlite3_close(db);
	return 0;
}
