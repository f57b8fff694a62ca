/*
 * title.c - `convctl title`: a title set by hand, which summarizers keep
 * (organize.c marks it; summary.c reads the mark).
 */
#include "cmd.h"

static const struct cmd_option options[] = {
	{ 'n', "dry-run", NULL, "check, change nothing", 0 },
	{ 0 },
};

static int
title_exec(struct ctx *ctx)
{
	int dry = args_has(&ctx->args, "dry-run");
	struct store *st = NULL;
	struct conv *c;
	struct error e;
	int rc;

	/* a typo of the command line, found before the store is opened */
	if (label_check("title", ctx->args.argv[1], TITLE_MAX_CHARS, &e) < 0)
		return cmd_usage_error(ctx, "%s", e.msg);
	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		return rc;
	if ((c = cmd_conv(ctx, st, ctx->args.argv[0], &rc)) == NULL)
		;	/* said */
	else if (conv_set_title(c, ctx->args.argv[1], &e) < 0)
		rc = cmd_fail(ctx, &e);
	else
		rc = dry ? 0 : cmd_commit(ctx, st);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_title_entry = {
	.name = "title",
	.summary = "set a conversation's title by hand",
	.options = options,
	.operands = "ID TEXT",
	.operand_help = (const struct cmd_option[]){
		{ 0, NULL, "ID", "the conversation, active or ended", 0 },
		{ 0, NULL, "TEXT", "its title, one line of at most 500 characters; "
		    "summaries keep it (not summarize --force)", 0 },
		{ 0 },
	},
	.min_args = 2, .max_args = 2,
	.exec = title_exec,
};
