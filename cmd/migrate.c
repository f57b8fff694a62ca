/*
 * migrate.c - `convctl migrate`: options to a migrate_request, one
 * migrate_run(), the report printed; knows no history format itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ 'f', "format", "NAME", "the source's format, instead of telling it "
	    "from the name and content: smarthole, messages, jsonl, chatsidian, "
	    "aiwhisperer, chatgpt, claude, codex, llm, convctl or markdown", 0 },
	{ 'n', "dry-run", NULL, "say what would be imported, change nothing", 0 },
	{ 0, "json", NULL, "the report as one JSON object", 0 },
	{ 0, "rename-conflicts", NULL, "import a conversation whose id is taken "
	    "as ID-2 (ID-3…) instead of failing", 0 },
	{ 0, "skip-bad", NULL, "leave out a bad source, record or line, name "
	    "it on standard error, and import the rest", 0 },
	{ 0, "split", NULL, "cut what is imported into conversations at gaps "
	    "longer than the idle timeout; the pieces after the first are ID-2, "
	    "ID-3…", 0 },
	{ 0, "summarize", NULL, "then title and summarize what was imported (as "
	    "convctl end does); those that fail are left for convctl summarize "
	    "--pending", 0 },
	{ 0 },
};

/* below this many entries an import is quick enough to need no progress line */
#define PROGRESS_MIN 1000

/* the library's progress, one source at a time, onto cmd/progress.c's line */
struct reading {
	struct ctx *ctx;
	struct progress line;
	const char *file;		/* the source the line is about */
	struct buf what;		/* "reading 'FILE'" */
};

static void
reading(void *arg, const char *file, size_t done, size_t total)
{
	struct reading *r = arg;

	if (total < PROGRESS_MIN)
		return;
	if (r->file != file) {
		progress_done(&r->line);
		r->file = file;
		r->what.len = 0;
		buf_addf(&r->what, "reading '%s'", file);
		progress_start(&r->line, r->ctx, r->what.data, total);
	}
	progress_step(&r->line, done);
}

/* what the rolling limit removed, or would; loudest when it was the import */
static void
report_pruned(struct ctx *ctx, struct migrate_result *res, char **ids,
    size_t n, int dry_run)
{
	size_t i, mine = 0;

	for (i = 0; i < n; i++)
		mine += migrate_was_imported(res, ids[i]);
	if (n == 0)
		return;
	cmd_error(ctx, "the rolling limit (max_conversations %s) %s %zu "
	    "conversation%s, %zu of them just imported; see 'convctl prune'",
	    settings_get(&ctx->settings, SET_MAX_CONVERSATIONS),
	    dry_run ? "would remove" : "removed", n, n == 1 ? "" : "s", mine);
	for (i = 0; i < n; i++) {
		fputs("  ", stderr);
		cmd_put_line(stderr, ids[i]);
	}
}

/* before the import is written: it will take the store over the limit */
static void
warn_limit(struct ctx *ctx, struct migrate_result *res, long limit, size_t n,
    char **ids)
{
	struct buf origin = { 0 };
	size_t i, mine = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		mine += migrate_was_imported(res, ids[i]);
	settings_origin(&origin, &ctx->settings, SET_MAX_CONVERSATIONS);
	cmd_error(ctx, "importing %zu conversation%s takes the store past "
	    "max_conversations (%ld, %s): the %zu oldest ended (%zu of them "
	    "imported here) %s removed as it is written; see convctl-prune(1)",
	    migrate_imported(res), migrate_imported(res) == 1 ? "" : "s",
	    limit, origin.data, n, mine, n == 1 ? "is" : "are");
	buf_free(&origin);
}

/* --summarize: the summarizer, checked before anything is read; 0 or status */
static int
summary_setup(struct ctx *ctx, struct summary_config *cf)
{
	const struct cmd_option *o;
	struct error e;

	if (!args_has(&ctx->args, "summarize")) {
		for (o = cmd_summarizer_options; o->name != NULL; o++)
			if (args_has(&ctx->args, o->name))
				return cmd_usage_error(ctx, "--%s goes with "
				    "--summarize", o->name);
		return 0;
	}
	switch (cmd_summary_setup(ctx, cf, &e)) {
	case SUMMARY_SETUP_OK:
		break;
	case SUMMARY_SETUP_BAD_FLAG:
		return cmd_usage_error(ctx, "%s", e.msg);
	case SUMMARY_SETUP_BAD_SETTING:
		return cmd_fail(ctx, &e);
	}
	if (cf->kind == SUMMARY_NONE) {
		cmd_error(ctx, "--summarize, but summaries are turned off (the "
		    "summarizer is 'none'); see --summarizer");
		return EXIT_FAIL;
	}
	return 0;
}

