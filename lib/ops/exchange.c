/*
 * exchange.c - `convctl run`'s exchange, its rules on either side of the
 * command run (run.c, which knows no store): before, the limits read (the
 * most bytes a prompt or answer may have, the idle timeout), the prompt
 * given as text and the tools checked, the two messages set up; after,
 * both recorded in one write (lib/conv/exchange.c) through ending_run's
 * protocol (ENDING_IDLE): a conversation the idle boundary ended
 * summarized after the write, as add's is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

enum ops_status
ops_run_start(const struct ops_run_request *rq, struct exchange *ex,
    struct ops_run_result *res)
{
	const char *text = rq->text != NULL ? rq->text : "";
	int64_t idle;

	memset(res, 0, sizeof(*res));
	res->status = OPS_FAILED;
	if (settings_long(rq->settings, SET_MAX_MESSAGE_BYTES, &res->max,
	    &res->error) < 0 ||
	    (rq->text != NULL && lifecycle_message_size(rq->settings, rq->len,
	    rq->text_name, &res->error) < 0) ||
	    lifecycle_idle_timeout(rq->settings, &idle, &res->error) < 0)
		return res->status;
	/* a typo, found before the store is opened, as add's; conv_add()
	 * checks the whole rule (tool_names_check) */
	if (ops_tools_check(rq->tools, rq->ntools, rq->tools_name,
	    &res->error) < 0)
		return res->status = OPS_BAD_ARG;
	/* the prompt's trailing newlines dropped, as add drops them */
	ex->prompt = (struct add_request){ .role = ROLE_USER, .clock = 1,
	    .idle_timeout = idle, .text = text,
	    .len = chomp(text, rq->len) };
	ex->reply = (struct add_request){ .role = ROLE_ASSISTANT, .clock = 1,
	    .idle_timeout = idle, .tools = rq->tools, .ntools = rq->ntools };
	return res->status = OPS_DONE;
}

struct recording {
	const struct ops_record_request *rq;
	struct ops_record_result *res;
	struct exchange_result xr;
};

/* under the lock: both messages, perhaps past the idle boundary */
static int
record_exchange(void *arg, struct store *st, struct ending_result *ending)
{
	struct recording *r = arg;
	struct ops_record_result *res = r->res;
	struct exchange *ex = r->rq->ex;
	size_t n;

	if (ts_now(&ex->reply.at, &res->error) < 0)
		return 1;
	switch (exchange_record(st, ex, &r->xr, &res->error)) {
	case ADD_DONE:
		break;
	case ADD_ELSEWHERE:
		res->status = OPS_CONFLICT;
		/* fall through */
	default:
		n = strlen(res->error.msg);
		snprintf(res->error.msg + n, sizeof(res->error.msg) - n,
		    "; nothing recorded");
		return 1;
	}
	/* a large prompt is not held three times */
	ex->prompt.text = NULL;
	buf_free(r->rq->said);
	ending->idle_ended = r->xr.ended_id;
	return 0;
}

/* after the write, before a summary: the face answers */
static int
recorded(void *arg, struct store *st, const struct ending_result *ending)
{
	struct recording *r = arg;

	(void)st;
	(void)ending;
	r->res->id = xstrdup(r->xr.conv_id);
	r->res->moved = r->xr.moved;
	if (r->rq->answered != NULL)
		r->rq->answered(r->rq->arg, r->res);
	return 0;
}

enum ops_status
ops_run_record(const struct ops_record_request *rq,
    struct ops_record_result *res)
{
	struct recording r = { rq, res, { 0 } };
	struct ending_request er = { .kind = ENDING_IDLE,
	    .settings = rq->settings, .change = record_exchange,
	    .committed = recorded, .arg = &r, .report = rq->report,
	    .report_arg = rq->report_arg };
	struct ending_result ending;
	enum ending_status st;
	struct summary_flags fl = { NULL, NULL, NULL };
	struct summary_config cf;
	struct error ce;

	memset(res, 0, sizeof(*res));
	if (summary_config_resolve(&cf, rq->settings, &fl, &ce) ==
	    SUMMARY_SETUP_OK) {
		cf.llm.log = rq->llm_log;
		cf.llm.log_arg = rq->llm_log_arg;
		er.cf = &cf;
	}
	res->status = OPS_FAILED;
	/* stopped: record_exchange said why (res->status); pending: not for
	 * IDLE, a warning said instead */
	st = ending_run(&er, &ending);
	res->status = ops_ending_status(st, &ending, &res->error,
	    res->pending, res->status);
	ending_result_free(&ending);
	return res->status;
}

void
ops_record_result_free(struct ops_record_result *res)
{
	size_t i;

	free(res->id);
	res->id = NULL;
	for (i = 0; res->pending[i] != NULL; i++) {
		free(res->pending[i]);
		res->pending[i] = NULL;
	}
}
