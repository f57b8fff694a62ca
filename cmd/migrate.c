#include "cmd.h"

static int
migrate_exec(struct ctx *ctx)
{
	cmd_error(ctx, "not built yet");
	return EXIT_FAIL;
}

const struct cmd_entry cmd_migrate_entry = {
	.name = "migrate",
	.summary = "import legacy history into conversations (not built yet)",
	.usage = "[--format NAME] [--dry-run] [--json] FILE|DIR",
	.help = "",
	.min_args = 1, .max_args = 1,
	.exec = migrate_exec,
};
