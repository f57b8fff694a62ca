/*
 * pin.c - `convctl pin`: conversations the rolling limit and prune never
 * remove (ops_pin, lib/ops/organize.c; lib/conv/organize.c marks them,
 * lifecycle.c's prune skips them).
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT('n', "dry-run", NULL, "check, change nothing", 0),
	OPT(0, "remove", NULL, "unpin them instead", 0),
	{ 0 },
};

static void
say(void *ctx, const char *line)
{
	cmd_error(ctx, "%s", line);
}

static int
pin_exec(struct ctx *ctx)
{
	struct ops_pin_request rq = { .settings = &ctx->settings,
	    .ids = ctx->args.argv, .nids = (size_t)ctx->args.argc,
	    .remove = args_has(&ctx->args, "remove"),
	    .dry_run = args_has(&ctx->args, "dry-run"), .say = say,
	    .say_arg = ctx };
	struct ops_pin_result res;

	ops_pin(&rq, &res);
	return cmd_ops_status(ctx, res.status, &res.error);
}

const struct cmd_entry cmd_pin_entry = {
	.name = "pin",
	.summary = "keep conversations from the rolling limit and prune",
	.options = options,
	.operands = "ID...",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "ID", "a conversation, active or ended", 0),
		{ 0 },
	},
	.min_args = 1, .max_args = -1,
	.exec = pin_exec,
};
