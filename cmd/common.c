/*
 * common.c - what every command does the same way: report, open, commit, print;
 * no command's own options or rules.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

size_t
cmd_setting_options(struct op_option *out, unsigned flag)
{
	const struct setting_row *r;
	struct buf help;
	size_t i, n = 0;

	for (i = 0; i < SET_COUNT; i++) {
		r = &setting_table[i];
		if (!(r->flags & flag))
			continue;
		help = (struct buf){ 0 };
		buf_adds(&help, r->help);
		if (r->names != NULL) {
			buf_adds(&help, ": ");
			enum_list(&help, r->names);
		}
		if (r->def != NULL)
			buf_addf(&help, " (%s)", r->def);
		out[n++] = (struct op_option)OPT(r->letter, r->flag, r->arg,
		    help.data, 0);
	}
	out[n] = (struct op_option){ 0 };
	return n;
}

struct op_option cmd_summarizer_options[SET_COUNT + 2] = {
	OPT('v', "verbose", NULL, "show each summary request and reply on "
	    "stderr (the API key as [redacted])", 0),
};

void
cmd_summarizer_options_init(void)
{
	cmd_setting_options(cmd_summarizer_options + 1, SETTING_SUMMARY);
}

int
cmd_terminal(void)
{
	return isatty(STDOUT_FILENO) || pager_active();
}

void
cmd_put_line(FILE *f, const char *s)
{
	struct buf b = { 0 };

	buf_add_printable(&b, s);
	buf_addc(&b, '\n');
	fwrite(b.data, 1, b.len, f);
	buf_free(&b);
}

int
cmd_number(const struct ctx *ctx, const char *name, long min, long max,
    long *out)
{
	const char *v = args_get(&ctx->args, name);
	char subject[64], lo[24], hi[24], *end;
	struct error e;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0 || n < min || n > max) {
		snprintf(subject, sizeof(subject), "%s%s", name[1] ? "--" : "-",
		    name);
		snprintf(lo, sizeof(lo), "%ld", min);
		snprintf(hi, sizeof(hi), "%ld", max);
		error_bad_number(&e, subject, 1, lo, hi, v);
		return cmd_usage_error(ctx, "%s", e.msg);
	}
	*out = n;
	return 0;
}

int
cmd_row_number(const struct ctx *ctx, const struct op_option *t,
    const char *name, long *out)
{
	const struct op_option *o = args_row(t, name);

	return cmd_number(ctx, name, o->min, o->max, out);
}

int
cmd_format(const struct ctx *ctx, enum format dflt, enum format json,
    unsigned allowed, enum format *f)
{
	return cmd_format_of(ctx, "format", args_has(&ctx->args, "json") ?
	    json : dflt, allowed, f);
}

int
cmd_format_of(const struct ctx *ctx, const char *option, enum format dflt,
    unsigned allowed, enum format *f)
{
	const char *name = args_get(&ctx->args, option);
	struct buf list = { 0 };
	unsigned i;
	int rc, v;

	*f = dflt;
	if (name == NULL)
		return 0;
	if (enum_parse(render_formats, name, &v) == 0 && (allowed & 1u << v)) {
		*f = (enum format)v;
		return 0;
	}
	/* "text, markdown or json": the allowed names in the enum's order */
	for (i = 0; allowed >> i != 0; i++) {
		if ((allowed & 1u << i) == 0)
			continue;
		buf_addf(&list, "%s%s", list.len == 0 ? "" :
		    allowed >> (i + 1) == 0 ? " or " : ", ",
		    enum_name(render_formats, (int)i));
	}
	rc = cmd_usage_error(ctx, "unknown format '%s' (expected %s)", name,
	    list.data);
	buf_free(&list);
	return rc;
}

int
cmd_open(struct ctx *ctx, enum store_mode mode, struct store **st)
{
	struct error e;
	int rc;

	if ((rc = lifecycle_begin(&ctx->settings, mode, st, &e)) < 0) {
		/* a device, a FIFO, a directory: the wrong thing was named */
		if (rc == -2) {
			cmd_error(ctx, "%s", e.msg);
			if (e.hint != NULL)
				cmd_error(ctx, "%s", e.hint);
			return EXIT_USAGE;
		}
		return cmd_fail(ctx, &e);
	}
	return 0;
}

int
cmd_fail(const struct ctx *ctx, const struct error *e)
{
	cmd_error(ctx, "%s", e->msg);
	if (e->hint != NULL)
		cmd_error(ctx, "%s", e->hint);
	switch (e->kind) {
	case ERROR_UNAVAILABLE:
		return EXIT_UNAVAILABLE;
	case ERROR_TEMPORARY:
		return EXIT_TEMPFAIL;
	case ERROR_FAILED:
		break;
	}
	return EXIT_FAIL;
}

struct conv *
cmd_conv(const struct ctx *ctx, struct store *st, const char *id, int *rc)
{
	struct conv *c;
	struct error e;

	*rc = 0;
	if ((c = store_get(st, id, &e)) == NULL)
		*rc = cmd_fail(ctx, &e);
	return c;
}

static int stdout_reported;	/* cmd_print has said stdout failed */

int
cmd_print(const struct ctx *ctx, const char *s, size_t len)
{
	if (fwrite(s, 1, len, stdout) != len) {
		if (pager_gone(errno))
			return 0;
		if (!stdout_reported)
			cmd_error(ctx, "cannot write to standard output: %s",
			    strerror(errno));
		stdout_reported = 1;
		return EXIT_FAIL;
	}
	return 0;
}

