/*
 * copy.c - `convctl copy SRC DST`: a whole store into another, between
 * engines (a file, a PostgreSQL database) or to standard output as a file
 * store's JSON; store_copy() decides what is copied.
 */
#include <string.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT('n', "dry-run", NULL, "say what would be copied, copy nothing", 0),
	{ 0 },
};

/* DST "-": the store as a file would hold it, on standard output */
static int
copy_out(struct ctx *ctx, struct store *src)
{
	struct buf out = { 0 };
	struct error e;
	int rc;

	if (store_text(src, &out, &e) < 0)
		rc = cmd_fail(ctx, &e);
	else
		rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	return rc;
}

static int
copy_exec(struct ctx *ctx)
{
	const char *from = ctx->args.argv[0], *to = ctx->args.argv[1];
	int dry = args_has(&ctx->args, "dry-run");
	struct store *src = NULL, *dst = NULL;
	struct copy_result res;
	struct error e;
	int rc;

	if (lifecycle_open(&ctx->settings, from, STORE_READ, &src, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	if (strcmp(to, "-") == 0) {
		rc = copy_out(ctx, src);
		goto out;
	}
	if (lifecycle_open(&ctx->settings, to, dry ? STORE_READ : STORE_WRITE,
	    &dst, &e) < 0 || store_copy(src, dst, &res, &e) < 0 ||
	    (!dry && store_save(dst, &e) < 0)) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	cmd_error(ctx, "%s %zu conversation%s into '%s'; %zu there already",
	    dry ? "would copy" : "copied", res.copied, res.copied == 1 ? "" :
	    "s", store_path(dst), res.skipped);
	rc = EXIT_OK;
out:
	store_close(dst);
	store_close(src);
	return rc;
}

const struct cmd_entry cmd_copy_entry = {
	.name = "copy",
	.summary = "copy a whole store into another (file, SQLite or PostgreSQL)",
	.options = options,
	.operands = "SRC DST",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "SRC", "a store: a file's path, sqlite:PATH or a postgresql:// URI", 0),
		OPT(0, NULL, "DST", "a store to copy into, or - for standard output", 0),
		{ 0 },
	},
	.min_args = 2, .max_args = 2,
	.exec = copy_exec,
};
