/*
 * end.c - `convctl end`: ends the active conversation, then summarizes it
 * with no lock held; the lifecycle and summary rules are lib/'s.
 */
#include <stdlib.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ 0, "no-summary", NULL, "end it without a title or summary", 0 },
	{ 0 },
};

/*
 * The end is written first, with the lock released before any summary is
 * made: a summary that fails leaves the conversation ended, its summary
 * null for summarize --pending, and the exit status 3.
 */
static int
end_exec(struct ctx *ctx)
{
	struct store *st = NULL;
	struct summarize_item job = { .todo = 1 };
	struct summarize_request rq = { .report = cmd_summarize_report };
	struct progress progress = { .ctx = ctx };
	struct summary_config cf;
	struct error e, ce;
	const char *id;
	char *ended = NULL;
	enum summary_setup cfg;
	int64_t now, at;
	long idle;
	int rc, want;

	want = !args_has(&ctx->args, "no-summary");
	cfg = cmd_summary_setup(ctx, &cf, &ce);
	if (cfg == SUMMARY_SETUP_BAD_FLAG)
		return cmd_usage_error(ctx, "%s", ce.msg);
	if (want) {
		/* a bad flag is a usage error; a bad setting must not keep
		 * conversations from ending */
		if (cfg != SUMMARY_SETUP_OK && (args_has(&ctx->args,
		    "summarizer") || args_has(&ctx->args, "model") ||
		    args_has(&ctx->args, "api-base")))
			return cmd_usage_error(ctx, "%s", ce.msg);
		if (cfg == SUMMARY_SETUP_OK && cf.kind == SUMMARY_NONE)
			want = 0;
	}
	if (settings_long(&ctx->settings, SET_IDLE_TIMEOUT, &idle, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	if ((rc = cmd_now(ctx, &now)) != 0 ||
	    (rc = cmd_open(ctx, STORE_WRITE, &st)) != 0)
		goto out;
	switch (conv_end(st, now, (int64_t)idle * 60000, &id, &e)) {
	case END_NOTHING_ACTIVE:
		cmd_error(ctx, "no active conversation");
		want = 0;
		break;
	case END_DONE:
		ended = xstrdup(id);	/* the rolling limit may drop it */
		at = conv_ended(store_find(st, ended));
		if (want && cfg == SUMMARY_SETUP_OK)
			job.job = summary_job_new(store_find(st, ended));
		if ((rc = cmd_commit(ctx, st)) == 0) {
			if (at > now)	/* not when it was idle: that is no skew */
				cmd_skew_warning(ctx, now, at, "ended");
			printf("%s\n", ended);
		} else
			want = 0;
		break;
	case END_FAILED:
		rc = cmd_fail(ctx, &e);
		want = 0;
	}
	store_close(st);	/* no lock is held while summarizing */
	st = NULL;
	if (!want)
		goto out;
	rq.cf = &cf;
	rq.settings = &ctx->settings;
	rq.report_arg = &progress;
	if (cfg != SUMMARY_SETUP_OK) {
		cmd_error(ctx, "no summary: %s", ce.msg);
		rc = EXIT_PARTIAL;
	} else if (summarize_run(&rq, &job, 1) != SUMMARIZE_DONE_ALL)
		rc = EXIT_PARTIAL;
	progress_done(&progress);
	if (rc == EXIT_PARTIAL)
		cmd_error(ctx, "'%s' is ended; its summary is pending (convctl "
		    "summarize --pending)", ended);
out:
	summarize_item_clear(&job);
	free(ended);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_end_entry = {
	.name = "end",
	.summary = "end the active conversation and summarize it",
	.options = options,
	.shared = cmd_summarizer_options,
	.notes = "Prints the id of the conversation ended. Exit status 3: it "
	    "was\nended, but its summary failed (convctl summarize --pending).\n",
	.min_args = 0, .max_args = 0,
	.exec = end_exec,
};
