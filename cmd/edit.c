/*
 * edit.c - `convctl edit`: one message of any conversation replaced or
 * removed; which message MESSAGE names, and the marks, are organize.c's.
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "delete", NULL, "remove the message instead", 0),
	OPT('n', "dry-run", NULL, "check, change nothing", 0),
	{ 0 },
};

static int
edit_exec(struct ctx *ctx)
{
	int dry = args_has(&ctx->args, "dry-run");
	int del = args_has(&ctx->args, "delete");
	struct store *st = NULL;
	struct buf text = { 0 };
	struct conv *c;
	struct error e;
	long i, max;
	int rc;

	if (del && ctx->args.argc > 2)
		return cmd_usage_error(ctx, "--delete takes no TEXT");
	if (!del && ((rc = cmd_limit(ctx, SET_MAX_MESSAGE_BYTES, &max)) != 0 ||
	    (rc = cmd_text(ctx, 2, max, &text)) != 0))
		goto out;
	if (!del && lifecycle_message_size(&ctx->settings, text.len, "TEXT",
	    &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		goto out;
	if ((c = cmd_conv(ctx, st, ctx->args.argv[0], &rc)) == NULL)
		;	/* said */
	else if ((i = conv_message_find(c, ctx->args.argv[1], &e)) < 0 ||
	    conv_edit(c, i, del ? NULL : text.data, text.len, &e) < 0)
		rc = cmd_fail(ctx, &e);
	else
		rc = dry ? 0 : cmd_commit(ctx, st);
out:
	buf_free(&text);
	store_close(st);
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
