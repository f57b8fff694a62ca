/*
 * end.c - `convctl end`: ends the active conversation, then summarizes it
 * with no lock held; the lifecycle and summary rules are lib/'s.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* after the write: the id ended; nothing active is said, and is no error:
 * the pending ones are summarized all the same */
static void
print_ended(void *ctx, const struct ops_end_result *res)
{
	if (res->id == NULL) {
		cmd_error(ctx, "no active conversation");
		return;
	}
	if (res->ended_at > res->now)	/* not when it was idle: no skew */
		cmd_skew_warning(ctx, res->now, res->ended_at, "ended");
	cmd_put_line(stdout, res->id);
}

/*
 * The end and its summaries are ops_end()'s (lib/ops/end.c): a summary that
 * fails leaves the conversation ended, its summary null for summarize
 * --pending, and the exit status 3.
 */
static int
end_exec(struct ctx *ctx)
{
	struct progress progress = { .ctx = ctx };
	struct ops_end_request rq = { .settings = &ctx->settings,
	    .no_summary = args_has(&ctx->args, "no-summary"),
	    .flags = { args_get(&ctx->args, "summarizer"),
	    args_get(&ctx->args, "model"), args_get(&ctx->args, "api-base") },
	    .answered = print_ended, .arg = ctx,
	    .report = cmd_summarize_report, .report_arg = &progress };
	struct ops_end_result res;
	size_t i;
	int rc;

	if (args_has(&ctx->args, "verbose")) {
		rq.llm_log = progress_log_line;
		rq.llm_log_arg = ctx;
	}
	ops_end(&rq, &res);
	progress_done(&progress);
	for (i = 0; res.pending[i] != NULL; i++)
		cmd_error(ctx, "%s", res.pending[i]);
	rc = cmd_ops_status(ctx, res.status, &res.error);
	ops_end_result_free(&res);
	return rc;
}

const struct cmd_entry cmd_end_entry = {
	.name = "end",
	.summary = "end the active conversation and summarize it",
	.options = args_end_options,
	.shared = cmd_summarizer_options,
	.notes = "Prints the id of the conversation ended. Exit status 3: it "
	    "was\nended, but its summary failed (convctl summarize --pending).\n",
	.min_args = 0, .max_args = 0,
	.exec = end_exec,
};
