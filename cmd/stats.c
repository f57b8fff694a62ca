/*
 * stats.c - `convctl stats`: what a store holds at a glance, counted by
 * store_stats() in one pass, laid out by render_stats().
 */
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "ascii", NULL, "draw the weekly chart in ASCII (as when the "
	    "locale is not UTF-8)", 0),
	OPT(0, "json", NULL, "one JSON object: {conversations, messages, bytes, "
	    "oldest, newest, tags, tools, weeks}", 0),
	OPT(0, "since", "TIME", "only conversations started at or after TIME "
	    "(ISO 8601)", 0),
	OPT(0, "tag", "TAG", "only conversations tagged TAG", 0),
	{ 0 },
};

/* the locale's character set (LC_CTYPE from the environment) is UTF-8;
 * the program's own locale is left as it was */
static int
utf8_locale(void)
{
	const char *was = setlocale(LC_CTYPE, NULL);
	char *keep = xstrdup(was != NULL ? was : "C");
	int yes = 0;

	if (setlocale(LC_CTYPE, "") != NULL)
		yes = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	setlocale(LC_CTYPE, keep);
	free(keep);
	return yes;
}

static int
stats_exec(struct ctx *ctx)
{
	struct stats_request rq = { .since = -1 };
	struct store_stats s;
	struct store *st = NULL;
	struct buf out = { 0 };
	struct error e;
	const char *since = args_get(&ctx->args, "since");
	int rc;

	if (since != NULL && ts_parse(since, &rq.since) < 0)
		return cmd_usage_error(ctx, "--since expects an ISO 8601 time "
		    "such as 2026-02-04 or 2026-02-04T17:26:40Z, not '%s'",
		    since);
	rq.tag = args_get(&ctx->args, "tag");
	if ((rc = cmd_now(ctx, &rq.now)) != 0 ||
	    (rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	if (store_stats(st, &rq, &s, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		store_close(st);
		return rc;
	}
	store_close(st);
	render_stats(&out, &s, &rq, args_has(&ctx->args, "json"),
	    args_has(&ctx->args, "ascii") || !utf8_locale());
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	store_stats_free(&s);
	return rc;
}

const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.summary = "what the store holds at a glance",
	.options = options,
	.min_args = 0, .max_args = 0,
	.paging = PAGING_READER,
	.exec = stats_exec,
};
