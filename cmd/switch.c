/*
 * switch.c - what resume and fork share: the active conversation is ended
 * as `convctl end` ends it, another made active, one commit, and the one
 * ended summarized after, with no lock held.
 */
#include <stdlib.h>

#include "cmd.h"

int
cmd_switch(struct ctx *ctx, const struct switch_op *op)
{
	int dry = args_has(&ctx->args, "dry-run");
	int want = !args_has(&ctx->args, "no-summary") && !dry;
	struct store *st = NULL;
	struct summarize_item job = { .todo = 1 };
	struct summarize_request rq = { .report = cmd_summarize_report };
	struct progress progress = { .ctx = ctx };
	struct summary_config cf;
	struct error e, ce;
	struct buf out = { 0 };
	const char *id;
	struct conv *made;
	char *ended = NULL;
	enum summary_setup cfg;
	int64_t now;
	long idle;
	int rc;

	cfg = cmd_summary_setup(ctx, &cf, &ce);
	if (cfg == SUMMARY_SETUP_OK && cf.kind == SUMMARY_NONE)
		want = 0;
	if (settings_long(&ctx->settings, SET_IDLE_TIMEOUT, &idle, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		return EXIT_FAIL;
	}
	/* the clock, not cmd_now: fork's --at names a message, not a time */
	if (ts_now(&now, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		return EXIT_FAIL;
	}
	if ((rc = cmd_open(ctx, dry ? STORE_READ : STORE_WRITE, &st)) != 0)
		goto out;
	rc = EXIT_FAIL;
	/* checked before anything ends: a bad ID or MESSAGE ends nothing */
	if (op->check(ctx, st, op->arg) != 0)
		goto out;
	switch (conv_end(st, now, (int64_t)idle * 60000, &id, &e)) {
	case END_FAILED:
		cmd_error(ctx, "%s", e.msg);
		goto out;
	case END_DONE:
		ended = xstrdup(id);
		if (want && cfg == SUMMARY_SETUP_OK)
			job.job = summary_job_new(store_find(st, ended));
		break;
	case END_NOTHING_ACTIVE:
		want = 0;
		break;
	}
	if ((made = op->run(ctx, st, now, op->arg)) == NULL)
		goto out;
	render_switch(&out, made, ended, args_has(&ctx->args, "json"));
	if ((!dry && (rc = cmd_commit(ctx, st)) != 0) ||
	    (rc = cmd_print(ctx, out.data, out.len)) != 0) {
		want = 0;
		goto out;
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
	buf_free(&out);
	free(ended);
	store_close(st);
	return rc;
}
