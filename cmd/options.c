/*
 * options.c - a command's options from its table: parsing argv, the usage
 * line and the -h text. Knows nothing of what any option means.
 *
 * getopt's rules (clusters such as -nv, a value in the same word or the
 * next, "--" ends the options, "-" is an operand), but a long option is
 * matched only in full: with getopt_long, `show --id X` was taken for
 * --idle-timeout.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define HELP_WIDTH 79		/* -h text is wrapped to fit this */
#define HELP_COLUMN_MAX 24	/* option names longer get a line of their own */

static struct arg_slot *
find_slot(const struct args *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nslot; i++) {
		const struct op_option *o = a->slot[i].opt;

		if (o->name != NULL ? strcmp(o->name, name) == 0 :
		    name[0] == o->key && name[1] == '\0')
			return &a->slot[i];
	}
	return NULL;		/* not an option of this command: never given */
}

int
args_has(const struct args *a, const char *name)
{
	const struct arg_slot *s = find_slot(a, name);

	return s != NULL && s->count > 0;
}

const char *
args_get(const struct args *a, const char *name)
{
	const struct arg_slot *s = find_slot(a, name);

	return s != NULL && s->count > 0 ? s->values[s->count - 1] : NULL;
}

const char *const *
args_all(const struct args *a, const char *name, size_t *n)
{
	const struct arg_slot *s = find_slot(a, name);

	*n = s != NULL ? (size_t)s->count : 0;
	return s != NULL ? s->values : NULL;
}

void
args_free(struct args *a)
{
	size_t i;

	for (i = 0; i < a->nslot; i++)
		free(a->slot[i].values);
	free(a->slot);
	free(a->argv);
	memset(a, 0, sizeof(*a));
}

static void
slot_add(struct arg_slot *s, const char *value)
{
	s->values = xrealloc(s->values, (size_t)(s->count + 1) * sizeof(char *));
	s->values[s->count++] = value;
}

static struct arg_slot *
by_name(struct args *a, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < a->nslot; i++) {
		const char *n = a->slot[i].opt->name;

		if (n != NULL && strlen(n) == len && memcmp(n, name, len) == 0)
			return &a->slot[i];
	}
	return NULL;
}

static struct arg_slot *
by_key(struct args *a, char key)
{
	size_t i;

	for (i = 0; i < a->nslot; i++)
		if (a->slot[i].opt->key == key)
			return &a->slot[i];
	return NULL;
}

static int
is_help(const struct arg_slot *s)
{
	return s->opt->name != NULL && strcmp(s->opt->name, "help") == 0;
}

/* "unknown option '--jsn'; did you mean '--json'?": among this command's */
static int
unknown_option(const struct ctx *ctx, const struct args *a, const char *arg,
    size_t len)
{
	struct buf b = { 0 };
	struct suggest s;
	const char *word;
	size_t i;
	int rc;

	buf_add(&b, arg, len);
	word = b.data != NULL ? b.data : "";
	suggest_start(&s, word);
	for (i = 0; i < a->nslot; i++)
		suggest_try(&s, a->slot[i].opt->name);
	if (s.best != NULL)
		rc = cmd_usage_error(ctx, "unknown option '--%s'; did you mean "
		    "'--%s'?", word, s.best);
	else
		rc = cmd_usage_error(ctx, "unknown option '--%s'", word);
	buf_free(&b);
	return rc;
}

/* --name or --name=value at argv[*i]; 1: --help */
static int
long_option(const struct ctx *ctx, struct args *a, int argc, char **argv,
    int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
	size_t len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
	struct arg_slot *s = by_name(a, arg, len);

	if (s == NULL)
		return unknown_option(ctx, a, arg, len);
	if (s->opt->arg == NULL) {
		if (eq != NULL)
			return cmd_usage_error(ctx, "option '--%s' takes no "
			    "value", s->opt->name);
		if (is_help(s))
			return 1;
		slot_add(s, NULL);
		return 0;
	}
	if (eq != NULL) {
		slot_add(s, eq + 1);
		return 0;
	}
	if (s->opt->flags & OPTF_OPTIONAL) {	/* given, without its value */
		slot_add(s, NULL);
		return 0;
	}
	if (*i + 1 >= argc)
		return cmd_usage_error(ctx, "option '--%s' needs a value",
		    s->opt->name);
	slot_add(s, argv[++*i]);
	return 0;
}

/* -abc, -fVALUE or -f VALUE at argv[*i]; 1: -h */
static int
short_options(const struct ctx *ctx, struct args *a, int argc, char **argv,
    int *i)
{
	const char *p;
	struct arg_slot *s;

	for (p = argv[*i] + 1; *p != '\0'; p++) {
		if ((s = by_key(a, *p)) == NULL)
			return cmd_usage_error(ctx, "unknown option '-%c'", *p);
		if (s->opt->arg == NULL) {
			if (is_help(s))
				return 1;
			slot_add(s, NULL);
			continue;
		}
		if (p[1] != '\0')
			slot_add(s, p + 1);
		else if (*i + 1 < argc)
			slot_add(s, argv[++*i]);
		else
			return cmd_usage_error(ctx, "option '-%c' needs a value",
			    *p);
		break;
	}
	return 0;
}

/* "-" and digits only: a negative number, which no option letter reads as */
static int
negative(const char *arg)
{
	return arg[1] != '\0' && strspn(arg + 1, "0123456789") == strlen(arg + 1);
}

int
options_parse(const struct ctx *ctx, const struct op_option *const *t,
    size_t nt, int first_operand_stops, int argc, char **argv,
    struct args *a)
{
	const struct op_option *o;
	size_t k;
	int i, rc = 0;

