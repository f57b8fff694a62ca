/*
 * switch.c - what resume and fork share: the request made from the command
 * line, lib/ops/switch.c's ops_switch() (the active conversation ended as
 * end ends it, the other made active, one commit, the summary after with
 * no lock held), its answer printed.
 */
#include "cmd.h"

/* after the write, before the summary: the id made active */
static int
print(void *ctx, const struct ops_switch_result *res)
{
	struct buf out = { 0 };
	int rc;

	render_switch(&out, res->id, res->ended, res->forked_from,
	    args_has(&((struct ctx *)ctx)->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	return rc;
}

int
cmd_switch(struct ctx *ctx, enum ops_switch_kind kind)
{
	struct progress progress = { .ctx = ctx };
	struct ops_switch_request rq = { .settings = &ctx->settings,
	    .kind = kind, .id = ctx->args.argv[0],
	    .at = kind == OPS_FORK ? args_get(&ctx->args, "at") : NULL,
	    .dry_run = args_has(&ctx->args, "dry-run"),
	    .no_summary = args_has(&ctx->args, "no-summary"),
	    .flags = { args_get(&ctx->args, "summarizer"),
	    args_get(&ctx->args, "model"), args_get(&ctx->args, "api-base") },
	    .answered = print, .arg = ctx,
	    .report = cmd_summarize_report, .report_arg = &progress };
	struct ops_switch_result res;
	size_t i;
	int rc;

	if (args_has(&ctx->args, "verbose")) {
		rq.llm_log = progress_log_line;
		rq.llm_log_arg = ctx;
	}
	ops_switch(&rq, &res);
	progress_done(&progress);
	for (i = 0; res.pending[i] != NULL; i++)
		cmd_error(ctx, "%s", res.pending[i]);
	rc = res.stopped != 0 ? res.stopped :
	    cmd_ops_status(ctx, res.status, &res.error);
	ops_switch_result_free(&res);
	return rc;
}
