/*
 * resume.c - `convctl resume`: an ended conversation active again, the one
 * active before ended as end ends it (switch.c); the rules are organize.c's.
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT('n', "dry-run", NULL, "print what would be resumed, change nothing",
	    0),
	OPT(0, "json", NULL, "a JSON object {id, ended, forkedFrom}", 0),
	OPT(0, "no-summary", NULL, "end the active one without a title or summary",
	    0),
	{ 0 },
};

/* the conversation to resume, or NULL and *rc (said) */
static struct conv *
find(struct ctx *ctx, struct store *st, int *rc)
{
	struct conv *c = cmd_conv(ctx, st, ctx->args.argv[0], rc);

	if (c != NULL && conv_ended(c) < 0) {
		cmd_error(ctx, "conversation '%s' is already active", conv_id(c));
		*rc = EXIT_FAIL;
		c = NULL;
	}
	return c;
}

static int
check(struct ctx *ctx, struct store *st, void *arg)
{
	int rc;

	(void)arg;
	return find(ctx, st, &rc) != NULL ? 0 : rc;
}

static struct conv *
run(struct ctx *ctx, struct store *st, int64_t now, void *arg)
{
	struct error e;
	int rc;
	struct conv *c = find(ctx, st, &rc);

	(void)arg;
	if (c != NULL && conv_resume(st, c, now, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		return NULL;
	}
	return c;
}

static int
resume_exec(struct ctx *ctx)
{
	const struct switch_op op = { check, run, NULL };

	return cmd_switch(ctx, &op);
}

const struct cmd_entry cmd_resume_entry = {
	.name = "resume",
	.summary = "make an ended conversation active again",
	.options = options,
	.operands = "ID",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "ID", "an ended conversation (see recent)", 0),
		{ 0 },
	},
	.notes = "Prints its id. The active conversation is ended first, as "
	    "end ends it.\nExit status 3: resumed, but the summary of the one "
	    "ended failed.\n",
	.min_args = 1, .max_args = 1,
	.exec = resume_exec,
};
