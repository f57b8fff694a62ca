/*
 * edit.c - `convctl edit`: one message of any conversation replaced or
 * removed (ops_edit, lib/ops/organize.c); which message MESSAGE names, and
 * the marks, are lib/conv/organize.c's.
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "delete", NULL, "remove the message instead", 0),
	OPT('n', "dry-run", NULL, "check, change nothing", 0),
	{ 0 },
};

static void
say(void *ctx, const char *line)
{
	cmd_error(ctx, "%s", line);
}

static int
edit_exec(struct ctx *ctx)
{
	struct ops_edit_request rq = { .settings = &ctx->settings,
	    .id = ctx->args.argv[0], .message = ctx->args.argv[1],
	    .text_name = "TEXT", .dry_run = args_has(&ctx->args, "dry-run"),
	    .say = say, .say_arg = ctx };
	struct ops_edit_result res;
	struct buf text = { 0 };
	long max;
	int del = args_has(&ctx->args, "delete");
	int rc;

	if (del && ctx->args.argc > 2)
		return cmd_usage_error(ctx, "--delete takes no TEXT");
	if (!del) {
		if ((rc = cmd_limit(ctx, SET_MAX_MESSAGE_BYTES, &max)) != 0 ||
		    (rc = cmd_text(ctx, 2, max, &text)) != 0)
			goto out;
		rq.text = text.data;
		rq.len = text.len;
	}
	ops_edit(&rq, &res);
	rc = cmd_ops_status(ctx, res.status, &res.error);
out:
	buf_free(&text);
	return rc;
}

const struct cmd_entry cmd_edit_entry = {
	.name = "edit",
	.summary = "replace or remove one message",
	.options = options,
	.operands = "ID MESSAGE [TEXT]",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "ID", "the conversation, active or ended", 0),
		OPT(0, NULL, "MESSAGE", "the message's id, or its position: 1 the "
		    "first, -1 the newest", 0),
		OPT(0, NULL, "TEXT", "the new content; default: standard input",
		    0),
		{ 0 },
	},
	.min_args = 2, .max_args = -1,
	.paging = PAGING_STDIN,
	.exec = edit_exec,
};
