/*
 * end.c - `convctl end`: ends the active conversation, then summarizes it
 * with no lock held; the lifecycle and summary rules are lib/'s.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ 0, "no-summary", NULL, "end it without a title or summary", 0 },
	{ 0 },
};

struct ended {
	struct ctx *ctx;
	int64_t now;
};

/* after the write: the id ended; nothing active is said, and is no error:
 * the pending ones are summarized all the same */
static int
print_ended(void *arg, struct store *st, const struct ending_result *res)
{
	const struct ended *a = arg;

	(void)st;
	if (res->ended == NULL) {
		cmd_error(a->ctx, "no active conversation");
		return 0;
	}
	if (res->ended_at > a->now)	/* not when it was idle: no skew */
		cmd_skew_warning(a->ctx, a->now, res->ended_at, "ended");
	cmd_put_line(stdout, res->ended);
	return 0;
}

/*
 * The end and its summaries are lib/ops/ending.c's: a local summary written
 * with the end, a network one asked for after the write with no lock held;
 * a summary that fails leaves the conversation ended, its summary null for
 * summarize --pending, and the exit status 3.
 */
static int
end_exec(struct ctx *ctx)
{
	struct ended a = { .ctx = ctx };
	struct ending_request rq = { .kind = ENDING_END,
	    .committed = print_ended, .arg = &a };
	struct ending_result res;
	struct summary_config cf;
	struct error ce;
	enum summary_setup cfg;
	int rc;

	cfg = cmd_summary_setup(ctx, &cf, &ce);
	if (cfg == SUMMARY_SETUP_BAD_FLAG)
		return cmd_usage_error(ctx, "%s", ce.msg);
	if (!args_has(&ctx->args, "no-summary")) {
		/* a bad flag is a usage error; a bad setting must not keep
		 * conversations from ending */
		if (cfg != SUMMARY_SETUP_OK && (args_has(&ctx->args,
		    "summarizer") || args_has(&ctx->args, "model") ||
		    args_has(&ctx->args, "api-base")))
			return cmd_usage_error(ctx, "%s", ce.msg);
		if (cfg != SUMMARY_SETUP_OK)
			rq.setup_error = ce.msg;
		else if (cf.kind != SUMMARY_NONE)
			rq.cf = &cf;
	}
	if ((rc = cmd_now(ctx, &a.now)) != 0)
		return rc;
	rq.now = a.now;
	rc = cmd_ending(ctx, &rq, &res);
	ending_result_free(&res);
	return rc;
}

const struct cmd_entry cmd_end_entry = {
	.name = "end",
	.summary = "end the active conversation and summarize it",
	.options = options,
	.shared = cmd_summarizer_options,
	.notes = "Prints the id of the conversation ended. Exit status 3: it "
	    "was\nended, but its summary failed (convctl summarize --pending).\n",
	.min_args = 0, .max_args = 0,
	.exec = end_exec,
};
