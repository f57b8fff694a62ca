/*
 * tag.c - `convctl tag`: tags added to or removed from a conversation's
 * "tags" array (ops_tag, lib/ops/organize.c); prints the tags it has after.
 */
#include "cmd.h"

static void
say(void *ctx, const char *line)
{
	cmd_error(ctx, "%s", line);
}

static int
tag_exec(struct ctx *ctx)
{
	struct ops_tag_request rq = { .settings = &ctx->settings,
	    .id = ctx->args.argv[0], .tags = ctx->args.argv + 1,
	    .ntags = (size_t)ctx->args.argc - 1,
	    .remove = args_has(&ctx->args, "remove"),
	    .dry_run = args_has(&ctx->args, "dry-run"), .say = say,
	    .say_arg = ctx };
	struct ops_tag_result res;
	struct buf out = { 0 };
	int rc;

	if (ops_tag(&rq, &res) != OPS_DONE)
		return cmd_ops_status(ctx, res.status, &res.error);
	render_ids(&out, res.tags, res.ntags, args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	ops_tag_result_free(&res);
	return rc;
}

const struct cmd_entry cmd_tag_entry = {
	.name = "tag",
	.summary = "add tags to a conversation, or remove them",
	.options = args_tag_options,
	.operands = "ID TAG...",
	.operand_help = args_tag_operands,
	.notes = "Prints the conversation's tags after, one a line.\n",
	.min_args = 2, .max_args = -1,
	.exec = tag_exec,
};
