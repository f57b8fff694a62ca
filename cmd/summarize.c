/*
 * summarize.c - titles and summaries for ended conversations: which ones,
 * from the options; the batch itself is lib/summary/batch.c's summarize_run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "pending", NULL, "every ended conversation without a summary",
	    OPTF_AMONG_OPERANDS),
	OPT(0, "all", NULL, "every ended conversation (those with a summary only "
	    "with --force)", OPTF_AMONG_OPERANDS),
	OPT(0, "force", NULL, "redo those that have a summary already", 0),
	OPT('n', "dry-run", NULL, "print the ids that would be summarized; send "
	    "nothing, change nothing", 0),
	OPT(0, "json", NULL, "report [{id,status,title,summary,error}]; status: "
	    "summarized, would-summarize, skipped, failed, changed or removed",
	    0),
	{ 0 },
};

/* summary_config_resolve with the --summarizer, --model and --api-base
 * flags; with -v the requests and replies go to stderr */
static enum summary_setup
summary_setup(struct ctx *ctx, struct summary_config *cf, struct error *e)
{
	struct summary_flags fl = {
		args_get(&ctx->args, "summarizer"),
		args_get(&ctx->args, "model"),
		args_get(&ctx->args, "api-base"),
	};
	enum summary_setup rc;

	rc = summary_config_resolve(cf, &ctx->settings, &fl, e);
	if (rc == SUMMARY_SETUP_OK && args_has(&ctx->args, "verbose")) {
		cf->llm.log = progress_log_line;
		cf->llm.log_arg = ctx;
	}
	return rc;
}

/* EXIT_OK, EXIT_PARTIAL or EXIT_FAIL */
static int
summarize_exit(enum summarize_outcome o)
{
	switch (o) {
	case SUMMARIZE_DONE_ALL:
		return EXIT_OK;
	case SUMMARIZE_DONE_SOME:
		return EXIT_PARTIAL;
	case SUMMARIZE_AGAIN:
		return EXIT_TEMPFAIL;
	case SUMMARIZE_DONE_NONE:
		break;
	}
	return EXIT_FAIL;
}

/* the conversations asked for, copied out of the store; 0 or exit status */
static int
pick(struct ctx *ctx, struct summarize_item **items, size_t *n)
{
	struct summarize_selection sel = { .which = SUMMARIZE_LATEST };
	struct store *st = NULL;
	struct error e;
	size_t i;
	int rc;

	if (ctx->args.argc > 0) {
		sel.which = SUMMARIZE_ID;
		sel.id = ctx->args.argv[0];
	} else if (args_has(&ctx->args, "pending"))
		sel.which = SUMMARIZE_PENDING;
	else if (args_has(&ctx->args, "all"))
		sel.which = SUMMARIZE_ALL_ENDED;
	sel.force = args_has(&ctx->args, "force");
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	rc = summarize_select(st, &sel, items, n, &e);
	store_close(st);	/* before any request */
	if (rc < 0) {
		return cmd_fail(ctx, &e);
	}
	for (i = 0; sel.which == SUMMARIZE_ID && i < *n; i++)
		if (!(*items)[i].todo)
			cmd_error(ctx, "'%s' already has a summary; --force "
			    "makes a new one", summary_job_id((*items)[i].job));
	return 0;
}

static int
summarize_exec(struct ctx *ctx)
{
	struct summarize_request rq = { .report = cmd_summarize_report };
	struct summarize_item *items = NULL;
	struct summary_config cf;
	struct progress progress = { .ctx = ctx };
	struct buf out = { 0 };
	struct error e;
	size_t n = 0;
	int rc, prc;

	if ((ctx->args.argc > 0) + args_has(&ctx->args, "pending") +
	    args_has(&ctx->args, "all") > 1)
		return cmd_usage_error(ctx, "give one of ID, --pending or --all");
	switch (summary_setup(ctx, &cf, &e)) {
	case SUMMARY_SETUP_OK:
		break;
	case SUMMARY_SETUP_BAD_FLAG:
		return cmd_usage_error(ctx, "%s", e.msg);
	case SUMMARY_SETUP_BAD_SETTING:
		return cmd_fail(ctx, &e);
	}
	if (cf.kind == SUMMARY_NONE) {
		cmd_error(ctx, "summaries are turned off (the summarizer is "
		    "'none'); see --summarizer");
		return EXIT_FAIL;
	}
	if ((rc = pick(ctx, &items, &n)) != 0)
		return rc;
	rq.cf = &cf;
	rq.settings = &ctx->settings;
	rq.dry_run = args_has(&ctx->args, "dry-run");
	rq.report_arg = &progress;
	rc = summarize_exit(summarize_run(&rq, items, n));
	progress_done(&progress);
	summarize_render(&out, items, n, args_has(&ctx->args, "json"));
	if ((prc = cmd_print(ctx, out.data ? out.data : "", out.len)) != 0)
		rc = prc;
	buf_free(&out);
	summarize_items_free(items, n);
	return rc;
}

const struct cmd_entry cmd_summarize_entry = {
	.name = "summarize",
	.summary = "title and summarize ended conversations",
	.options = options,
	.shared = cmd_summarizer_options,
	.operands = "[ID | --pending | --all]",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "ID", "this ended conversation; default: the one that "
		    "ended last", 0),
		{ 0 },
	},
	.notes = "Prints ID<TAB>TITLE for each conversation summarized.\n"
	    "Exit status 3: some were summarized, some not.\n",
	.min_args = 0, .max_args = 1,
	.exec = summarize_exec,
};
