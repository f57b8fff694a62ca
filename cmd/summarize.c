/*
 * summarize.c - titles and summaries for ended conversations.
 *
 * No lock is held while a summarizer works: the conversations are copied
 * from the store opened for reading, the store is closed, each is
 * summarized, and the results are written under the lock only where the
 * conversation is still there and unchanged. Results are written before each
 * request and at the end, so an interrupted --pending run keeps what it made.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ 0, "pending", NULL, "every ended conversation without a summary",
	    OPTF_AMONG_OPERANDS },
	{ 0, "all", NULL, "every ended conversation (those with a summary only "
	    "with --force)", OPTF_AMONG_OPERANDS },
	{ 0, "force", NULL, "redo those that have a summary already", 0 },
	{ 'n', "dry-run", NULL, "print the ids that would be summarized; send "
	    "nothing, change nothing", 0 },
	{ 0, "json", NULL, "report [{id,status,title,summary,error}]; status: "
	    "summarized, would-summarize, skipped, failed, changed or removed",
	    0 },
	{ 0 },
};

struct item {
	struct summary_job *job;
	enum summary_status status;
	int todo;			/* to summarize */
	int unstored;			/* made, not yet written */
	struct summary_result res;
	char *error;
};

struct run {
	struct ctx *ctx;
	const struct summary_config *cf;
	struct item *items;
	size_t n;
	int dry_run;
	struct progress progress;
};

static void
log_line(void *arg, const char *line)
{
	struct ctx *ctx = arg;

	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);	/* over any progress line */
	cmd_error(ctx, "%s", line);
}

int
cmd_summary_config(struct ctx *ctx, struct summary_config *cf,
    struct error *e)
{
	static const struct {
		const char *option;
		enum setting s;
	} flags[] = {
		{ "summarizer", SET_SUMMARIZER },
		{ "model", SET_MODEL },
		{ "api-base", SET_API_BASE },
	};
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (args_has(&ctx->args, flags[i].option))
			settings_set(&ctx->settings, flags[i].s,
			    args_get(&ctx->args, flags[i].option), SRC_FLAG, NULL);
	if (summary_config_load(cf, &ctx->settings, e) < 0)
		return -1;
	if (args_has(&ctx->args, "verbose")) {
		cf->llm.log = log_line;
		cf->llm.log_arg = ctx;
	}
	return 0;
}

