/*
 * prune.c - `convctl prune`: --max and --older-than to one ops_prune()
 * (lib/ops/remove.c), the ids it dropped printed; the rolling limit's rule
 * is lib/'s.
 */
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

/* the progress line cleared before a line of the commit */
static void
say(void *arg, const char *line)
{
	struct progress *prog = arg;

	progress_done(prog);
	cmd_error(prog->ctx, "%s", line);
}

static int
prune_exec(struct ctx *ctx)
{
	struct progress prog;
	struct ops_prune_request rq = { .settings = &ctx->settings,
	    .max_given = args_has(&ctx->args, "max"),
	    .older_than = args_get(&ctx->args, "older-than"),
	    .older_than_name = "--older-than",
	    .dry_run = args_has(&ctx->args, "dry-run"),
	    .progress = progress_cb, .progress_arg = &prog, .say = say,
	    .say_arg = &prog };
	struct ops_prune_result res;
	struct buf out = { 0 };
	long min, max;
	int rc;

	setting_range(SET_MAX_CONVERSATIONS, &min, &max);
	if (rq.max_given &&	/* max_conversations, this once */
	    (rc = cmd_number(ctx, "max", min, max, &rq.max)) != 0)
		return rc;
	/* the total is known inside the library: it starts the line */
	progress_start(&prog, ctx, rq.dry_run ? "would remove" : "removing", 0);
	ops_prune(&rq, &res);
	progress_done(&prog);
	if (res.status != OPS_DONE)
		return cmd_ops_status(ctx, res.status, &res.error);
	render_ids(&out, res.ids, res.nids, args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	ops_prune_result_free(&res);
	return rc;
}

const struct cmd_entry cmd_prune_entry = {
	.name = "prune",
	.summary = "remove the oldest ended conversations",
	.options = options,
	.min_args = 0, .max_args = 0,
	.exec = prune_exec,
};
