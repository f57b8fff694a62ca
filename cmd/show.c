/*
 * show.c - `convctl show`: one conversation (by id, else the active one,
 * else the latest ended) rendered; the formats are lib/render/render.c's.
 */
#include "cmd.h"

/* *c: the named one, else the active one, else the latest ended;
 * EXIT_FAIL (said) when there is none */
static int
pick(struct ctx *ctx, struct store *st, struct conv **c)
{
	const char *id = ctx->args.argc > 0 ? ctx->args.argv[0] : NULL;
	struct error e;
	int rc;

	if (id != NULL) {
		*c = cmd_conv(ctx, st, id, &rc);
		return rc;
	}
	if (conv_default(st, 1, c, &e) < 0)
		return cmd_fail(ctx, &e);
	if (*c == NULL) {
		cmd_error(ctx, "no conversations in '%s'", store_path(st));
		return EXIT_FAIL;
	}
	return 0;
}

static int
show_exec(struct ctx *ctx)
{
	enum format f;
	struct store *st = NULL;
	struct conv *c = NULL;
	struct error e;
	struct buf out = { 0 };
	int rc;

	if ((rc = cmd_format(ctx, FMT_TEXT, FMT_JSON, args_row(
	    args_show_options, "format")->formats, &f)) != 0)
		return rc;
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	if ((rc = pick(ctx, st, &c)) != 0)
		goto out;
	if (render_conv(&out, c, f, cmd_terminal(), &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	rc = cmd_print(ctx, out.data, out.len);
out:
	buf_free(&out);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.summary = "show one conversation",
	.options = args_show_options,
	.operands = "[ID]",
	.operand_help = args_show_operands,
	.min_args = 0, .max_args = 1,
	.paging = PAGING_READER,
	.exec = show_exec,
};
