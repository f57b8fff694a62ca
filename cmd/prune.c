/*
 * prune.c - `convctl prune`: --max and --older-than to one conv_prune(), the
 * ids it dropped printed; the rolling limit's rule is lib/'s.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "max", "N", "keep at most N ended conversations (the "
	    "max_conversations setting, 1000)", 0),
	OPT(0, "older-than", "DURATION", "also remove those ended more than "
	    "DURATION ago (90s, 45m, 12h, 30d, 2w)", 0),
	OPT('n', "dry-run", NULL, "print what would be removed, remove nothing", 0),
	OPT(0, "json", NULL, "the ids as a JSON array", 0),
	{ 0 },
};

static int
prune_exec(struct ctx *ctx)
{
	struct prune_request rq = { .older_than = -1 };
	const char *age = args_get(&ctx->args, "older-than");
	struct store *st = NULL;
	struct error e;
	struct progress prog;
	char **ids = NULL;
	size_t n;
	int64_t now, span;
	long min, max;
	int rc;

	rq.dry_run = args_has(&ctx->args, "dry-run");
	setting_range(SET_MAX_CONVERSATIONS, &min, &max);
	if (args_has(&ctx->args, "max"))	/* max_conversations, this once */
		rc = cmd_number(ctx, "max", min, max, &rq.max);
	else if (settings_long(&ctx->settings, SET_MAX_CONVERSATIONS, &rq.max,
	    &e) < 0) {
		rc = cmd_fail(ctx, &e);
	} else
		rc = 0;
	if (rc != 0)
		return rc;
	if (age != NULL) {
		if (duration_parse(age, &span) < 0)
			return cmd_usage_error(ctx, "--older-than expects a "
			    "duration such as 90m, 12h, 30d or 2w, not '%s'", age);
		if ((rc = cmd_now(ctx, &now)) != 0)
			return rc;
		rq.older_than = now - span;
	}
	if ((rc = cmd_open(ctx, rq.dry_run ? STORE_READ : STORE_WRITE, &st)) != 0)
		return rc;
	/* the total is known inside the library: it starts the line */
	progress_start(&prog, ctx, rq.dry_run ? "would remove" : "removing", 0);
	rq.progress = progress_cb;
	rq.progress_arg = &prog;
	rc = conv_prune(st, &rq, &ids, &n, &e);
	progress_done(&prog);
	if (rc < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	/* nothing removed: the store is left as it is */
	rc = cmd_finish_ids(ctx, st, !rq.dry_run && n > 0, ids, n);
out:
	strv_free(ids);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_prune_entry = {
	.name = "prune",
	.summary = "remove the oldest ended conversations",
	.options = options,
	.min_args = 0, .max_args = 0,
	.exec = prune_exec,
};
