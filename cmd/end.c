#include <stdlib.h>

#include "cmd.h"

static const struct option longopts[] = {
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "verbose", no_argument, NULL, 'v' },
	{ "summarizer", required_argument, NULL, OPT_SUMMARIZER },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "api-base", required_argument, NULL, OPT_API_BASE },
	{ NULL, 0, NULL, 0 },
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
	struct summary_job *job = NULL;
	struct summary_config cf;
	struct error e, ce;
	const char *id, *kind = args_get(&ctx->args, OPT_SUMMARIZER);
	char *ended = NULL;
	enum summary_kind k;
	int64_t now, at;
	int rc, want, cfg = 0;

	want = !args_has(&ctx->args, OPT_NO_SUMMARY);
	if (kind != NULL && summary_kind_parse(kind, &k) < 0)
		return cmd_usage_error(ctx, "unknown summarizer '%s' (expected "
		    "openai, anthropic, offline or none)", kind);
	if (want) {
		cfg = cmd_summary_config(ctx, &cf, &ce);
		/* a bad flag is a usage error; a bad setting must not keep
		 * conversations from ending */
		if (cfg < 0 && (kind != NULL || args_has(&ctx->args, OPT_MODEL) ||
		    args_has(&ctx->args, OPT_API_BASE)))
			return cmd_usage_error(ctx, "%s", ce.msg);
		if (cfg == 0 && cf.kind == SUMMARY_NONE)
			want = 0;
	}
	if ((rc = cmd_now(ctx, &now)) != 0 ||
	    (rc = cmd_open(ctx, STORE_WRITE, &st)) != 0)
		goto out;
	switch (conv_end(st, now, &id, &e)) {
	case 1:
		cmd_error(ctx, "no active conversation");
		want = 0;
		break;
	case 0:
		ended = xstrdup(id);	/* the rolling limit may drop it */
		at = conv_ended(store_find(st, ended));
		if (want && cfg == 0)
			job = summary_job_new(store_find(st, ended));
		if ((rc = cmd_commit(ctx, st)) == 0) {
			if (at != now)
				cmd_skew_warning(ctx, now, at, "ended");
			printf("%s\n", ended);
		} else
			want = 0;
		break;
	default:
		cmd_error(ctx, "%s", e.msg);
		rc = EXIT_FAIL;
		want = 0;
	}
	store_close(st);	/* no lock is held while summarizing */
	st = NULL;
	if (!want)
		goto out;
	if (cfg < 0) {
		cmd_error(ctx, "no summary: %s", ce.msg);
		rc = EXIT_PARTIAL;
	} else if (cmd_summarize_jobs(ctx, &cf, &job, 1) != EXIT_OK)
		rc = EXIT_PARTIAL;
	if (rc == EXIT_PARTIAL)
		cmd_error(ctx, "'%s' is ended; its summary is pending (convctl "
		    "summarize --pending)", ended);
out:
	summary_job_free(job);
	free(ended);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_end_entry = {
	.name = "end",
	.summary = "end the active conversation and summarize it",
	.usage = "[--no-summary] [-v | --verbose] [--summarizer NAME] "
	    "[--model NAME] [--api-base URL]",
	.help =
	    "      --no-summary      end it without a title or summary\n"
	    "  -v, --verbose         show the summary request and reply on\n"
	    "                        stderr (the API key as [redacted])\n"
	    "      --summarizer NAME openai, anthropic, offline or none\n"
	    "                        (the summarizer setting)\n"
	    "      --model NAME      the model (the model setting)\n"
	    "      --api-base URL    an OpenAI-compatible API root (api_base)\n"
	    "  Prints the id of the conversation ended. Exit status 3: it was\n"
	    "  ended, but its summary failed (convctl summarize --pending).\n",
	.shortopts = "v",
	.longopts = longopts,
	.min_args = 0, .max_args = 0,
	.exec = end_exec,
};
