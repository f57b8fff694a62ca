/*
 * resume.c - `convctl resume`: an ended conversation active again, the one
 * active before ended as end ends it (switch.c); the rules are
 * lib/ops/switch.c's.
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

static int
resume_exec(struct ctx *ctx)
{
	return cmd_switch(ctx, OPS_RESUME);
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
