#include <stdlib.h>

#include "cmd.h"

static int
end_exec(struct ctx *ctx)
{
	struct store *st = NULL;
	struct error e;
	const char *id;
	char *ended = NULL;
	int64_t now;
	int rc;

	if ((rc = cmd_now(ctx, &now)) != 0 ||
	    (rc = cmd_open(ctx, STORE_WRITE, &st)) != 0)
		goto out;
	switch (conv_end(st, now, &id, &e)) {
	case 1:
		cmd_error(ctx, "no active conversation");
		break;
	case 0:
		ended = xstrdup(id);	/* the rolling limit may drop it */
		if ((rc = cmd_commit(ctx, st)) == 0)
			printf("%s\n", ended);
		break;
	default:
		cmd_error(ctx, "%s", e.msg);
		rc = EXIT_FAIL;
	}
out:
	free(ended);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_end_entry = {
	.name = "end",
	.summary = "end the active conversation",
	.usage = "",
	.help = "",
	.min_args = 0, .max_args = 0,
	.exec = end_exec,
};
