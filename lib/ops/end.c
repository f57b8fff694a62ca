/*
 * end.c - the active conversation ended, for `convctl end` and the MCP tool
 * end: the summarizer set up (the flags over the settings; a bad setting
 * must not keep conversations from ending), the time read, then
 * ending_run's protocol (ENDING_END): a local summary written with the end,
 * a network one asked for after the write with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

struct ending_end {
	const struct ops_end_request *rq;
	struct ops_end_result *res;
};

/* after the write, before any summary: the face answers */
static int
ended(void *arg, struct store *st, const struct ending_result *ending)
{
	struct ending_end *en = arg;

	(void)st;
	en->res->id = ending->ended != NULL ? xstrdup(ending->ended) : NULL;
	en->res->ended_at = ending->ended_at;
	if (en->rq->answered != NULL)
		en->rq->answered(en->rq->arg, en->res);
	return 0;
}

enum ops_status
ops_end(const struct ops_end_request *rq, struct ops_end_result *res)
{
	struct ending_end en = { rq, res };
	struct ending_request er = { .kind = ENDING_END,
	    .settings = rq->settings, .committed = ended, .arg = &en,
	    .report = rq->report, .report_arg = rq->report_arg };
	struct ending_result ending;
	enum ending_status st;
	struct summary_config cf;
	struct error ce;
	enum summary_setup setup;

	memset(res, 0, sizeof(*res));
	setup = summary_config_resolve(&cf, rq->settings, &rq->flags, &ce);
	/* a flag naming no summarizer, or any flag that does not set one
	 * up, is the caller's mistake, even with no_summary */
	if (setup == SUMMARY_SETUP_BAD_FLAG || (setup != SUMMARY_SETUP_OK &&
	    !rq->no_summary && (rq->flags.summarizer != NULL ||
	    rq->flags.model != NULL || rq->flags.api_base != NULL))) {
		res->error = ce;
		res->arg = "summarizer";
		return res->status = OPS_BAD_ARG;
	}
	if (!rq->no_summary)
		ops_ending_summarizer(&er, &cf, setup, &ce, rq->llm_log,
		    rq->llm_log_arg);
	if (ts_now(&res->now, &res->error) < 0)
		return res->status = OPS_FAILED;
	er.now = res->now;
	st = ending_run(&er, &ending);
	res->status = ops_ending_status(st, &ending, &res->error,
	    res->pending, OPS_DONE);
	ending_result_free(&ending);
	return res->status;
}

void
ops_end_result_free(struct ops_end_result *res)
{
	size_t i;

	free(res->id);
	res->id = NULL;
	for (i = 0; res->pending[i] != NULL; i++) {
		free(res->pending[i]);
		res->pending[i] = NULL;
	}
}
