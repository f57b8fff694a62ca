/*
 * migrate.c - `convctl migrate`: options to a migrate_request, one
 * migrate_commit() (lib/migrate/commit.c), the report printed; knows no
 * history format itself.
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
 * the request from the options but --format (its limits and time are
 * migrate_prepare's); standard input ("-") or a source that is neither a
 * file nor a directory (a pipe, a device) is read into input now, as it may
 * take forever and the lock is not held yet. 0, or the exit status after
 * saying why
 */
static int
read_input(struct ctx *ctx, struct migrate_request *rq, struct buf *input)
{
	struct error e;
	struct stat sb;

	if (strcmp(rq->path, "-") == 0 || (stat(rq->path, &sb) == 0 &&
	    !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))) {
		if (read_early(rq->path, rq->max_bytes, input, &e) < 0)
			return cmd_fail(ctx, &e);
		rq->data = input->data ? input->data : "";
		rq->len = input->len;
	}
	return 0;
}

struct importing {
	struct ctx *ctx;
	struct reading prog;
	int dry_run;
	int rc;			/* printing the report: its status */
};

/* before the write: what the rolling limit will remove */
static void
say(void *arg, const char *line)
{
	struct importing *im = arg;

	progress_done(&im->prog.line);
	cmd_error(im->ctx, "%s", line);
}

/* after the write, the lock held: the notes, what the rolling limit
 * removed and the report */
static int
print_report(void *arg, const struct migrate_commit_result *res)
{
	struct importing *im = arg;
	struct buf out = { 0 };
	const char *note;
	size_t i;

	progress_done(&im->prog.line);
	for (i = 0; (note = migrate_note(res->res, i)) != NULL; i++)
		cmd_error(im->ctx, "%s", note);
	report_pruned(im->ctx, res->res, res->pruned, res->npruned,
	    im->dry_run);
	migrate_report(&out, res->res, im->dry_run, res->pruned, res->npruned,
	    args_has(&im->ctx->args, "json"));
	im->rc = cmd_print(im->ctx, out.data, out.len);
	buf_free(&out);
	return im->rc;
}

/* the import is migrate_commit's (lib/migrate/commit.c): under the lock,
 * one commit, the report, the lock released, then --summarize's summaries */
static int
migrate_exec(struct ctx *ctx)
{
	struct migrate_request mrq = { .format = MIGRATE_DETECT,
	    .path = ctx->args.argv[0],
	    .split = args_has(&ctx->args, "split"),
	    .dry_run = args_has(&ctx->args, "dry-run"),
	    .skip_bad = args_has(&ctx->args, "skip-bad"),
	    .rename_conflicts = args_has(&ctx->args, "rename-conflicts") };
	struct importing im = { .ctx = ctx, .prog = { .ctx = ctx },
	    .dry_run = mrq.dry_run };
	struct progress progress = { .ctx = ctx };
	struct migrate_commit_request rq = { .settings = &ctx->settings,
	    .rq = &mrq, .summarize = args_has(&ctx->args, "summarize"),
	    .flags = { args_get(&ctx->args, "summarizer"),
	    args_get(&ctx->args, "model"), args_get(&ctx->args, "api-base") },
	    .say = say, .say_arg = &im, .answered = print_report, .arg = &im,
	    .report = cmd_summarize_report, .report_arg = &progress };
	struct migrate_commit_result res = { 0 };
	const struct op_option *o;
	const char *fmt = args_get(&ctx->args, "format");
	struct buf input = { 0 };
	size_t i;
	int rc;

	if (fmt != NULL && migrate_format_parse(fmt, &mrq.format) < 0)
		return cmd_usage_error(ctx, "unknown format '%s' (expected %s)",
		    fmt, migrate_format_list());
	if (!rq.summarize)
		for (o = cmd_summarizer_options; o->name != NULL; o++)
			if (args_has(&ctx->args, o->name))
				return cmd_usage_error(ctx, "--%s goes with "
				    "--summarize", o->name);
	if (args_has(&ctx->args, "verbose")) {
		rq.llm_log = progress_log_line;
		rq.llm_log_arg = ctx;
	}
	if (migrate_prepare(&rq, &res) != OPS_DONE) {
		rc = cmd_ops_status(ctx, res.status, &res.error);
		goto out;
	}
	if ((rc = read_input(ctx, &mrq, &input)) != 0)
		goto out;
	mrq.progress = reading;
	mrq.progress_arg = &im.prog;
	migrate_commit(&rq, &res);
	progress_done(&im.prog.line);
	progress_done(&progress);
	for (i = 0; res.pending[i] != NULL; i++)
		cmd_error(ctx, "%s", res.pending[i]);
	rc = cmd_ops_status(ctx, res.status, &res.error);
	if (rc == 0)
		rc = im.rc;
	if (rc == 0 && im.dry_run && rq.summarize && !res.unchanged)
		cmd_error(ctx, "--dry-run: %zu conversation%s would be "
		    "summarized by the %s summarizer; nothing is sent",
		    res.njobs, res.njobs == 1 ? "" : "s",
		    enum_name(summary_kinds, res.cf.kind));
out:
	migrate_commit_free(&res);
	buf_free(&input);
	buf_free(&im.prog.what);
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
