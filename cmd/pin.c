/*
 * pin.c - `convctl pin`: conversations the rolling limit and prune never
 * remove (organize.c marks them; lifecycle.c's prune skips them).
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT('n', "dry-run", NULL, "check, change nothing", 0),
	OPT(0, "remove", NULL, "unpin them instead", 0),
	{ 0 },
};

static int
pin_exec(struct ctx *ctx)
{
	int dry = args_has(&ctx->args, "dry-run");
	struct store *st = NULL;
	struct conv *c;
	int i, rc, changed, any = 0;

	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		return rc;
	/* every id checked first: one unknown pins none */
	for (i = 0; i < ctx->args.argc; i++)
		if (cmd_conv(ctx, st, ctx->args.argv[i], &rc) == NULL)
			goto out;
	for (i = 0; i < ctx->args.argc; i++) {
		c = store_find(st, ctx->args.argv[i]);
		conv_pin(c, !args_has(&ctx->args, "remove"), &changed);
		any |= changed;
	}
	if (!dry && any)
		rc = cmd_commit(ctx, st);
out:
	store_close(st);
	return rc;
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
