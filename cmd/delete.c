/*
 * delete.c - `convctl delete`: removes conversations by id through
 * ops_delete() (lib/ops/remove.c) and prints what went; no rule about which
 * may go lives here.
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "force", NULL, "also delete the active conversation", 0),
	OPT('n', "dry-run", NULL, "print what would be deleted, delete nothing", 0),
	OPT(0, "json", NULL, "the ids as a JSON array", 0),
	{ 0 },
};

static void
say(void *ctx, const char *line)
{
	cmd_error(ctx, "%s", line);
}

static int
delete_exec(struct ctx *ctx)
{
	struct ops_delete_request rq = { .settings = &ctx->settings,
	    .ids = ctx->args.argv, .nids = (size_t)ctx->args.argc,
	    .force = args_has(&ctx->args, "force"),
	    .dry_run = args_has(&ctx->args, "dry-run"), .say = say,
	    .say_arg = ctx };
	struct ops_delete_result res;
	struct buf out = { 0 };
	int rc;

	if (ops_delete(&rq, &res) != OPS_DONE)
		return cmd_ops_status(ctx, res.status, &res.error);
	render_ids(&out, res.ids, res.nids, args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	ops_delete_result_free(&res);
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
