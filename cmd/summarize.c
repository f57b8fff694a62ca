#include "cmd.h"

static int
summarize_exec(struct ctx *ctx)
{
	cmd_error(ctx, "not built yet");
	return EXIT_FAIL;
}

const struct cmd_entry cmd_summarize_entry = {
	.name = "summarize",
	.summary = "title and summarize ended conversations (not built yet)",
	.usage = "[ID | --pending | --all] [--force] [--dry-run] [--json]",
	.help = "",
	.min_args = 0, .max_args = 1,
	.exec = summarize_exec,
};