static void
fail(struct run *r, struct item *it, enum summary_status st, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

/* marks it as not done, says why on stderr and keeps the words for --json */
static void
fail(struct run *r, struct item *it, enum summary_status st, const char *fmt,
    ...)
{
	struct buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	it->status = st;
	it->unstored = 0;
	free(it->error);
	it->error = buf_detach(&b);
	progress_clear(&r->progress);
	cmd_error(r->ctx, "%s", it->error);
}

/* writes every result made and not yet written, under the lock */
static void
flush(struct run *r)
{
	struct store *st = NULL;
	struct item *it;
	struct error e;
	size_t i, stored = 0;
	int rc;

	for (i = 0; i < r->n && !r->items[i].unstored; i++)
		;
	if (i == r->n)
		return;
	progress_clear(&r->progress);
	if (cmd_open(r->ctx, STORE_WRITE, &st) != 0) {
		for (i = 0; i < r->n; i++)
			if (r->items[i].unstored)
				fail(r, &r->items[i], SUMMARY_FAILED, "summary of "
				    "'%s' not stored: the store cannot be written",
				    summary_job_id(r->items[i].job));
		return;
	}
	for (i = 0; i < r->n; i++) {
		it = &r->items[i];
		if (!it->unstored)
			continue;
		switch (summary_store(st, it->job, &it->res, &e)) {
		case 0:
			it->status = SUMMARY_DONE;
			stored++;
			break;
		case 1:
			fail(r, it, SUMMARY_GONE, "'%s' was removed while it was "
			    "summarized; its summary is dropped",
			    summary_job_id(it->job));
			break;
		case 2:
			fail(r, it, SUMMARY_CHANGED, "'%s' changed while it was "
			    "summarized; its summary is dropped (summarize it "
			    "again)", summary_job_id(it->job));
			break;
		default:
			fail(r, it, SUMMARY_FAILED, "%s", e.msg);
		}
	}
	rc = stored > 0 ? cmd_commit(r->ctx, st) : 0;
	for (i = 0; i < r->n; i++) {
		it = &r->items[i];
		if (!it->unstored)
			continue;
		it->unstored = 0;
		if (rc != 0 && it->status == SUMMARY_DONE)
			fail(r, it, SUMMARY_FAILED, "summary of '%s' not stored: "
			    "the store cannot be written", summary_job_id(it->job));
	}
	store_close(st);
}

/* summarizes the items to do; the exit status */
static int
run(struct run *r)
{
	struct item *it;
	struct error e;
	size_t i, ntodo = 0, k = 0, done = 0, failed = 0;
	int network = r->cf->kind == SUMMARY_OPENAI ||
	    r->cf->kind == SUMMARY_ANTHROPIC;
	char *prompt;

	for (i = 0; i < r->n; i++)
		ntodo += r->items[i].todo;
	progress_start(&r->progress, r->ctx, "summarizing", ntodo);
	for (i = 0; i < r->n; i++) {
		it = &r->items[i];
		if (!it->todo)
			continue;
		/* nothing made is ever waiting while a request is out */
		if (network && !r->dry_run)
			flush(r);
		progress_item(&r->progress, ++k, summary_job_id(it->job));
		if (r->dry_run) {
			it->status = SUMMARY_WOULD;
			if (network && r->cf->llm.log != NULL) {
				prompt = summary_prompt(it->job,
				    r->cf->context_chars);
				progress_clear(&r->progress);
				r->cf->llm.log(r->cf->llm.log_arg, prompt);
				free(prompt);
			}
			continue;
		}
		if (summary_make(r->cf, it->job, &it->res, &e) < 0) {
			fail(r, it, SUMMARY_FAILED, "cannot summarize '%s': %s",
			    summary_job_id(it->job), e.msg);
			continue;
		}
		if (it->res.offline_title && r->cf->llm.log != NULL) {
			progress_clear(&r->progress);
			r->cf->llm.log(r->cf->llm.log_arg, "the reply has no "
			    "TITLE: line; the offline title stands in");
		}
		it->unstored = 1;
	}
	flush(r);
	progress_done(&r->progress);
	if (network)
		llm_cleanup();
	for (i = 0; i < r->n; i++) {
		it = &r->items[i];
		if (!it->todo)
			continue;
		if (it->status == SUMMARY_DONE || it->status == SUMMARY_WOULD)
			done++;
		else
			failed++;
	}
	if (failed == 0)
		return EXIT_OK;
	return done > 0 ? EXIT_PARTIAL : EXIT_FAIL;
}

static void
free_items(struct item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		summary_job_free(items[i].job);
		summary_result_free(&items[i].res);
		free(items[i].error);
	}
	free(items);
}

int
cmd_summarize_jobs(struct ctx *ctx, const struct summary_config *cf,
    struct summary_job *const *jobs, size_t n)
{
	struct run r = { .ctx = ctx, .cf = cf, .n = n };
	size_t i;
	int rc;

	r.items = xmalloc((n + 1) * sizeof(*r.items));
	memset(r.items, 0, (n + 1) * sizeof(*r.items));
	for (i = 0; i < n; i++) {
		r.items[i].job = jobs[i];
		r.items[i].todo = 1;
		r.items[i].status = SUMMARY_FAILED;
	}
	rc = run(&r);
	for (i = 0; i < n; i++)
		r.items[i].job = NULL;	/* the caller's */
	free_items(r.items, n);
	return rc;
}

