/*
 * add.c - a message added, for `convctl add` and the MCP tool add: its
 * limits and text rules, its time (asked for, else the clock read under the
 * lock), the idle timeout, the template that opens a conversation it
 * starts, then the write and the summary of the one its idle boundary
 * ended (ending_run, ENDING_IDLE).
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

struct adding {
	const struct ops_add_request *rq;
	struct ops_add_result *res;
	struct add_request add;
	struct add_result added;
	enum add_status status;
	struct error e;
};

/* under the lock: the message added, perhaps past the idle boundary */
static int
add_message(void *arg, struct store *st, struct ending_result *ending)
{
	struct adding *a = arg;

	/* the clock is read only under the lock, so writers waiting on each
	 * other never add a message older than the one the previous lock
	 * holder added */
	if (a->rq->at == NULL) {
		if (ts_now(&a->add.at, &a->e) < 0) {
			a->status = ADD_FAILED;
			return 1;
		}
		a->res->clock = a->add.at;
	}
	if ((a->status = conv_add(st, &a->add, &a->added, &a->e)) != ADD_DONE)
		return 1;
	ending->idle_ended = a->added.ended_id;
	/* a duplicate changed nothing: the store is left as it is */
	ending->unchanged = a->added.duplicate;
	return 0;
}

/* after the write: the conversation's id, before any summary is asked for */
static int
added(void *arg, struct store *st, const struct ending_result *ending)
{
	struct adding *a = arg;

	(void)st;
	(void)ending;
	a->res->id = xstrdup(a->added.conv_id);
	a->res->at = a->added.at;
	a->res->started = a->added.started;
	a->res->template_unused = a->add.first_system != NULL &&
	    !a->added.started;
	if (a->rq->answered != NULL)
		a->rq->answered(a->rq->arg, a->res);
	return 0;
}

/* an argument that is wrong (arg names it): status */
static enum ops_status
bad_arg(struct ops_add_result *res, const char *arg, enum ops_status status)
{
	res->arg = arg;
	return res->status = status;
}

/* the time asked for: ISO 8601, and not past the clock's tolerance (a
 * typo of a year would stay first in recent, escape prune and stamp every
 * later message: see convctl-add(1)) */
static enum ops_status
asked_time(const struct ops_add_request *rq, struct ops_add_result *res,
    int64_t *ms)
{
	char ts[TS_LEN], clock[TS_LEN], ahead[DURATION_LEN];
	int64_t now;

	if (ts_parse(rq->at, ms) < 0) {
		error_set(&res->error, "%s expects an ISO 8601 time such as "
		    "2026-02-04T17:26:40Z, not '%s'", rq->at_name, rq->at);
		return bad_arg(res, "at", OPS_BAD_ARG);
	}
	if (ts_now(&now, &res->error) < 0)
		return res->status = OPS_FAILED;
	if (*ms - now > FUTURE_TOLERANCE_MS) {
		ts_format(*ms, ts);
		ts_format(now, clock);
		duration_format(*ms - now, ahead);
		error_set(&res->error, "%s %s is %s after the clock (%s); a "
		    "time at most 5 minutes ahead is accepted", rq->at_name,
		    ts, ahead, clock);
		return bad_arg(res, "at", OPS_REFUSED);
	}
	return OPS_DONE;
}

enum ops_status
ops_add_check(const struct ops_add_request *rq, struct ops_add_result *res)
{
	int64_t at, idle;

	memset(res, 0, sizeof(*res));
	res->clock = -1;
	if (settings_long(rq->settings, SET_MAX_MESSAGE_BYTES, &res->max,
	    &res->error) < 0 ||
	    lifecycle_idle_timeout(rq->settings, &idle, &res->error) < 0)
		return res->status = OPS_FAILED;
	/* a typo of the face's input (a usage error), then the whole rule;
	 * both faces say the same for the same tools */
	if (ops_tools_check(rq->tools, rq->ntools, rq->tools_name != NULL ?
	    rq->tools_name : "tool name", &res->error) < 0)
		return bad_arg(res, "tools", OPS_BAD_ARG);
	if (tool_names_check(rq->tools, rq->ntools, &res->error) < 0)
		return bad_arg(res, "tools", OPS_FAILED);
	if (rq->at != NULL && asked_time(rq, res, &at) != OPS_DONE)
		return res->status;
	return res->status = OPS_DONE;
}

/*
 * A conversation the idle boundary ended is summarized after the write, with
 * no lock held, when summary_at_idle_end says so (ending.c): a summary that
 * fails leaves it pending and the add done; a summarizer that is not set up
 * right leaves it pending without a word: summarize --pending says what is
 * wrong.
 */
enum ops_status
ops_add(const struct ops_add_request *rq, struct ops_add_result *res)
{
	struct adding a = { .rq = rq, .res = res, .add = { .role = rq->role,
	    .text = rq->text, .len = rq->len, .tools = rq->tools,
	    .ntools = rq->ntools, .clock = rq->at == NULL,
	    .dedupe_key = rq->dedupe_key, .expect_conv = rq->expect_conv } };
	struct ending_request er = { .kind = ENDING_IDLE,
	    .settings = rq->settings, .change = add_message, .committed = added,
	    .arg = &a, .report = rq->report, .report_arg = rq->report_arg };
	struct ending_result ending;
	struct summary_config cf;
	char *tmpl = NULL;

	if (ops_add_check(rq, res) != OPS_DONE)
		return res->status;
	/* as checked: read again */
	lifecycle_idle_timeout(rq->settings, &a.add.idle_timeout, &res->error);
	if (rq->at != NULL)
		ts_parse(rq->at, &a.add.at);
	if (lifecycle_message_size(rq->settings, rq->len, rq->text_name,
	    &res->error) < 0)	/* text_name said */
		return res->status = OPS_FAILED;
	if (message_text_check(rq->len, rq->len == 0 ? -1 :
	    utf8_invalid_at(rq->text, rq->len), &res->error) < 0)
		return bad_arg(res, "text", OPS_FAILED);
	if (rq->template_name != NULL) {
		if (template_text(rq->settings, rq->template_name,
		    (size_t)res->max, &tmpl, &a.add.first_len,
		    &res->error) < 0)
			return res->status = OPS_FAILED;
		a.add.first_system = tmpl;
	}
	if (summary_config_load(&cf, rq->settings, &a.e) == 0)
		er.cf = &cf;
	switch (ending_run(&er, &ending)) {
	case ENDING_BAD_STORE:	/* a device, a FIFO: the wrong thing named */
		res->error = ending.error;
		res->status = OPS_BAD_STORE;
		break;
	case ENDING_FAILED:
		res->error = ending.error;
		res->status = OPS_FAILED;
		break;
	case ENDING_STOPPED:	/* add_message's status */
		res->error = a.e;
		res->status = a.status == ADD_ELSEWHERE ? OPS_CONFLICT :
		    a.status == ADD_BEFORE_LAST ? OPS_REFUSED : OPS_FAILED;
		/* the user asked for that time: theirs to fix */
		if (a.status == ADD_BEFORE_LAST)
			error_set(&res->error, "%s; give a later %s, or none to "
			    "use the clock", a.e.msg, rq->at_name);
		break;
	case ENDING_PENDING:	/* not for an idle end: a warning, said */
	case ENDING_DONE:
		res->status = OPS_DONE;
		break;
	}
	ending_result_free(&ending);
	free(tmpl);
	return res->status;
}

void
ops_add_result_free(struct ops_add_result *res)
{
	free(res->id);
	res->id = NULL;
}
