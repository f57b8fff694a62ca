/*
 * fork.c - `convctl fork`: a conversation copied, up to a message, into a
 * new active one; the one active before ended as end ends it (switch.c).
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "at", "MESSAGE", "copy up to and including this message: its id, "
	    "or a position (1 the first, -1 the newest; default: all)", 0),
	OPT('n', "dry-run", NULL, "print the id it would have, change nothing",
	    0),
	OPT(0, "json", NULL, "a JSON object {id, ended, forkedFrom}", 0),
	OPT(0, "no-summary", NULL, "end the active one without a title or summary",
	    0),
	{ 0 },
};

/* the source and the index of its last message to copy (-1: none) */
static struct conv *
find(struct ctx *ctx, struct store *st, long *upto, int *rc)
{
	struct conv *c = cmd_conv(ctx, st, ctx->args.argv[0], rc);
	const char *at = args_get(&ctx->args, "at");
	struct error e;

	if (c == NULL)
		return NULL;
	*upto = (long)conv_message_count(c) - 1;
	if (at != NULL && (*upto = conv_message_find(c, at, &e)) < 0) {
		*rc = cmd_fail(ctx, &e);
		return NULL;
	}
	return c;
}

static int
check(struct ctx *ctx, struct store *st, void *arg)
{
	long upto;
	int rc;

	(void)arg;
	return find(ctx, st, &upto, &rc) != NULL ? 0 : rc;
}

static struct conv *
run(struct ctx *ctx, struct store *st, int64_t now, void *arg)
{
	struct conv *src, *c;
	struct error e;
	long upto;
	int rc;

	(void)arg;
	if ((src = find(ctx, st, &upto, &rc)) == NULL)
		return NULL;
	if ((c = conv_fork(st, src, upto, now, &e)) == NULL)
		cmd_error(ctx, "%s", e.msg);
	return c;
}

static int
fork_exec(struct ctx *ctx)
{
	const struct switch_op op = { check, run, NULL };

	return cmd_switch(ctx, &op);
}

const struct cmd_entry cmd_fork_entry = {
	.name = "fork",
	.summary = "copy a conversation into a new active one",
	.options = options,
	.operands = "ID",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "ID", "the conversation to copy, active or ended", 0),
		{ 0 },
	},
	.notes = "Prints the new conversation's id. The active conversation is "
	    "ended first,\nas end ends it. Exit status 3: forked, but the "
	    "summary of the one ended\nfailed.\n",
	.min_args = 1, .max_args = 1,
	.exec = fork_exec,
};
