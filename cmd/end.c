/*
 * end.c - `convctl end`: ends the active conversation, then summarizes it
 * with no lock held; the lifecycle and summary rules are lib/'s.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ 0, "no-summary", NULL, "end it without a title or summary", 0 },
	{ 0 },
};

/* items[1..] for those conversations, but the one just ended (items[0]); a
 * warning when they cannot be read: the end is what was asked for, and is
 * done */
static void
pending_jobs(struct ctx *ctx, struct store *st, const char *ended,
    struct summarize_item *items, size_t *n)
{
	struct error e;

	if (summarize_pending_window(st, SUMMARIZE_PENDING_WINDOW, ended, items, n,
	    &e) < 0)
		cmd_error(ctx, "warning: %s", e.msg);
}

/* end_write's answer when the end and its local summary could not be
 * written together, nothing written: the end alone is to be tried */
#define END_SUMMARY_UNWRITTEN (-1)

/*
 * Ends the active conversation and writes the store, under the lock; *ended
 * is its id (NULL: none was active). With jobs, items[0] and those after
 * are the summaries to make; with local (a local summarizer's request) they
 * are made here and written with the end, in one write.
 */
static int
end_write(struct ctx *ctx, int64_t now, long idle, int jobs,
    const struct summarize_request *local, struct summarize_item *items,
    size_t *n, char **ended)
{
	struct store *st = NULL;
	struct error e;
	const char *id;
	int64_t at = 0;
	int rc;

	if ((rc = cmd_open(ctx, STORE_WRITE, &st)) != 0)
		return rc;
	switch (conv_end(st, now, (int64_t)idle * 60000, &id, &e)) {
	case END_NOTHING_ACTIVE:
		cmd_error(ctx, "no active conversation");
		if (jobs)
			pending_jobs(ctx, st, NULL, items, n);
		break;
	case END_DONE:
		*ended = xstrdup(id);	/* the rolling limit may drop it */
		at = conv_ended(store_find(st, *ended));
		if (jobs) {
			items[0].job = summary_job_new(store_find(st, *ended));
			pending_jobs(ctx, st, *ended, items, n);
		}
		break;
	case END_FAILED:
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	/* items[0], when nothing was ended, is no job: not to do */
	items[0].todo = items[0].job != NULL;
	if (local != NULL && (*ended != NULL || *n > 1)) {
		/* a store that cannot be written now cannot take the end
		 * alone either: said once */
		if ((rc = summarize_local(st, local, items, *n, &e)) == -2) {
			rc = cmd_fail(ctx, &e);
			goto out;
		}
		if (rc < 0) {
			rc = END_SUMMARY_UNWRITTEN;
			goto out;
		}
	} else if (*ended != NULL && (rc = cmd_commit(ctx, st)) != 0)
		goto out;
	if (*ended != NULL) {
		if (at > now)	/* not when it was idle: that is no skew */
			cmd_skew_warning(ctx, now, at, "ended");
		printf("%s\n", *ended);
	}
out:
	store_close(st);	/* no lock is held while summarizing */
	return rc;
}

/*
 * A local summary's errors, held until end knows whether the end itself was
 * written: when the store cannot be written at all, its error, said once by
 * the end written alone, is the one true line.
 */
struct held {
	struct progress *progress;
	struct buf msgs;	/* each error's text and its NUL */
};

static void
held_report(void *arg, const struct summarize_event *ev)
{
	struct held *h = arg;

	if (ev->kind != SUMMARIZE_ERROR) {
		cmd_summarize_report(h->progress, ev);
		return;
	}
	buf_add(&h->msgs, ev->msg, strlen(ev->msg) + 1);
}

static void
held_say(const struct ctx *ctx, const struct held *h)
{
	size_t at;

	for (at = 0; at < h->msgs.len; at += strlen(h->msgs.data + at) + 1)
		cmd_error(ctx, "%s", h->msgs.data + at);
}

/*
 * A local summary is made under the lock and written with the end, once; a
 * network one is asked for after the end is written and the lock released:
 * a summary that fails leaves the conversation ended, its summary null for
 * summarize --pending, and the exit status 3. So does a write of the end
 * with a local summary that fails: the end is written alone then.
 */
static int
end_exec(struct ctx *ctx)
{
	struct summarize_item items[SUMMARIZE_PENDING_WINDOW + 1];
	struct summarize_request rq = { .report = cmd_summarize_report };
	struct progress progress = { .ctx = ctx };
	struct held held = { &progress, { 0 } };
	struct summary_config cf;
	struct error e, ce;
	char *ended = NULL;
	enum summary_setup cfg;
	int64_t now;
	size_t n = 1, i, none = 1;
	long idle;
	int rc, want, local;

	memset(items, 0, sizeof(items));
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
	if ((rc = cmd_now(ctx, &now)) != 0)
		goto out;
	rq.cf = &cf;
	rq.settings = &ctx->settings;
	rq.report_arg = &progress;
	local = want && cfg == SUMMARY_SETUP_OK && summary_local(&cf);
	if (local) {
		rq.report = held_report;
		rq.report_arg = &held;
	}
	rc = end_write(ctx, now, idle, want && cfg == SUMMARY_SETUP_OK,
	    local ? &rq : NULL, items, &n, &ended);
	if (rc == END_SUMMARY_UNWRITTEN) {
		free(ended);
		ended = NULL;
		rc = end_write(ctx, now, idle, 0, NULL, items, &none, &ended);
		if (rc == 0)	/* else the store's error is said */
			held_say(ctx, &held);
		if (rc == 0 && ended != NULL)
			rc = EXIT_PARTIAL;
		progress_done(&progress);
		goto partial;
	}
	held_say(ctx, &held);
	if (rc != 0)
		want = 0;
	if (!want || (ended == NULL && n == 1))
		goto out;
	if (cfg != SUMMARY_SETUP_OK) {
		cmd_error(ctx, "no summary: %s", ce.msg);
		rc = EXIT_PARTIAL;
	} else {
		if (!local)
			summarize_run(&rq, items, n);
		/* the others failing leave them pending, as they were */
		if (ended != NULL && items[0].status != SUMMARY_DONE)
			rc = EXIT_PARTIAL;
	}
	progress_done(&progress);
partial:
	if (rc == EXIT_PARTIAL)
		cmd_error(ctx, "'%s' is ended; its summary is pending (convctl "
		    "summarize --pending)", ended);
out:
	for (i = 0; i < n; i++)
		summarize_item_clear(&items[i]);
	buf_free(&held.msgs);
	free(ended);
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