void
cmd_stdout_forget(void)
{
	stdout_reported = 0;
}

int
cmd_stdout_reported(void)
{
	return stdout_reported;
}

int
cmd_now(const struct ctx *ctx, int64_t *ms)
{
	const char *at = args_get(&ctx->args, "at");
	struct error e;

	char ts[TS_LEN], clock[TS_LEN], ahead[DURATION_LEN];
	int64_t now;

	if (at != NULL && ts_parse(at, ms) < 0)
		return cmd_usage_error(ctx, "--at expects an ISO 8601 "
		    "time such as 2026-02-04T17:26:40Z, not '%s'", at);
	if (ts_now(at != NULL ? &now : ms, &e) < 0) {
		return cmd_fail(ctx, &e);
	}
	/* a typo of a year would stay first in recent, escape prune and stamp
	 * every later message (see convctl-add(1)) */
	if (at != NULL && *ms - now > FUTURE_TOLERANCE_MS) {
		ts_format(*ms, ts);
		ts_format(now, clock);
		duration_format(*ms - now, ahead);
		cmd_error(ctx, "--at %s is %s after the clock (%s); a time at "
		    "most 5 minutes ahead is accepted", ts, ahead, clock);
		return EXIT_USAGE;
	}
	return 0;
}

int
cmd_limit(const struct ctx *ctx, enum setting s, long *max)
{
	struct error e;

	if (settings_long(&ctx->settings, s, max, &e) < 0) {
		return cmd_fail(ctx, &e);
	}
	return 0;
}

int
cmd_role(const struct ctx *ctx, const char *s, enum conv_role *r)
{
	struct buf what = { 0 };
	int rc;

	if (role_parse(s, r) == 0)
		return 0;
	role_unknown(&what, s, NULL);
	rc = cmd_usage_error(ctx, "%s", what.data);
	buf_free(&what);
	return rc;
}

void
cmd_skew_warning(const struct ctx *ctx, int64_t clock, int64_t last,
    const char *done)
{
	struct buf b = { 0 };

	ops_skew_line(&b, clock, last, done);
	cmd_error(ctx, "%s", b.data);
	buf_free(&b);
}

int
cmd_text(struct ctx *ctx, int first, long max, struct buf *b)
{
	int i;

	if (ctx->args.argc > first) {
		for (i = first; i < ctx->args.argc; i++) {
			if (i > first)
				buf_addc(b, ' ');
			buf_adds(b, ctx->args.argv[i]);
		}
		return 0;
	}
	if ((i = cmd_stdin_text(ctx, "TEXT", max, b)) != 0)
		return i;
	/* the final newline of what is read from standard input (echo's, a
	 * here-document's) is the reading's, not the message's: the command
	 * line face drops it; a TEXT operand, and the MCP tool's text, are
	 * kept as given */
	b->len = chomp(b->data, b->len);
	b->data[b->len] = '\0';
	return 0;
}

int
cmd_stdin_text(struct ctx *ctx, const char *instead, long max, struct buf *b)
{
	struct error e;

	if (isatty(STDIN_FILENO))
		return cmd_usage_error(ctx, "no %s given and standard input is "
		    "a terminal", instead);
	if (buf_read_max(b, STDIN_FILENO, "standard input", (size_t)max,
	    setting_table[SET_MAX_MESSAGE_BYTES].key, &e) < 0)
		return cmd_fail(ctx, &e);
	return 0;
}

enum { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER };
static const struct name_table colour_whens[] = {
	{ "auto", COLOUR_AUTO }, { "always", COLOUR_ALWAYS },
	{ "never", COLOUR_NEVER }, { NULL, 0 },
};

/* as git and grep: auto colours only for a person at a terminal that can
 * show it and who has not said no (NO_COLOR, https://no-color.org) */
int
cmd_colour(const struct ctx *ctx, int *on)
{
	const char *when = args_get(&ctx->args, "color");
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
	struct buf names = { 0 };
	int w = COLOUR_AUTO, rc;

	if (when != NULL && enum_parse(colour_whens, when, &w) < 0) {
		enum_list(&names, colour_whens);
		rc = cmd_usage_error(ctx, "--color expects %s, not '%s'",
		    names.data, when);
		buf_free(&names);
		return rc;
	}
	if (w == COLOUR_AUTO)
		*on = cmd_terminal() && (no == NULL || *no == '\0') &&
		    term != NULL && *term != '\0' && strcmp(term, "dumb") != 0;
	else
		*on = w == COLOUR_ALWAYS;
	return 0;
}

int
cmd_ops_status(const struct ctx *ctx, enum ops_status status,
    const struct error *e)
{
	switch (status) {
	case OPS_DONE:
	case OPS_PARTIAL:	/* the caller says its lines */
		return status == OPS_DONE ? EXIT_OK : EXIT_PARTIAL;
	case OPS_FAILED:
		return cmd_fail(ctx, e);
	case OPS_BAD_ARG:
		return cmd_usage_error(ctx, "%s", e->msg);
	case OPS_REFUSED:
		cmd_error(ctx, "%s", e->msg);
		return EXIT_USAGE;
	case OPS_BAD_STORE:	/* a device, a FIFO: the wrong thing named */
		cmd_fail(ctx, e);
		return EXIT_USAGE;
	case OPS_CONFLICT:
		cmd_error(ctx, "%s", e->msg);
		return EXIT_CONFLICT;
	}
	return EXIT_FAIL;
}