/* summarizes the jobs, and takes them: their slots are left NULL */
static int
summarize_jobs(struct ctx *ctx, const struct summary_config *cf,
    struct summary_job **jobs, size_t n)
{
	struct summarize_request rq = { .cf = cf, .settings = &ctx->settings,
	    .report = cmd_summarize_report };
	struct progress progress = { .ctx = ctx };
	struct summarize_item *items = xmalloc((n + 1) * sizeof(*items));
	size_t i;
	int rc;

	memset(items, 0, (n + 1) * sizeof(*items));
	for (i = 0; i < n; i++) {
		items[i].job = jobs[i];
		items[i].todo = 1;
		jobs[i] = NULL;
	}
	rq.report_arg = &progress;
	rc = cmd_summarize_exit(summarize_run(&rq, items, n));
	progress_done(&progress);
	summarize_items_free(items, n);
	return rc;
}

/* path's bytes, path "-" standard input: read before the store is locked */
static int
read_early(const char *path, size_t max, struct buf *b, struct error *e)
{
	if (strcmp(path, "-") != 0)
		return migrate_read(path, max, b, e);
	if (max == 0)
		return buf_read_fd(b, 0, "standard input", e);
	return buf_read_max(b, 0, "standard input", max, "max_input_bytes", e);
}

/*
 * the request from the options but --format; standard input ("-") or a
 * source that is neither a file nor a directory (a pipe, a device) is read
 * into input now, as it may take forever and the lock is not held yet. 0,
 * or the exit status after saying why
 */
static int
make_request(struct ctx *ctx, struct migrate_request *rq, struct buf *input)
{
	struct error e;
	struct stat sb;
	long max;
	int rc;

	if (lifecycle_idle_timeout(&ctx->settings, &rq->idle_timeout, &e) < 0)
		return cmd_fail(ctx, &e);
	rq->path = ctx->args.argv[0];
	rq->split = args_has(&ctx->args, "split");
	rq->dry_run = args_has(&ctx->args, "dry-run");
	rq->skip_bad = args_has(&ctx->args, "skip-bad");
	rq->rename_conflicts = args_has(&ctx->args, "rename-conflicts");
	if ((rc = cmd_now(ctx, &rq->now)) != 0 ||
	    (rc = cmd_limit(ctx, SET_MAX_INPUT_BYTES, &max)) != 0)
		return rc;
	rq->max_bytes = (size_t)max;
	if (strcmp(rq->path, "-") == 0 || (stat(rq->path, &sb) == 0 &&
	    !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))) {
		if (read_early(rq->path, rq->max_bytes, input, &e) < 0)
			return cmd_fail(ctx, &e);
		rq->data = input->data ? input->data : "";
		rq->len = input->len;
	}
	return 0;
}

/*
 * An import that changed the store: what the rolling limit removes is said
 * before it is written (--dry-run: what it would remove, nothing written).
 * *pruned (strv_free) and *n: the ids removed. 0, or the exit status
 */
static int
commit_import(struct ctx *ctx, struct store *st, struct migrate_result *res,
    int dry_run, char ***pruned, size_t *n)
{
	struct commit_report limit;
	struct error e;

	if (lifecycle_commit_preview(st, &ctx->settings, &limit, &e) < 0)
		return cmd_fail(ctx, &e);
	if (dry_run) {
		*pruned = limit.pruned;
		*n = limit.npruned;
		return 0;
	}
	warn_limit(ctx, res, limit.limit, limit.npruned, limit.pruned);
	strv_free(limit.pruned);
	return cmd_commit_pruned(ctx, st, pruned, n);
}

