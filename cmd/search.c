/*
 * search.c - `convctl search`: query and filters to search_compile() and
 * search_run(), the matching lines printed (coloured as --color says); the
 * matching itself is lib/search/search.c's.
 */
#include <locale.h>

#include "cmd.h"

static int
time_option(struct ctx *ctx, const char *name, int64_t *ms)
{
	const char *v = args_get(&ctx->args, name);

	*ms = -1;
	if (v != NULL && ts_parse(v, ms) < 0)
		return cmd_usage_error(ctx, "--%s expects an ISO 8601 time "
		    "such as 2026-02-04 or 2026-02-04T17:26:40Z, not '%s'", name,
		    v);
	return 0;
}

/* search_render()'s output, to standard output */
static int
print(void *ctx, const char *s, size_t len)
{
	return cmd_print(ctx, s, len);
}

static int
search_exec(struct ctx *ctx)
{
	struct search_request rq = { .role = -1, .since = -1, .until = -1,
	    .max = -1, .tag = args_get(&ctx->args, "tag"),
	    .tool = args_get(&ctx->args, "tool") };
	const char *role = args_get(&ctx->args, "role");
	struct search_result res = { 0 };
	struct search *s = NULL;
	struct store *st = NULL;
	struct buf out = { 0 };
	struct error e;
	enum conv_role r;
	int rc, colour;

	if (role != NULL) {
		if ((rc = cmd_role(ctx, role, &r)) != 0)
			return rc;
		rq.role = (int)r;
	}
	if ((rc = time_option(ctx, "since", &rq.since)) != 0 ||
	    (rc = time_option(ctx, "until", &rq.until)) != 0 ||
	    (args_has(&ctx->args, "n") &&
	    (rc = cmd_row_number(ctx, args_search_options, "n",
	    &rq.max)) != 0) ||
	    (rc = cmd_colour(ctx, &colour)) != 0)
		return rc;
	/* messages are UTF-8 whatever the user's locale: fold case as such */
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	if (search_compile(&s, ctx->args.argv[0], args_has(&ctx->args, "regex"),
	    args_has(&ctx->args, "case-sensitive"), &e) < 0)
		return cmd_usage_error(ctx, "%s", e.msg);
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		goto out;
	if (search_run(st, s, &rq, &res, &e) < 0) {
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	/* the store closed first: the file is no longer mapped while a slow
	 * reader of our output holds us */
	store_close(st);
	st = NULL;
	rc = search_render(&out, &res, args_has(&ctx->args, "json"), colour,
	    cmd_terminal(), print, ctx);
out:
	buf_free(&out);
	search_result_free(&res);
	store_close(st);
	search_free(s);
	return rc;
}

const struct cmd_entry cmd_search_entry = {
	.name = "search",
	.summary = "find messages in every conversation",
	.options = args_search_options,
	.operands = "QUERY",
	.operand_help = args_search_operands,
	.min_args = 1, .max_args = 1,
	.paging = PAGING_READER,
	.exec = search_exec,
};
