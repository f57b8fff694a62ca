/*
 * migrate.c - `convctl migrate`: options to a migrate_request, one
 * migrate_run(), the report printed; knows no history format itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT('f', "format", "NAME", "the source's format, instead of telling it "
	    "from the name and content: smarthole, messages, jsonl, chatsidian, "
	    "aiwhisperer, chatgpt, claude, codex, llm, convctl, markdown, "
	    "claudeai, aider or gemini", 0),
	OPT('n', "dry-run", NULL, "say what would be imported, change nothing", 0),
	OPT(0, "json", NULL, "the report as one JSON object", 0),
	OPT(0, "rename-conflicts", NULL, "import a conversation whose id is taken "
	    "as ID-2 (ID-3…) instead of failing", 0),
	OPT(0, "skip-bad", NULL, "leave out a bad source, record or line, name "
	    "it on standard error, and import the rest", 0),
	OPT(0, "split", NULL, "cut what is imported into conversations at gaps "
	    "longer than the idle timeout; the pieces after the first are ID-2, "
	    "ID-3…", 0),
	OPT(0, "summarize", NULL, "then title and summarize what was imported (as "
	    "convctl end does); those that fail are left for convctl summarize "
	    "--pending", 0),
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
	const struct op_option *o;
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

/* the import through lib/ops/ending.c: migrate_run under the lock, one
 * commit, the report, the lock released, then --summarize's summaries */
struct importing {
	struct ctx *ctx;
	struct migrate_request rq;
	struct reading prog;
	struct migrate_result *res;
	const struct summary_config *cf;
	int dry_run;
	char **would;		/* --dry-run: what the rolling limit would
				 * remove (nwould) */
	size_t nwould;
};

/* under the lock: the import; what the rolling limit will remove said
 * before it is written (--dry-run: kept, nothing written) */
static int
import(void *arg, struct store *st, struct ending_result *ending)
{
	struct importing *im = arg;
	struct ctx *ctx = im->ctx;
	struct commit_report limit;
	struct error e;
	int rc;

	/* on error the store in memory may hold part of it: it is not saved */
	rc = migrate_run(st, &im->rq, &im->res, &e);
	progress_done(&im->prog.line);
	if (rc < 0)
		return cmd_fail(ctx, &e);
	if ((ending->unchanged = !migrate_changed(im->res)))
		return 0;
	if (lifecycle_commit_preview(st, &ctx->settings, &limit, &e) < 0)
		return cmd_fail(ctx, &e);
	if (im->dry_run) {
		im->would = limit.pruned;
		im->nwould = limit.npruned;
		return 0;
	}
	warn_limit(ctx, im->res, limit.limit, limit.npruned, limit.pruned);
	strv_free(limit.pruned);
	return 0;
}

/* after the write, the lock held: the report */
static int
imported(void *arg, struct store *st, const struct ending_result *ending)
{
	struct importing *im = arg;

	(void)st;
	if (im->dry_run)
		return print_report(im->ctx, im->res, 1, im->would, im->nwould);
	return print_report(im->ctx, im->res, 0, ending->pruned,
	    ending->npruned);
}

/* --summarize: the conversations imported that want a summary */
static struct summary_job **
to_summarize(void *arg, struct store *st, const struct ending_result *ending,
    size_t *n)
{
	struct importing *im = arg;

	if (im->dry_run)
		return migrate_summary_jobs(st, im->res, im->cf, im->would,
		    im->nwould, n);
	return migrate_summary_jobs(st, im->res, im->cf, ending->pruned,
	    ending->npruned, n);
}

static int
migrate_exec(struct ctx *ctx)
{
	struct importing im = { .ctx = ctx,
	    .rq = { .format = MIGRATE_DETECT }, .prog = { .ctx = ctx } };
	struct ending_request er = { .kind = ENDING_IMPORT, .change = import,
	    .committed = imported, .jobs = to_summarize, .arg = &im };
	struct ending_result ending = { 0 };
	struct summary_config cf;
	const char *fmt = args_get(&ctx->args, "format");
	int summarize = args_has(&ctx->args, "summarize");
	struct buf input = { 0 };
	int rc;

	if (fmt != NULL && migrate_format_parse(fmt, &im.rq.format) < 0)
		return cmd_usage_error(ctx, "unknown format '%s' (expected %s)",
		    fmt, migrate_format_list());
	if ((rc = summary_setup(ctx, &cf)) != 0 ||
	    (rc = make_request(ctx, &im.rq, &input)) != 0)
		goto out;
	im.rq.progress = reading;
	im.rq.progress_arg = &im.prog;
	im.dry_run = er.dry_run = args_has(&ctx->args, "dry-run");
	if (summarize)
		im.cf = er.cf = &cf;
	rc = cmd_ending(ctx, &er, &ending);
	if (rc == 0 && im.dry_run && summarize && !ending.unchanged)
		cmd_error(ctx, "--dry-run: %zu conversation%s would be "
		    "summarized by the %s summarizer; nothing is sent",
		    ending.njobs, ending.njobs == 1 ? "" : "s",
		    enum_name(summary_kinds, cf.kind));
out:
	ending_result_free(&ending);
	buf_free(&input);
	buf_free(&im.prog.what);
	strv_free(im.would);
	migrate_free(im.res);
	return rc;
}

const struct cmd_entry cmd_migrate_entry = {
	.name = "migrate",
	.summary = "import other tools' history into conversations, once",
	.options = options,
	.shared = cmd_summarizer_options,
	.operands = "FILE|DIR|-",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "FILE|DIR", "a file, - for standard input, or a "
		    "directory of NAME.json, NAME.jsonl and SESSION/events.jsonl "
		    "files (and of the directories in it)", 0),
		{ 0 },
	},
	.notes =
	    "A source imported before (the same SHA-256) is skipped; of one\n"
	    "changed since, conversations imported before are left out and\n"
	    "those grown get their new messages (and a title, stored without\n"
	    "one, the one the source has now); a message not from the\n"
	    "source (added or edited since) is never taken out, and those of\n"
	    "the source it replaces are named. An empty source is not\n"
	    "recorded. On any error nothing is imported (--skip-bad: the rest\n"
	    "is). The format is told by content: see convctl-migrate(1) for\n"
	    "the order. A progress line is shown on standard\n"
	    "error, when it is a terminal, for sources of 1000 entries or more.\n"
	    "With --summarize, a summary the source gave is kept; exit status\n"
	    "3: imported, but some summaries failed.\n",
	.min_args = 1, .max_args = 1,
	.paging = PAGING_STDIN,
	.exec = migrate_exec,
};
