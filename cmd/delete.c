/*
 * delete.c - `convctl delete`: removes conversations by id through
 * conv_delete() and prints what went; no rule about which may go lives here.
 */
#include <stdlib.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "force", NULL, "also delete the active conversation", 0),
	OPT('n', "dry-run", NULL, "print what would be deleted, delete nothing", 0),
	OPT(0, "json", NULL, "the ids as a JSON array", 0),
	{ 0 },
};

static int
delete_exec(struct ctx *ctx)
{
	int dry = args_has(&ctx->args, "dry-run");
	struct store *st = NULL;
	struct error e;
	char **ids = NULL;
	size_t n;
	int rc;

	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		return rc;
	if (conv_delete(st, ctx->args.argv, (size_t)ctx->args.argc,
	    args_has(&ctx->args, "force"), dry, &ids, &n, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	rc = cmd_finish_ids(ctx, st, !dry, ids, n);
out:
	strv_free(ids);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_delete_entry = {
	.name = "delete",
	.summary = "remove conversations for good",
	.options = options,
	.operands = "ID...",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "ID", "a conversation to delete (see recent)", 0),
		{ 0 },
	},
	.min_args = 1, .max_args = -1,
	.exec = delete_exec,
};
