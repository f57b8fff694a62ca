/*
 * args.c - a tool's arguments from its tables (lib/args/args.h): the
 * inputSchema tools/list gives, and the parsing of a call's arguments,
 * both made from the rows the command line's parser reads too; and a
 * prompt's arguments (prompts/list's and prompts/get's), from its rows, all
 * given as strings. Its errors name the argument: "argument 'NAME'
 * expects WHAT, not V".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

void
mcp_fail(struct mcp_answer *a, const char *fmt, ...)
{
	va_list ap;

	a->text.len = 0;
	va_start(ap, fmt);
	buf_vaddf(&a->text, fmt, ap);
	va_end(ap);
	a->is_error = 1;
}

/* v as JSON for a message, cut short */
static void
shown(struct buf *b, const json_t *v)
{
	struct buf all = { 0 };

	json_dump_buf(&all, v);
	if (all.len > 40)
		buf_addf(b, "%.37s...", all.data);
	else
		buf_add(b, all.data, all.len);
	buf_free(&all);
}

/* an argument of the wrong kind: "argument 'NAME' expects WHAT, not V" */
static int
bad(struct mcp_answer *a, const char *name, const char *what, const json_t *v)
{
	struct buf s = { 0 };

	shown(&s, v);
	mcp_fail(a, "argument '%s' expects %s, not %s", name, what, s.data);
	buf_free(&s);
	return -1;
}

/* each row a tool argument, its tables in order: operands, options, its
 * own (a tool's first argument is what its command takes first) */
#define EACH_ROW(t, k, o) \
	for (k = 0; k < 3; k++) \
		for (o = (t)->args[k]; o != NULL && !OPT_END(o); o++) \
			if (o->tool != NULL)
/* how a call gives its arguments: a tool's as their JSON types, a
 * prompt's all as strings (the protocol's prompt arguments) */
enum given { AS_TYPED, AS_STRINGS };

/* "text, markdown or json": the formats of mask, in their table's order */
static void
format_list(struct buf *b, unsigned mask)
{
	unsigned i;

	for (i = 0; mask >> i != 0; i++)
		if (mask & 1u << i)
			buf_addf(b, "%s%s", b->len == 0 ? "" : mask >> (i + 1) ==
			    0 ? " or " : ", ", enum_name(render_formats, (int)i));
}

/* every argument given is a row's: its whole name (a key may hold a NUL
 * byte, and then is none of them) */
static int
all_known(const struct mcp_tool *t, json_t *args, struct mcp_answer *a)
{
	const struct op_option *o;
	struct buf name = { 0 };
	const char *key;
	size_t len, k;
	json_t *v;

	json_object_keylen_foreach(args, key, len, v) {
		EACH_ROW(t, k, o)
			if (strlen(o->tool) == len && memcmp(key, o->tool, len) ==
			    0)
				goto known;
		buf_adds(&name, "");
		json_escape(&name, key, len);
		mcp_fail(a, "unknown argument '%s'", name.data);
		buf_free(&name);
		return -1;
known:		;
	}
	return 0;
}

/* a string without NUL bytes (json_name(): what it names or chooses is
 * compared whole) */
static int
name_of(const struct op_option *o, json_t *v, const char **s,
    struct mcp_answer *a)
{
	if ((*s = json_name(v)) == NULL)
		return bad(a, o->tool, json_is_text(v) ? "a string without a NUL "
		    "character" : "a string", v);
	return 0;
}

/* "the tag": a row's value name, in lower case, for "at least one tag" */
static void
value_noun(struct buf *b, const struct op_option *o)
{
	const char *p;

	for (p = o->arg != NULL ? o->arg : "item"; *p != '\0'; p++)
		buf_addc(b, *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') :
		    *p);
}

static int
names_of(const struct op_option *o, json_t *v, struct tool_value *tv,
    struct mcp_answer *a)
{
	struct buf noun = { 0 };
	json_t *s;
	size_t i;

	if (!json_is_array(v))
		return bad(a, o->tool, "an array of strings", v);
	json_array_foreach(v, i, s)
		if (json_name(s) == NULL)
			return bad(a, o->tool, json_is_text(s) ? "an array of "
			    "strings without a NUL character" :
			    "an array of strings", v);
	if (json_array_size(v) < (size_t)o->min) {
		value_noun(&noun, o);
		mcp_fail(a, "argument '%s' expects at least one %s", o->tool,
		    noun.data);
		buf_free(&noun);
		return -1;
	}
	tv->v = xmalloc((json_array_size(v) + 1) * sizeof(*tv->v));
	json_array_foreach(v, i, s)
		tv->v[i] = json_name(s);
	tv->v[json_array_size(v)] = NULL;
	tv->nv = json_array_size(v);
	return 0;
}

