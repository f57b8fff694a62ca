/*
 * pg-libpq.h - libpq, opened with dlopen the first time a PostgreSQL store is
 * used, so the binary does not link it and the file store never loads it.
 * Only the PostgreSQL engine (pg-session.h) includes this.
 */
#ifndef CONVCTL_PQ_H
#define CONVCTL_PQ_H

#include <libpq-fe.h>

#include "../convctl.h"

#define LIBPQ_SONAME "libpq.so.5"	/* every libpq since PostgreSQL 8.2 */

/* the libpq functions convctl calls, as libpq-fe.h declares them */
struct pq_api {
	__typeof__(PQconnectdbParams) *connectdb_params;
	__typeof__(PQconninfoParse) *conninfo_parse;
	__typeof__(PQconninfoFree) *conninfo_free;
	__typeof__(PQconnectionNeedsPassword) *connection_needs_password;
	__typeof__(PQstatus) *status;
	__typeof__(PQtransactionStatus) *transaction_status;
	__typeof__(PQerrorMessage) *error_message;
	__typeof__(PQfinish) *finish;
	__typeof__(PQexec) *exec;
	__typeof__(PQexecParams) *exec_params;
	__typeof__(PQresultStatus) *result_status;
	__typeof__(PQresultErrorField) *result_error_field;
	__typeof__(PQresultErrorMessage) *result_error_message;
	__typeof__(PQclear) *clear;
	__typeof__(PQntuples) *ntuples;
	__typeof__(PQgetvalue) *getvalue;
	__typeof__(PQgetlength) *getlength;
	__typeof__(PQgetisnull) *getisnull;
	__typeof__(PQescapeIdentifier) *escape_identifier;
	__typeof__(PQescapeLiteral) *escape_literal;
	__typeof__(PQfreemem) *freemem;
	__typeof__(PQsetNoticeProcessor) *set_notice_processor;
	__typeof__(PQconnectionUsedPassword) *connection_used_password;
	__typeof__(PQputCopyData) *put_copy_data;
	__typeof__(PQputCopyEnd) *put_copy_end;
	__typeof__(PQgetResult) *get_result;
	/* libpq 14 and later's (NULL before: every statement is sent alone) */
	__typeof__(PQenterPipelineMode) *enter_pipeline_mode;
	__typeof__(PQexitPipelineMode) *exit_pipeline_mode;
	__typeof__(PQpipelineSync) *pipeline_sync;
	__typeof__(PQsendQueryParams) *send_query_params;
};
extern struct pq_api pq;	/* filled in by pq_load() */

/* loads libpq once; the error (ERROR_UNAVAILABLE) names Debian's package */
int pq_load(struct error *);

#endif
