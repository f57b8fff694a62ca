/*
 * search.c - `convctl search`: query and filters to search_compile() and
 * search_run(), the matching lines printed (coloured on a terminal); the
 * matching itself is lib/search.c's.
 */
#include <locale.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"

static const struct option longopts[] = {
	{ "regex", no_argument, NULL, 'E' },
	{ "case-sensitive", no_argument, NULL, OPT_CASE_SENSITIVE },
	{ "role", required_argument, NULL, 'r' },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int
time_option(struct ctx *ctx, int code, const char *name, int64_t *ms)
{
	const char *v = args_get(&ctx->args, code);

	*ms = -1;
	if (v != NULL && ts_parse(v, ms) < 0)
		return cmd_usage_error(ctx, "%s expects an ISO 8601 time such "
		    "as 2026-02-04 or 2026-02-04T17:26:40Z, not '%s'", name, v);
	return 0;
}

/* colour only for a person looking at a terminal who has not said no */
static int
want_colour(void)
{
	const char *no = getenv("NO_COLOR");

	return isatty(STDOUT_FILENO) && (no == NULL || *no == '\0');
}

static int
search_exec(struct ctx *ctx)
{
	struct search_request rq = { .role = -1, .since = -1, .until = -1,
	    .max = -1 };
	const char *role = args_get(&ctx->args, 'r');
	struct search_result res = { 0 };
	struct search *s = NULL;
	struct store *st = NULL;
	struct buf out = { 0 };
	struct error e;
	enum conv_role r;
	int rc;

	if (role != NULL) {
		if (role_parse(role, &r) < 0)
			return cmd_usage_error(ctx, "unknown role '%s' (expected "
			    "user, assistant, system or tool)", role);
		rq.role = (int)r;
	}
	if ((rc = time_option(ctx, OPT_SINCE, "--since", &rq.since)) != 0 ||
	    (rc = time_option(ctx, OPT_UNTIL, "--until", &rq.until)) != 0 ||
	    (args_has(&ctx->args, 'n') &&
	    (rc = cmd_number(ctx, 'n', "-n", 0, 100000000, &rq.max)) != 0))
		return rc;
	/* messages are UTF-8 whatever the user's locale: fold case as such */
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	if (search_compile(&s, ctx->args.argv[0], args_has(&ctx->args, 'E'),
	    args_has(&ctx->args, OPT_CASE_SENSITIVE), &e) < 0)
		return cmd_usage_error(ctx, "%s", e.msg);
	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		goto out;
	if (search_run(st, s, &rq, &res, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		rc = EXIT_FAIL;
		goto out;
	}
	search_render(&out, &res, args_has(&ctx->args, OPT_JSON), want_colour());
	rc = cmd_print(ctx, out.data, out.len);
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
	.usage = "[-E | --regex] [--case-sensitive] [-r ROLE] [--since TIME] "
	    "[--until TIME] [-n N] [--json] QUERY",
	.help =
	    "  -E, --regex        QUERY is a POSIX extended regular expression\n"
	    "      --case-sensitive\n"
	    "                     tell upper from lower case (they match alike)\n"
	    "  -r, --role ROLE    only messages of ROLE: user, assistant,\n"
	    "                     system or tool\n"
	    "      --since TIME   only messages at or after TIME (ISO 8601)\n"
	    "      --until TIME   only messages before TIME\n"
	    "  -n N               only the newest N matching lines\n"
	    "      --json         a JSON array of {id, messageId, timestamp,\n"
	    "                     role, lineNumber, line, match, matches}\n"
	    "  QUERY              text to find in the lines of messages\n",
	.shortopts = "Er:n:",
	.longopts = longopts,
	.min_args = 1, .max_args = 1,
	.exec = search_exec,
};
