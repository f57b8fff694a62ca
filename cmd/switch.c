/*
 * switch.c - what resume and fork share: lib/ops/ending.c ends the active
 * conversation as `convctl end` ends it, the command makes another active,
 * one commit, and the summaries after, with no lock held.
 */
#include "cmd.h"

struct switching {
	struct ctx *ctx;
	const struct switch_op *op;
	int64_t now;
	struct conv *made;
};

static int
check(void *arg, struct store *st)
{
	struct switching *sw = arg;

	/* before anything ends: a bad ID or MESSAGE ends nothing */
	return sw->op->check(sw->ctx, st, sw->op->arg);
}

static int
change(void *arg, struct store *st, struct ending_result *res)
{
	struct switching *sw = arg;

	(void)res;
	sw->made = sw->op->run(sw->ctx, st, sw->now, sw->op->arg);
	return sw->made == NULL ? EXIT_FAIL : 0;
}

static int
print(void *arg, struct store *st, const struct ending_result *res)
{
	struct switching *sw = arg;
	struct buf out = { 0 };
	int rc;

	(void)st;
	render_switch(&out, sw->made, res->ended,
	    args_has(&sw->ctx->args, "json"));
	rc = cmd_print(sw->ctx, out.data, out.len);
	buf_free(&out);
	return rc;
}

int
cmd_switch(struct ctx *ctx, const struct switch_op *op)
{
	struct switching sw = { ctx, op, 0, NULL };
	struct ending_request rq = { .kind = ENDING_SWITCH,
	    .dry_run = args_has(&ctx->args, "dry-run"), .check = check,
	    .change = change, .committed = print, .arg = &sw };
	struct ending_result res;
	struct summary_config cf;
	struct error e, ce;
	enum summary_setup cfg;
	int rc;

	cfg = cmd_summary_setup(ctx, &cf, &ce);
	if (!args_has(&ctx->args, "no-summary")) {
		if (cfg != SUMMARY_SETUP_OK)
			rq.setup_error = ce.msg;
		else if (cf.kind != SUMMARY_NONE)
			rq.cf = &cf;
	}
	/* the clock, not cmd_now: fork's --at names a message, not a time */
	if (ts_now(&sw.now, &e) < 0)
		return cmd_fail(ctx, &e);
	rq.now = sw.now;
	rc = cmd_ending(ctx, &rq, &res);
	ending_result_free(&res);
	return rc;
}