/* v as o's type says, into tv; a whole number given as a string, as
 * digits */
static int
value_of(const struct op_option *o, json_t *v, enum given as,
    struct tool_value *tv, struct mcp_answer *a)
{
	struct buf what = { 0 };
	enum conv_role r;
	unsigned long at;
	char *end;
	int f, rc = 0;

	switch (o->type) {
	case OPT_NONE:
		break;
	case OPT_NAME:
		return name_of(o, v, &tv->s, a);
	case OPT_TEXT:	/* may hold NUL bytes, as add's standard input may */
		if (!json_is_text(v))
			return bad(a, o->tool, "a string", v);
		tv->s = json_string_value(v);
		tv->len = json_string_length(v);
		return 0;
	case OPT_BOOL:
		if (!json_is_boolean(v))
			return bad(a, o->tool, "true or false", v);
		tv->n = json_is_true(v);
		return 0;
	case OPT_WHOLE:
		if (as == AS_STRINGS) {
			if (name_of(o, v, &tv->s, a) < 0)
				return -1;
			errno = 0;
			if (*tv->s >= '0' && *tv->s <= '9' &&
			    (tv->n = strtol(tv->s, &end, 10)) >= o->min &&
			    tv->n <= o->max && errno == 0 && *end == '\0')
				return 0;
		} else if (json_is_integer(v) &&
		    json_integer_value(v) >= o->min &&
		    json_integer_value(v) <= o->max) {
			tv->n = (long)json_integer_value(v);
			return 0;
		}
		buf_addf(&what, "a whole number from %ld to %ld", o->min,
		    o->max);
		break;
	case OPT_TIME:
		if (name_of(o, v, &tv->s, a) < 0)
			return -1;
		if (ts_parse(tv->s, &tv->ms) == 0)
			return 0;
		buf_adds(&what, "an ISO 8601 time such as 2026-02-04 or "
		    "2026-02-04T17:26:40Z");
		break;
	case OPT_ROLE:
		if (name_of(o, v, &tv->s, a) < 0)
			return -1;
		if (role_parse(tv->s, &r) == 0) {
			tv->n = (long)r;
			return 0;
		}
		/* in the words of the command line's -r */
		role_unknown(&what, tv->s, NULL);
		mcp_fail(a, "argument '%s': %s", o->tool, what.data);
		buf_free(&what);
		return -1;
	case OPT_FORMAT:
		if (name_of(o, v, &tv->s, a) < 0)
			return -1;
		if (enum_parse(render_formats, tv->s, &f) == 0 &&
		    (o->formats & 1u << f)) {
			tv->n = f;
			return 0;
		}
		/* in the words of the command line's --format */
		format_list(&what, o->formats);
		mcp_fail(a, "argument '%s': unknown format '%s' (expected %s)",
		    o->tool, tv->s, what.data);
		buf_free(&what);
		return -1;
	case OPT_NAMES:
		return names_of(o, v, tv, a);
	case OPT_CURSOR:	/* the position in its list where the page starts */
		if (name_of(o, v, &tv->s, a) < 0)
			return -1;
		if (*tv->s >= '0' && *tv->s <= '9' &&
		    (at = strtoul(tv->s, &end, 10)) <= RESULTS_MAX &&
		    *end == '\0') {
			tv->n = (long)at;
			return 0;
		}
		buf_adds(&what, "a nextCursor this tool answered");
		break;
	}
	if (what.data != NULL)
		rc = bad(a, o->tool, what.data, v);
	buf_free(&what);
	return rc;
}

/* args parsed by t's rows, given as as says */
static int
parse(const struct mcp_tool *t, json_t *args, enum given as,
    struct tool_args *ta, struct mcp_answer *a)
{
	const struct op_option *o;
	struct tool_value *tv;
	json_t *v;
	size_t k;

	memset(ta, 0, sizeof(*ta));
	if (all_known(t, args, a) < 0)
		return -1;
	EACH_ROW(t, k, o) {
		if (ta->n == TOOL_ARGS_MAX)
			abort();	/* a table in lib/args/args.c too long */
		tv = &ta->v[ta->n++];
		tv->row = o;
		if ((v = json_object_get(args, o->tool)) == NULL) {
			if (o->flags & OPTF_REQUIRED) {
				mcp_fail(a, "missing argument '%s'", o->tool);
				return -1;
			}
			continue;
		}
		tv->given = 1;
		if (value_of(o, v, as, tv, a) < 0)
			return -1;
	}
	return 0;
}