	memset(a, 0, sizeof(*a));
	for (k = 0; k < nt; k++)
		for (o = t[k]; o != NULL && (o->key || o->name); o++) {
			a->slot = xrealloc(a->slot, (a->nslot + 1) *
			    sizeof(*a->slot));
			memset(&a->slot[a->nslot], 0, sizeof(*a->slot));
			a->slot[a->nslot++].opt = o;
		}
	a->argv = xmalloc(((size_t)argc + 1) * sizeof(char *));
	for (i = 0; i < argc && rc == 0; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "--") == 0) {
			while (++i < argc)
				a->argv[a->argc++] = argv[i];
			break;
		}
		/* an operand; "-1" too, as no option is a digit: edit ID -1 */
		if (arg[0] != '-' || arg[1] == '\0' || negative(arg)) {
			if (first_operand_stops) {
				while (i < argc)
					a->argv[a->argc++] = argv[i++];
				break;
			}
			a->argv[a->argc++] = argv[i];
			continue;
		}
		if (arg[1] == '-')
			rc = long_option(ctx, a, argc, argv, &i);
		else
			rc = short_options(ctx, a, argc, argv, &i);
	}
	a->argv[a->argc] = NULL;
	return rc;
}

/* usage and help */

static void
usage_option(struct buf *b, const struct op_option *o)
{
	buf_adds(b, " [");
	if (o->key && o->arg != NULL)
		buf_addf(b, "-%c %s", o->key, o->arg);
	else if (o->key && o->name != NULL)
		buf_addf(b, "-%c | --%s", o->key, o->name);
	else if (o->key)
		buf_addf(b, "-%c", o->key);
	else if (o->flags & OPTF_OPTIONAL)
		buf_addf(b, "--%s[=%s]", o->name, o->arg);
	else
		buf_addf(b, "--%s%s%s", o->name, o->arg ? " " : "",
		    o->arg ? o->arg : "");
	buf_addc(b, ']');
	if (o->flags & OPTF_REPEAT)
		buf_adds(b, "...");
}

void
options_usage(struct buf *b, const struct op_option *t)
{
	const struct op_option *o;

	for (o = t; o != NULL && (o->key || o->name); o++)
		if (!(o->flags & OPTF_AMONG_OPERANDS))
			usage_option(b, o);
}

void
cmd_print_usage(FILE *f, const struct cmd_entry *c)
{
	struct buf b = { 0 };

	buf_addf(&b, "usage: convctl %s", c->name);
	options_usage(&b, c->options);
	options_usage(&b, c->shared);
	if (c->operands != NULL && *c->operands != '\0')
		buf_addf(&b, " %s", c->operands);
	fprintf(f, "%s\n", b.data);
	buf_free(&b);
}

/* the error, then the usage line: the caller's own mistake */
int
cmd_usage_error(const struct ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmd_verror(ctx, fmt, ap);
	va_end(ap);
	if (ctx->cmd != NULL)	/* before a command: main.c prints its own */
		cmd_print_usage(stderr, ctx->cmd);
	return EXIT_USAGE;
}

/* "  -f, --format FMT", "      --json", "  ID": the left of a help line */
static void
help_left(struct buf *b, const struct op_option *o)
{
	if (o->key == 0 && o->name == NULL) {	/* an operand */
		buf_addf(b, "  %s", o->arg);
		return;
	}
	if (o->key)
		buf_addf(b, "  -%c%s", o->key, o->name ? ", " : "");
	else
		buf_adds(b, "      ");
	if (o->name != NULL)
		buf_addf(b, "--%s", o->name);
	if (o->arg != NULL)
		buf_addf(b, o->flags & OPTF_OPTIONAL ? "[=%s]" : " %s", o->arg);
}

/* text from column col, words wrapped at HELP_WIDTH; at starts there */
static void
wrap(struct buf *b, const char *text, size_t col, size_t at)
{
	const char *p = text;

	while (*p != '\0') {
		size_t word = strcspn(p, " ");

		if (at > col && at + 1 + word > HELP_WIDTH) {
			buf_addf(b, "\n%*s", (int)col, "");
			at = col;
		} else if (at > col) {
			buf_addc(b, ' ');
			at++;
		}
		buf_add(b, p, word);
		at += word;
		p += word;
		while (*p == ' ')
			p++;
	}
	buf_addc(b, '\n');
}

static void
help_rows(struct buf *b, const struct op_option *o, size_t col)
{
	size_t start;

	for (; o != NULL && (o->key || o->name || o->arg); o++) {
		start = b->len;
		help_left(b, o);
		if (b->len - start + 1 > col) {
			buf_addf(b, "\n%*s", (int)col, "");
		} else
			buf_addf(b, "%*s", (int)(col - (b->len - start)), "");
		wrap(b, o->help, col, col);
	}
}

/* the column the help text starts in: past the longest name that fits */
static size_t
help_column(const struct op_option *o, size_t col)
{
	struct buf b = { 0 };

	for (; o != NULL && (o->key || o->name || o->arg); o++) {
		b.len = 0;
		help_left(&b, o);
		if (b.len + 2 > col && b.len + 2 <= HELP_COLUMN_MAX)
			col = b.len + 2;
	}
	buf_free(&b);
	return col;
}

void
options_print_help(FILE *f, const struct op_option *const *t, size_t nt)
{
	struct buf b = { 0 };
	size_t k, col = 0;

	for (k = 0; k < nt; k++)
		col = help_column(t[k], col);
	for (k = 0; k < nt; k++)
		help_rows(&b, t[k], col);
	fputs(b.data != NULL ? b.data : "", f);
	buf_free(&b);
}
