/*
 * tag.c - `convctl tag`: tags added to or removed from a conversation's
 * "tags" array (organize.c); prints the tags it has after.
 */
#include "cmd.h"

static const struct cmd_option options[] = {
	{ 'n', "dry-run", NULL, "print the tags it would have, change nothing",
	    0 },
	{ 0, "json", NULL, "the tags as a JSON array", 0 },
	{ 0, "remove", NULL, "remove the tags instead", 0 },
	{ 0 },
};

static int
tag_exec(struct ctx *ctx)
{
	int dry = args_has(&ctx->args, "dry-run");
	struct store *st = NULL;
	struct buf out = { 0 };
	struct conv *c;
	struct error e;
	int rc, changed;

	/* a typo of the command line, found before the store is opened */
	if (tags_check(ctx->args.argv + 1, (size_t)ctx->args.argc - 1, &e) < 0)
		return cmd_usage_error(ctx, "%s", e.msg);
	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		return rc;
	if ((c = cmd_conv(ctx, st, ctx->args.argv[0], &rc)) == NULL)
		goto out;
	rc = EXIT_FAIL;
	if (conv_tag(c, ctx->args.argv + 1, (size_t)ctx->args.argc - 1,
	    args_has(&ctx->args, "remove"), &changed, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		goto out;
	}
	if (!dry && changed && (rc = cmd_commit(ctx, st)) != 0)
		goto out;
	render_tags(&out, c, args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
out:
	buf_free(&out);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_tag_entry = {
	.name = "tag",
	.summary = "add tags to a conversation, or remove them",
	.options = options,
	.operands = "ID TAG...",
	.operand_help = (const struct cmd_option[]){
		{ 0, NULL, "ID", "the conversation, active or ended", 0 },
		{ 0, NULL, "TAG", "a tag, one line of at most "
		    NUM_TEXT(TAG_MAX_CHARS) " characters; at most "
		    NUM_TEXT(TAGS_MAX) " a call, and on a conversation", 0 },
		{ 0 },
	},
	.notes = "Prints the conversation's tags after, one a line.\n",
	.min_args = 2, .max_args = -1,
	.exec = tag_exec,
};
