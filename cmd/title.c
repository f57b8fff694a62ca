/*
 * title.c - `convctl title`: a title set by hand, which summarizers keep
 * (ops_title, lib/ops/organize.c).
 */
#include "cmd.h"

static void
say(void *ctx, const char *line)
{
	cmd_error(ctx, "%s", line);
}

static int
title_exec(struct ctx *ctx)
{
	struct ops_title_request rq = { .settings = &ctx->settings,
	    .id = ctx->args.argv[0], .title = ctx->args.argv[1],
	    .dry_run = args_has(&ctx->args, "dry-run"), .say = say,
	    .say_arg = ctx };
	struct ops_title_result res;

	ops_title(&rq, &res);
	return cmd_ops_status(ctx, res.status, &res.error);
}

const struct cmd_entry cmd_title_entry = {
	.name = "title",
	.summary = "set a conversation's title by hand",
	.options = args_title_options,
	.operands = "ID TEXT",
	.operand_help = args_title_operands,
	.min_args = 2, .max_args = 2,
	.exec = title_exec,
};
