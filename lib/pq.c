/*
 * pq.c - loads libpq (libpq.so.5, Debian's libpq5) with dlopen on the first
 * PostgreSQL store, as llm.c loads libcurl: a command on a file store starts
 * without it, and a machine without it still runs every file store command.
 */
#include <dlfcn.h>

#include "pq.h"

struct pq_api pq;
static void *libpq;		/* dlopen's handle; NULL: not loaded yet */

/* libpq's function name; NULL, and *missing set to the first name absent */
static void *
pq_function(const char *name, const char **missing)
{
	void *fn;

	if ((fn = dlsym(libpq, name)) == NULL && *missing == NULL)
		*missing = name;
	return fn;
}

int
pq_load(struct error *e)
{
	const char *missing = NULL;

	if (libpq != NULL)
		return 0;
	if ((libpq = dlopen(LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		error_set(e, "cannot load libpq, which a PostgreSQL store needs "
		    "(install Debian's package libpq5): %s", dlerror());
		e->kind = ERROR_UNAVAILABLE;
		return -1;
	}
	/* POSIX lets dlsym's void * be converted to a function pointer */
	pq.connectdb = pq_function("PQconnectdb", &missing);
	pq.status = pq_function("PQstatus", &missing);
	pq.error_message = pq_function("PQerrorMessage", &missing);
	pq.finish = pq_function("PQfinish", &missing);
	pq.exec = pq_function("PQexec", &missing);
	pq.exec_params = pq_function("PQexecParams", &missing);
	pq.result_status = pq_function("PQresultStatus", &missing);
	pq.result_error_field = pq_function("PQresultErrorField", &missing);
	pq.result_error_message = pq_function("PQresultErrorMessage", &missing);
	pq.clear = pq_function("PQclear", &missing);
	pq.ntuples = pq_function("PQntuples", &missing);
	pq.getvalue = pq_function("PQgetvalue", &missing);
	pq.getlength = pq_function("PQgetlength", &missing);
	pq.getisnull = pq_function("PQgetisnull", &missing);
	pq.escape_identifier = pq_function("PQescapeIdentifier", &missing);
	pq.freemem = pq_function("PQfreemem", &missing);
	pq.set_notice_processor = pq_function("PQsetNoticeProcessor", &missing);
	pq.connection_used_password = pq_function("PQconnectionUsedPassword",
	    &missing);
	if (missing != NULL) {
		dlclose(libpq);
		libpq = NULL;
		error_set(e, "cannot load libpq: '%s' has no function '%s'",
		    LIBPQ_SONAME, missing);
		e->kind = ERROR_UNAVAILABLE;
		return -1;
	}
	return 0;
}
