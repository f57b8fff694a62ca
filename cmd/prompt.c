/*
 * prompt.c - `convctl prompt`: a conversation (the active one by default)
 * rendered as context for the next request; the formats are lib/render/render.c's.
 */
#include "cmd.h"

static int
prompt_exec(struct ctx *ctx)
{
	struct prompt_request rq = { FMT_TEXT, -1, -1, 0, 0, NULL };
	const char *id = ctx->args.argc > 0 ? ctx->args.argv[0] : NULL;
	struct store *st = NULL;
	struct buf out = { 0 };
	struct conv *c = NULL;
	struct error e;
	int rc;

	if ((rc = cmd_format(ctx, FMT_TEXT, FMT_OPENAI, args_row(
	    args_prompt_options, "format")->formats, &rq.format)) != 0)
		return rc;
	if ((args_has(&ctx->args, "last") &&
	    (rc = cmd_row_number(ctx, args_prompt_options, "last",
	    &rq.last)) != 0) ||
	    (args_has(&ctx->args, "max-tokens") &&
	    (rc = cmd_row_number(ctx, args_prompt_options,
	    "max-tokens", &rq.max_tokens)) != 0))
		return rc;
	rq.terminal = cmd_terminal();
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	if (id != NULL && (c = cmd_conv(ctx, st, id, &rc)) == NULL)
		goto out;
	if (id == NULL && conv_default(st, 0, &c, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	/* nothing active: nothing to say ([] in JSON), and that is no error */
	if (render_prompt(&out, c, &rq, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	if (rq.cut > 0)
		cmd_error(ctx, "the newest message alone is over --max-tokens %ld: "
		    "its first %zu characters are cut", rq.max_tokens, rq.cut);
	rc = cmd_print(ctx, out.data, out.len);
out:
	buf_free(&out);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_prompt_entry = {
	.name = "prompt",
	.summary = "print a conversation as context for an LLM",
	.options = args_prompt_options,
	.operands = "[ID]",
	.operand_help = args_prompt_operands,
	.min_args = 0, .max_args = 1,
	.paging = PAGING_READER,
	.exec = prompt_exec,
};
