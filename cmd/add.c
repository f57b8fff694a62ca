/*
 * add.c - `convctl add`: the message from the operands or standard input, one
 * conv_add(), the conversation's id printed; the store's format is lib/'s.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

/* after the write, before any summary is asked for: the conversation's id */
static void
print_added(void *ctx, const struct ops_add_result *res)
{
	if (res->clock >= 0 && res->at != res->clock)
		cmd_skew_warning(ctx, res->clock, res->at, "recorded");
	if (res->template_unused)
		cmd_error(ctx, "note: template '%s' not used: the message "
		    "went to conversation '%s', already started",
		    args_get(&((struct ctx *)ctx)->args, "template"), res->id);
	cmd_put_line(stdout, res->id);
	fflush(stdout);
}

/* the message and the options to ops_add() (lib/ops/add.c), which holds
 * the whole rule; its answer printed */
static int
add_exec(struct ctx *ctx)
{
	struct progress progress = { .ctx = ctx };
	struct ops_add_request rq = { .settings = &ctx->settings,
	    .role = ROLE_USER, .text_name = "TEXT", .at_name = "--at",
	    .tools_name = "--tool name",
	    .at = args_get(&ctx->args, "at"),
	    .dedupe_key = args_get(&ctx->args, "dedupe-key"),
	    .expect_conv = args_get(&ctx->args, "expect-conversation"),
	    .template_name = args_get(&ctx->args, "template"),
	    .answered = print_added, .arg = ctx,
	    .report = cmd_summarize_report, .report_arg = &progress };
	struct ops_add_result res;
	struct buf text = { 0 };
	const char *role = args_get(&ctx->args, "role");
	int rc;

	if (role != NULL && (rc = cmd_role(ctx, role, &rq.role)) != 0)
		return rc;
	rq.tools = args_all(&ctx->args, "tool", &rq.ntools);
	/* the tools and --at are checked before anything is read; the text
	 * is read up to the limit ops_add_check() says, and checked by
	 * ops_add() */
	if (ops_add_check(&rq, &res) != OPS_DONE)
		return cmd_ops_status(ctx, res.status, &res.error);
	if ((rc = cmd_text(ctx, 0, res.max, &text)) != 0)
		goto out;
	rq.text = text.data ? text.data : "";
	rq.len = text.len;
	ops_add(&rq, &res);
	progress_done(&progress);
	rc = cmd_ops_status(ctx, res.status, &res.error);
	ops_add_result_free(&res);
out:
	buf_free(&text);
	return rc;
}

const struct cmd_entry cmd_add_entry = {
	.name = "add",
	.summary = "add a message to the active conversation",
	.options = args_add_options,
	.operands = "[TEXT...]",
	.operand_help = args_add_operands,
	.min_args = 0, .max_args = -1,
	.paging = PAGING_STDIN,
	.exec = add_exec,
};
