/*
 * switch.c - another conversation made active, for `convctl resume` (an
 * ended one active again) and `convctl fork` (a copy, up to a message, a
 * new active one): the summarizer set up as end sets it up, the id (and
 * fork's message) checked before anything ends, then ending_run's protocol
 * (ENDING_SWITCH): the active one ended as end ends it and the change, one
 * commit, the face's answer, then the summary with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

struct switching {
	const struct ops_switch_request *rq;
	struct ops_switch_result *res;
	struct conv *made;
};

/* the conversation named, and fork's last message to copy (*upto, -1:
 * none); NULL with res's error and status set */
static struct conv *
find(struct switching *sw, struct store *st, long *upto)
{
	const struct ops_switch_request *rq = sw->rq;
	struct ops_switch_result *res = sw->res;
	struct conv *c;

	res->status = OPS_FAILED;
	if ((c = store_get(st, rq->id, &res->error)) == NULL)
		return NULL;
	if (rq->kind == OPS_RESUME) {
		if (conv_ended(c) < 0) {
			error_set(&res->error, "conversation '%s' is already "
			    "active", conv_id(c));
			return NULL;
		}
		return c;
	}
	*upto = (long)conv_message_count(c) - 1;
	if (rq->at != NULL &&
	    (*upto = conv_message_find(c, rq->at, &res->error)) < 0)
		return NULL;
	return c;
}

/* before anything ends: a bad id or message ends nothing */
static int
check(void *arg, struct store *st)
{
	struct switching *sw = arg;
	long upto;

	return find(sw, st, &upto) == NULL;
}

static int
change(void *arg, struct store *st, struct ending_result *ending)
{
	struct switching *sw = arg;
	struct ops_switch_result *res = sw->res;
	struct conv *c;
	long upto = -1;

	(void)ending;
	if ((c = find(sw, st, &upto)) == NULL)
		return 1;
	if (sw->rq->kind == OPS_RESUME)
		sw->made = conv_resume(st, c, res->now, &res->error) < 0 ?
		    NULL : c;
	else
		sw->made = conv_fork(st, c, upto, res->now, &res->error);
	return sw->made == NULL;
}

/* after the write (or dry_run's read), before any summary: the face
 * answers */
static int
switched(void *arg, struct store *st, const struct ending_result *ending)
{
	struct switching *sw = arg;
	struct ops_switch_result *res = sw->res;
	json_t *from = json_object_get(conv_json(sw->made), "forkedFrom");

	(void)st;
	res->id = xstrdup(conv_id(sw->made));
	res->ended = ending->ended != NULL ? xstrdup(ending->ended) : NULL;
	res->forked_from = from != NULL ? json_clone(from) : NULL;
	res->status = OPS_DONE;
	if (sw->rq->answered != NULL &&
	    (res->stopped = sw->rq->answered(sw->rq->arg, res)) != 0)
		return 1;
	return 0;
}

enum ops_status
ops_switch(const struct ops_switch_request *rq, struct ops_switch_result *res)
{
	struct switching sw = { rq, res, NULL };
	struct ending_request er = { .kind = ENDING_SWITCH,
	    .settings = rq->settings, .dry_run = rq->dry_run, .check = check,
	    .change = change, .committed = switched, .arg = &sw,
	    .report = rq->report, .report_arg = rq->report_arg };
	struct ending_result ending;
	enum ending_status st;
	struct summary_config cf;
	struct error ce;

	memset(res, 0, sizeof(*res));
	if (!rq->no_summary)
		ops_ending_summarizer(&er, &cf, summary_config_resolve(&cf,
		    rq->settings, &rq->flags, &ce), &ce, rq->llm_log,
		    rq->llm_log_arg);
	/* the clock, not a time asked for: fork's at names a message */
	if (ts_now(&res->now, &res->error) < 0)
		return res->status = OPS_FAILED;
	er.now = res->now;
	/* stopped: check or change said why, or answered (res->stopped,
	 * written) */
	st = ending_run(&er, &ending);
	res->status = ops_ending_status(st, &ending, &res->error,
	    res->pending, res->status);
	ending_result_free(&ending);
	return res->status;
}

void
ops_switch_result_free(struct ops_switch_result *res)
{
	size_t i;

	free(res->id);
	free(res->ended);
	json_decref(res->forked_from);
	res->id = res->ended = NULL;
	res->forked_from = NULL;
	for (i = 0; res->pending[i] != NULL; i++) {
		free(res->pending[i]);
		res->pending[i] = NULL;
	}
}
