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

static int
fork_exec(struct ctx *ctx)
{
	return cmd_switch(ctx, OPS_FORK);
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
