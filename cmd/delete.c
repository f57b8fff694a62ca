/*
 * delete.c - `convctl delete`: removes conversations by id through
 * store_delete() and prints what went; no rule about which may go lives here.
 */
#include <stdlib.h>

#include "cmd.h"

static const struct option longopts[] = {
	{ "force", no_argument, NULL, 'f' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int
delete_exec(struct ctx *ctx)
{
	int dry = args_has(&ctx->args, 'n');
	struct store *st = NULL;
	struct error e;
	char **ids = NULL;
	size_t n;
	int rc;

	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		return rc;
	if (store_delete(st, ctx->args.argv, (size_t)ctx->args.argc,
	    args_has(&ctx->args, 'f'), dry, &ids, &n, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		rc = EXIT_FAIL;
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
	.usage = "[-f | --force] [-n | --dry-run] [--json] ID...",
	.help =
	    "  -f, --force        also delete the active conversation\n"
	    "  -n, --dry-run      print what would be deleted, delete nothing\n"
	    "      --json         the ids as a JSON array\n"
	    "  ID                 a conversation to delete (see recent)\n",
	.shortopts = "fn",
	.longopts = longopts,
	.min_args = 1, .max_args = -1,
	.exec = delete_exec,
};