/* the notes, what the rolling limit removed and the report, printed */
static int
print_report(struct ctx *ctx, struct migrate_result *res, int dry_run,
    char **pruned, size_t npruned)
{
	struct buf out = { 0 };
	const char *note;
	size_t i;
	int rc;

	for (i = 0; (note = migrate_note(res, i)) != NULL; i++)
		cmd_error(ctx, "%s", note);
	report_pruned(ctx, res, pruned, npruned, dry_run);
	migrate_report(&out, res, dry_run, pruned, npruned,
	    args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	return rc;
}

/* --summarize: the conversations imported, summarized with the store
 * (*st) closed first, no lock held; 0 or EXIT_PARTIAL (said) */
static int
summarize_imported(struct ctx *ctx, struct store **st,
    const struct migrate_result *res, const struct summary_config *cf,
    char **pruned, size_t npruned, int dry_run)
{
	struct summary_job **jobs;
	size_t njobs = 0, i;
	int rc = 0;

	jobs = migrate_summary_jobs(*st, res, cf, pruned, npruned, &njobs);
	if (dry_run) {
		cmd_error(ctx, "--dry-run: %zu conversation%s would be summarized "
		    "by the %s summarizer; nothing is sent", njobs,
		    njobs == 1 ? "" : "s", enum_name(summary_kinds, cf->kind));
		goto out;
	}
	store_close(*st);	/* no lock is held while summarizing */
	*st = NULL;
	if (njobs > 0 && summarize_jobs(ctx, cf, jobs, njobs) != EXIT_OK) {
		cmd_error(ctx, "the import stands; 'convctl summarize --pending' "
		    "summarizes those left without a summary, 'convctl summarize "
		    "ID --force' one that kept migrate's");
		rc = EXIT_PARTIAL;
	}
out:
	for (i = 0; i < njobs; i++)
		summary_job_free(jobs[i]);
	free(jobs);
	return rc;
}

static int
migrate_exec(struct ctx *ctx)
{
	struct migrate_request rq = { .format = MIGRATE_DETECT };
	struct reading prog = { .ctx = ctx };
	struct migrate_result *res = NULL;
	struct summary_config cf;
	const char *fmt = args_get(&ctx->args, "format");
	int dry_run = args_has(&ctx->args, "dry-run");
	int summarize = args_has(&ctx->args, "summarize");
	struct store *st = NULL;
	struct buf input = { 0 };
	struct error e;
	char **pruned = NULL;
	size_t npruned = 0;
	int rc;

	if (fmt != NULL && migrate_format_parse(fmt, &rq.format) < 0)
		return cmd_usage_error(ctx, "unknown format '%s' (expected %s)",
		    fmt, migrate_format_list());
	if ((rc = summary_setup(ctx, &cf)) != 0 ||
	    (rc = make_request(ctx, &rq, &input)) != 0)
		goto out;
	rq.progress = reading;
	rq.progress_arg = &prog;
	if ((rc = cmd_open(ctx, dry_run ? STORE_READ : STORE_WRITE, &st)) != 0)
		goto out;
	/* on error the store in memory may hold part of it: it is not saved */
	rc = migrate_run(st, &rq, &res, &e);
	progress_done(&prog.line);
	buf_free(&prog.what);
	if (rc < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	if (migrate_changed(res) && (rc = commit_import(ctx, st, res, dry_run,
	    &pruned, &npruned)) != 0)
		goto out;
	if ((rc = print_report(ctx, res, dry_run, pruned, npruned)) == 0 &&
	    summarize && migrate_changed(res))
		rc = summarize_imported(ctx, &st, res, &cf, pruned, npruned,
		    dry_run);
out:
	buf_free(&input);
	strv_free(pruned);
	migrate_free(res);
	store_close(st);
	return rc;
}

const struct cmd_entry cmd_migrate_entry = {
	.name = "migrate",
	.summary = "import other tools' history into conversations, once",
	.options = options,
	.shared = cmd_summarizer_options,
	.operands = "FILE|DIR|-",
	.operand_help = (const struct cmd_option[]){
		{ 0, NULL, "FILE|DIR", "a file, - for standard input, or a "
		    "directory of NAME.json, NAME.jsonl and SESSION/events.jsonl "
		    "files (and of the directories in it)", 0 },
		{ 0 },
	},
	.notes =
	    "A source imported before (the same SHA-256) is skipped; of one\n"
	    "changed since, conversations imported before are left out and\n"
	    "those grown get their new messages; a message not from the\n"
	    "source (added or edited since) is never taken out, and those of\n"
	    "the source it replaces are named. An empty source is not\n"
	    "recorded. On any error nothing is imported (--skip-bad: the rest\n"
	    "is). The format is told by content: see convctl-migrate(1) for\n"
	    "the order. A progress line is shown on standard\n"
	    "error, when it is a terminal, for sources of 1000 entries or more.\n"
	    "With --summarize, a summary the source gave is kept; exit status\n"
	    "3: imported, but some summaries failed.\n",
	.min_args = 1, .max_args = 1,
	.exec = migrate_exec,
};
