/*
 * recent.c - `convctl recent`: the last N ended conversations, newest first,
 * as lib/render/render.c lays them out.
 */
#include <stdlib.h>

#include "cmd.h"

static int
recent_exec(struct ctx *ctx)
{
	struct store *st = NULL;
	struct conv **ended;
	struct buf out = { 0 };
	struct error e;
	size_t n;
	long limit = 10;
	int rc;

	if (args_has(&ctx->args, "n") &&
	    (rc = cmd_row_number(ctx, args_recent_options, "n",
	    &limit)) != 0)
		return rc;
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	if (conv_recent(st, (size_t)limit, args_get(&ctx->args, "tag"),
	    &ended, &n, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		store_close(st);
		return rc;
	}
	render_recent(&out, ended, n, args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	free(ended);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_recent_entry = {
	.name = "recent",
	.summary = "list ended conversations, newest first",
	.options = args_recent_options,
	.min_args = 0, .max_args = 0,
	.paging = PAGING_READER,
	.exec = recent_exec,
};
