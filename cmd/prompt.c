/*
 * prompt.c - `convctl prompt`: the active conversation rendered as context for
 * the next request; the formats are lib/render.c's.
 */
#include "cmd.h"

static const struct cmd_option options[] = {
	{ 'f', "format", "FMT", "text (SmartHole's), markdown, openai (a JSON "
	    "messages array) or jsonl (text)", 0 },
	{ 0, "json", NULL, "the same as --format openai", 0 },
	{ 0, "last", "N", "only the newest N messages", 0 },
	{ 0, "max-tokens", "N", "the newest messages whose estimated tokens fit "
	    "in N (a token per 4 characters)", 0 },
	{ 0 },
};

static int
prompt_exec(struct ctx *ctx)
{
	struct prompt_request rq = { FMT_TEXT, -1, -1 };
	struct store *st = NULL;
	struct buf out = { 0 };
	struct error e;
	int rc;

	if ((rc = cmd_format(ctx, FMT_TEXT, FMT_OPENAI, PROMPT_FORMATS,
	    &rq.format)) != 0)
		return rc;
	if ((args_has(&ctx->args, "last") &&
	    (rc = cmd_number(ctx, "last", 0, 1L << 40, &rq.last)) != 0) ||
	    (args_has(&ctx->args, "max-tokens") &&
	    (rc = cmd_number(ctx, "max-tokens", 0, 1L << 40,
	    &rq.max_tokens)) != 0))
		return rc;
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	if (store_load_active(st, &e) < 0 ||
	    render_prompt(&out, store_active(st), &rq, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	rc = cmd_print(ctx, out.data, out.len);
out:
	buf_free(&out);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_prompt_entry = {
	.name = "prompt",
	.summary = "print the active conversation as context for an LLM",
	.options = options,
	.min_args = 0, .max_args = 0,
	.exec = prompt_exec,
};
