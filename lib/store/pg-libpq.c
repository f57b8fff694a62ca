/*
 * pg-libpq.c - loads libpq (libpq.so.5, Debian's libpq5) with dlopen on the first
 * PostgreSQL store, as llm.c loads libcurl: a command on a file store starts
 * without it, and a machine without it still runs every file store command.
 */
#include <dlfcn.h>

#include "../internal.h"
#include "pg-libpq.h"

struct pq_api pq;
static void *libpq;		/* dlopen's handle; NULL: not loaded yet */

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
#define PQ_FN(field, name) pq.field = dl_function(libpq, name, &missing)
	PQ_FN(connectdb_params, "PQconnectdbParams");
	PQ_FN(conninfo_parse, "PQconninfoParse");
	PQ_FN(conninfo_free, "PQconninfoFree");
	PQ_FN(connection_needs_password, "PQconnectionNeedsPassword");
	PQ_FN(status, "PQstatus");
	PQ_FN(transaction_status, "PQtransactionStatus");
	PQ_FN(error_message, "PQerrorMessage");
	PQ_FN(finish, "PQfinish");
	PQ_FN(exec, "PQexec");
	PQ_FN(exec_params, "PQexecParams");
	PQ_FN(result_status, "PQresultStatus");
	PQ_FN(result_error_field, "PQresultErrorField");
	PQ_FN(result_error_message, "PQresultErrorMessage");
	PQ_FN(clear, "PQclear");
	PQ_FN(ntuples, "PQntuples");
	PQ_FN(getvalue, "PQgetvalue");
	PQ_FN(getlength, "PQgetlength");
	PQ_FN(getisnull, "PQgetisnull");
	PQ_FN(escape_identifier, "PQescapeIdentifier");
	PQ_FN(escape_literal, "PQescapeLiteral");
	PQ_FN(freemem, "PQfreemem");
	PQ_FN(set_notice_processor, "PQsetNoticeProcessor");
	PQ_FN(connection_used_password, "PQconnectionUsedPassword");
	PQ_FN(put_copy_data, "PQputCopyData");
	PQ_FN(put_copy_end, "PQputCopyEnd");
	PQ_FN(get_result, "PQgetResult");
	if (missing == NULL) {	/* optional: pipeline mode, libpq 14 on */
		const char *none = NULL;

		PQ_FN(enter_pipeline_mode, "PQenterPipelineMode");
		PQ_FN(exit_pipeline_mode, "PQexitPipelineMode");
		PQ_FN(pipeline_sync, "PQpipelineSync");
		PQ_FN(send_query_params, "PQsendQueryParams");
		if (missing != NULL)
			pq.enter_pipeline_mode = NULL;
		missing = none;
	}
#undef PQ_FN
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