int
tool_args_parse(const struct mcp_tool *t, json_t *args, struct tool_args *ta,
    struct mcp_answer *a)
{
	return parse(t, args, AS_TYPED, ta, a);
}

int
prompt_args_parse(const struct mcp_tool *p, json_t *args,
    struct tool_args *ta, struct mcp_answer *a)
{
	return parse(p, args, AS_STRINGS, ta, a);
}

json_t *
mcp_prompt_arguments(const struct mcp_tool *p)
{
	json_t *list = json_array();
	const struct op_option *o;
	size_t k;

	EACH_ROW(p, k, o)
		json_array_append_new(list, json_pack("{s:s, s:s, s:b}",
		    "name", o->tool, "description", o->tool_help != NULL ?
		    o->tool_help : o->help, "required",
		    (o->flags & OPTF_REQUIRED) != 0));
	return list;
}

void
tool_args_free(struct tool_args *ta)
{
	size_t i;

	for (i = 0; i < ta->n; i++)
		free(ta->v[i].v);
	memset(ta, 0, sizeof(*ta));
}

const struct tool_value *
tool_arg(const struct tool_args *ta, const char *name)
{
	size_t i;

	for (i = 0; i < ta->n; i++)
		if (strcmp(ta->v[i].row->tool, name) == 0)
			return ta->v[i].given ? &ta->v[i] : NULL;
	abort();	/* no row of the tool's tables has that name */
}

const char *
tool_str(const struct tool_args *ta, const char *name)
{
	const struct tool_value *tv = tool_arg(ta, name);

	return tv != NULL ? tv->s : NULL;
}

long
tool_long(const struct tool_args *ta, const char *name, long dflt)
{
	const struct tool_value *tv = tool_arg(ta, name);

	return tv != NULL ? tv->n : dflt;
}

/* a row's JSON Schema */
static json_t *
row_schema(const struct op_option *o)
{
	json_t *p = json_object(), *e;
	unsigned i;
	int r;

	switch (o->type) {
	case OPT_BOOL:
		json_object_set_new(p, "type", json_string("boolean"));
		break;
	case OPT_WHOLE:
		json_object_set_new(p, "type", json_string("integer"));
		json_object_set_new(p, "minimum", json_integer(o->min));
		json_object_set_new(p, "maximum", json_integer(o->max));
		break;
	case OPT_NAMES:
		json_object_set_new(p, "type", json_string("array"));
		json_object_set_new(p, "items", json_pack("{s:s}", "type",
		    "string"));
		if (o->min > 0)
			json_object_set_new(p, "minItems", json_integer(o->min));
		if (o->max > 0)
			json_object_set_new(p, "maxItems", json_integer(o->max));
		break;
	case OPT_ROLE:
	case OPT_FORMAT:
		json_object_set_new(p, "type", json_string("string"));
		e = json_array();
		if (o->type == OPT_ROLE)
			for (r = ROLE_USER; r <= ROLE_TOOL; r++)
				json_array_append_new(e, json_string(role_name(
				    (enum conv_role)r)));
		else
			for (i = 0; o->formats >> i != 0; i++)
				if (o->formats & 1u << i)
					json_array_append_new(e, json_string(
					    enum_name(render_formats, (int)i)));
		json_object_set_new(p, "enum", e);
		break;
	case OPT_NAME:
		json_object_set_new(p, "type", json_string("string"));
		if (o->max > 0)
			json_object_set_new(p, "maxLength", json_integer(o->max));
		break;
	case OPT_NONE:
	case OPT_TEXT:
	case OPT_TIME:
	case OPT_CURSOR:
		json_object_set_new(p, "type", json_string("string"));
		break;
	}
	json_object_set_new(p, "description", json_string(o->tool_help != NULL ?
	    o->tool_help : o->help));
	return p;
}

json_t *
mcp_tool_schema(const struct mcp_tool *t)
{
	json_t *props = json_object(), *req = json_array();
	const struct op_option *o;
	size_t k;

	EACH_ROW(t, k, o) {
		json_object_set_new(props, o->tool, row_schema(o));
		if (o->flags & OPTF_REQUIRED)
			json_array_append_new(req, json_string(o->tool));
	}
	return json_pack("{s:s, s:o, s:o, s:b}", "type", "object",
	    "properties", props, "required", req, "additionalProperties", 0);
}

void
mcp_tool_call(const struct mcp_tool *t, const struct mcp_config *cf,
    json_t *args, struct mcp_answer *a)
{
	struct tool_args ta;

	if (tool_args_parse(t, args, &ta, a) == 0)
		t->call(cf, &ta, a);
	tool_args_free(&ta);
}