/* the conversations asked for, copied out of the store; 0 or exit status */
static int
pick(struct ctx *ctx, struct store *st, struct item **out, size_t *nout)
{
	int pending = args_has(&ctx->args, "pending");
	int all = args_has(&ctx->args, "all");
	int force = args_has(&ctx->args, "force");
	struct conv **ended = NULL, *one = NULL, **v;
	struct item *items;
	size_t n, nv, i, k = 0;

	ended = store_ended(st, &n);
	if (ctx->args.argc > 0) {
		if ((one = store_find(st, ctx->args.argv[0])) == NULL) {
			cmd_error(ctx, "no conversation '%s' in '%s'",
			    ctx->args.argv[0], store_path(st));
			free(ended);
			return EXIT_FAIL;
		}
		if (conv_ended(one) < 0) {
			cmd_error(ctx, "'%s' is still active; end it first "
			    "(convctl end)", conv_id(one));
			free(ended);
			return EXIT_FAIL;
		}
	} else if (!pending && !all) {
		if (n == 0) {
			cmd_error(ctx, "no ended conversations in '%s'",
			    store_path(st));
			free(ended);
			return EXIT_FAIL;
		}
		one = ended[0];
	}
	v = one != NULL ? &one : ended;
	nv = one != NULL ? 1 : n;
	items = xmalloc((nv + 1) * sizeof(*items));
	memset(items, 0, (nv + 1) * sizeof(*items));
	for (i = 0; i < nv; i++) {
		if (pending && conv_summary(v[i]) != NULL)
			continue;
		items[k].job = summary_job_new(v[i]);
		items[k].status = SUMMARY_SKIPPED;
		items[k].todo = force || conv_summary(v[i]) == NULL;
		if (!items[k].todo && one != NULL)
			cmd_error(ctx, "'%s' already has a summary; --force "
			    "makes a new one", conv_id(v[i]));
		if (items[k].todo)
			items[k].status = SUMMARY_FAILED;	/* until done */
		k++;
	}
	free(ended);
	*out = items;
	*nout = k;
	return 0;
}

static int
summarize_exec(struct ctx *ctx)
{
	struct run r = { .ctx = ctx };
	struct summary_config cf;
	struct summary_outcome *o = NULL;
	struct store *st = NULL;
	struct buf out = { 0 };
	struct error e;
	const char *kind = args_get(&ctx->args, "summarizer");
	enum summary_kind k;
	size_t i;
	int rc, prc;

	if ((ctx->args.argc > 0) + args_has(&ctx->args, "pending") +
	    args_has(&ctx->args, "all") > 1)
		return cmd_usage_error(ctx, "give one of ID, --pending or --all");
	if (kind != NULL && summary_kind_parse(kind, &k) < 0)
		return cmd_usage_error(ctx, "unknown summarizer '%s' (expected "
		    "openai, anthropic, offline or none)", kind);
	if (cmd_summary_config(ctx, &cf, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		return EXIT_FAIL;
	}
	if (cf.kind == SUMMARY_NONE) {
		cmd_error(ctx, "summaries are turned off (the summarizer is "
		    "'none'); see --summarizer");
		return EXIT_FAIL;
	}
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	rc = pick(ctx, st, &r.items, &r.n);
	store_close(st);	/* before any request */
	if (rc != 0)
		return rc;
	r.cf = &cf;
	r.dry_run = args_has(&ctx->args, "dry-run");
	rc = run(&r);
	o = xmalloc((r.n + 1) * sizeof(*o));
	for (i = 0; i < r.n; i++) {
		o[i].id = summary_job_id(r.items[i].job);
		o[i].status = r.items[i].status;
		o[i].title = r.items[i].status == SUMMARY_DONE ?
		    r.items[i].res.title : NULL;
		o[i].summary = r.items[i].status == SUMMARY_DONE ?
		    r.items[i].res.summary : NULL;
		o[i].error = r.items[i].error;
	}
	summary_render(&out, o, r.n, args_has(&ctx->args, "json"));
	if ((prc = cmd_print(ctx, out.data ? out.data : "", out.len)) != 0)
		rc = prc;
	buf_free(&out);
	free(o);
	free_items(r.items, r.n);
	return rc;
}

const struct cmd_entry cmd_summarize_entry = {
	.name = "summarize",
	.summary = "title and summarize ended conversations",
	.options = options,
	.shared = cmd_summarizer_options,
	.operands = "[ID | --pending | --all]",
	.operand_help = (const struct cmd_option[]){
		{ 0, NULL, "ID", "this ended conversation; default: the one that "
		    "ended last", 0 },
		{ 0 },
	},
	.notes = "Prints ID<TAB>TITLE for each conversation summarized.\n"
	    "Exit status 3: some were summarized, some not.\n",
	.min_args = 0, .max_args = 1,
	.exec = summarize_exec,
};
