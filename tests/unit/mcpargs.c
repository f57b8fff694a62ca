/*
 * mcpargs.c - each MCP tool's inputSchema says what its command's table
 * (lib/args/args.c) says, row by row, and the tool's parsing takes what the
 * schema offers and refuses what it does not: every argument named, typed,
 * ranged and described as its row, in its order, nothing more; a whole
 * number at its bounds taken and past them refused, every enum value taken
 * and another refused, a required one missing refused. The prompt resume
 * the same from its rows: prompts/list's arguments, and its arguments
 * parsed as strings (a whole number's digits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mcp/tools.h"
#include "tap.h"

static char name[160];

static const char *
named(const struct mcp_tool *t, const struct op_option *o, const char *what)
{
	snprintf(name, sizeof(name), "%s: %s: %s", t->name, o->tool, what);
	return name;
}

/* 0 when args parse for t; else the error's text in *err (static) */
static int
parses(const struct mcp_tool *t, json_t *args, const char **err)
{
	static struct buf keep;
	struct mcp_answer a = { { 0 }, NULL, 0 };
	struct tool_args ta;
	int rc = tool_args_parse(t, args, &ta, &a);

	tool_args_free(&ta);
	keep.len = 0;
	buf_adds(&keep, a.text.data != NULL ? a.text.data : "");
	*err = keep.data;
	buf_free(&a.text);
	json_decref(args);
	return rc;
}

/* 0 when args parse for the prompt p (as strings); else -1 and the error
 * in *err (static) */
static int
prompt_parses(const struct mcp_tool *p, json_t *args, const char **err)
{
	static struct buf keep;
	struct mcp_answer a = { { 0 }, NULL, 0 };
	struct tool_args ta;
	int rc = prompt_args_parse(p, args, &ta, &a);

	tool_args_free(&ta);
	keep.len = 0;
	buf_adds(&keep, a.text.data != NULL ? a.text.data : "");
	*err = keep.data;
	buf_free(&a.text);
	json_decref(args);
	return rc;
}

/* prompts/list's arguments of p are its rows, in order; each parses as a
 * string of its type, and nothing else */
static void
check_prompt(const struct mcp_tool *p)
{
	json_t *list = mcp_prompt_arguments(p), *v;
	const struct op_option *o;
	char big[32];
	const char *err;
	size_t i = 0;

	for (o = p->args[0]; !OPT_END(o); o++, i++) {
		v = json_array_get(list, i);
		is_str(json_string_value(json_object_get(v, "name")), o->tool,
		    named(p, o, "a prompt argument, in its row's order"));
		is_str(json_string_value(json_object_get(v, "description")),
		    o->help, named(p, o, "its row's description"));
		ok(json_is_false(json_object_get(v, "required")),
		    named(p, o, "not required"));
		if (o->type == OPT_WHOLE) {
			snprintf(big, sizeof(big), "%ld", o->max);
			ok(prompt_parses(p, json_pack("{s:s}", o->tool, "0"),
			    &err) == 0 && prompt_parses(p, json_pack("{s:s}",
			    o->tool, big), &err) == 0,
			    named(p, o, "its bounds taken, as strings"));
			snprintf(big, sizeof(big), "%ld", o->max + 1);
			ok(prompt_parses(p, json_pack("{s:s}", o->tool, big),
			    &err) < 0 && prompt_parses(p, json_pack("{s:s}",
			    o->tool, "-1"), &err) < 0 &&
			    strncmp(err, "argument '", 10) == 0,
			    named(p, o, "past them refused, naming it"));
			ok(prompt_parses(p, json_pack("{s:i}", o->tool, 1),
			    &err) < 0, named(p, o, "a number not a string "
			    "refused"));
		} else
			ok(prompt_parses(p, json_pack("{s:s}", o->tool, "x"),
			    &err) == 0 && prompt_parses(p, json_pack("{s:i}",
			    o->tool, 1), &err) < 0,
			    named(p, o, "a string taken, a number refused"));
	}
	is_int(json_array_size(list), i, "resume: no other argument");
	ok(prompt_parses(p, json_pack("{s:s}", "bogus", "1"), &err) < 0 &&
	    strcmp(err, "unknown argument 'bogus'") == 0,
	    "resume: an argument no row names is refused");
	json_decref(list);
}

/* the required arguments of t with a value each parses, plus o's = v */
static json_t *
with(const struct mcp_tool *t, const struct op_option *o, json_t *v)
{
	json_t *args = json_object();
	const struct op_option *r;
	size_t k;

	for (k = 0; k < 3; k++)
		for (r = t->args[k]; r != NULL && !OPT_END(r); r++)
			if (r->tool != NULL && (r->flags & OPTF_REQUIRED) &&
			    r != o)
				json_object_set_new(args, r->tool,
				    r->type == OPT_NAMES ? json_pack("[s]",
				    "x") : json_string("x"));
	if (v != NULL)
		json_object_set_new(args, o->tool, v);
	return args;
}

static void
check_row(const struct mcp_tool *t, const struct op_option *o, json_t *p,
    json_t *required)
{
	const char *type = json_string_value(json_object_get(p, "type")), *err;
	json_t *e, *v;
	size_t i, req = 0;
	int r;

	ok(p != NULL, named(t, o, "in the schema"));
	if (p == NULL)
		return;
	is_str(json_string_value(json_object_get(p, "description")),
	    o->tool_help != NULL ? o->tool_help : o->help,
	    named(t, o, "its row's description"));
	json_array_foreach(required, i, v)
		req += strcmp(json_string_value(v), o->tool) == 0;
	is_int(req, (o->flags & OPTF_REQUIRED) != 0,
	    named(t, o, "required as its row says"));
	if (o->flags & OPTF_REQUIRED)
		ok(parses(t, with(t, o, NULL), &err) < 0 &&
		    strstr(err, "missing argument") != NULL,
		    named(t, o, "missing: refused"));
	switch (o->type) {
	case OPT_WHOLE:
		is_str(type, "integer", named(t, o, "an integer"));
		is_int(json_integer_value(json_object_get(p, "minimum")), o->min,
		    named(t, o, "its row's minimum"));
		is_int(json_integer_value(json_object_get(p, "maximum")), o->max,
		    named(t, o, "its row's maximum"));
		ok(parses(t, with(t, o, json_integer(o->min)), &err) == 0 &&
		    parses(t, with(t, o, json_integer(o->max)), &err) == 0,
		    named(t, o, "its bounds taken"));
		ok(parses(t, with(t, o, json_integer(o->max + 1L)), &err) < 0 &&
		    parses(t, with(t, o, json_integer(o->min - 1L)), &err) < 0,
		    named(t, o, "past its bounds refused"));
		break;
	case OPT_BOOL:
		is_str(type, "boolean", named(t, o, "a boolean"));
		ok(parses(t, with(t, o, json_true()), &err) == 0 &&
		    parses(t, with(t, o, json_string("yes")), &err) < 0,
		    named(t, o, "true taken, a string refused"));
		break;
	case OPT_ROLE:
	case OPT_FORMAT:
		is_str(type, "string", named(t, o, "a string"));
		e = json_object_get(p, "enum");
		if (o->type == OPT_ROLE)
			for (r = ROLE_USER, i = 0; r <= ROLE_TOOL; r++, i++)
				is_str(json_string_value(json_array_get(e, i)),
				    role_name((enum conv_role)r),
				    named(t, o, "the roles, in order"));
		else
			for (r = 0, i = 0; r < 32; r++)
				if (o->formats & 1u << r)
					is_str(json_string_value(json_array_get(
					    e, i++)), enum_name(render_formats, r),
					    named(t, o, "its row's formats"));
		is_int(json_array_size(e), i, named(t, o, "no other value"));
		json_array_foreach(e, i, v)
			ok(parses(t, with(t, o, json_incref(v)), &err) == 0,
			    named(t, o, "each value taken"));
		ok(parses(t, with(t, o, json_string("bogus")), &err) < 0,
		    named(t, o, "another refused"));
		break;
	case OPT_NAMES:
		is_str(type, "array", named(t, o, "an array"));
		is_int(json_integer_value(json_object_get(p, "maxItems")), o->max,
		    named(t, o, "its row's most items"));
		is_int(json_integer_value(json_object_get(p, "minItems")), o->min,
		    named(t, o, "its row's fewest items"));
		ok(parses(t, with(t, o, json_array()), &err) == (o->min > 0 ?
		    -1 : 0), named(t, o, "empty refused when a row asks for one"));
		break;
	case OPT_NAME:
		is_str(type, "string", named(t, o, "a string"));
		is_int(json_integer_value(json_object_get(p, "maxLength")), o->max,
		    named(t, o, "its row's most characters"));
		ok(parses(t, with(t, o, json_integer(1)), &err) < 0,
		    named(t, o, "a number refused"));
		break;
	case OPT_TEXT:
	case OPT_TIME:
	case OPT_CURSOR:
		is_str(type, "string", named(t, o, "a string"));
		break;
	case OPT_NONE:
		ok(0, named(t, o, "a tool argument without a type"));
		break;
	}
}

int
main(void)
{
	const struct op_option *o;
	const struct mcp_tool *t;
	json_t *s, *props, *p;
	const char *key, *err, *names[TOOL_ARGS_MAX];
	size_t i, k, rows;

	for (i = 0; i < mcp_ntools; i++) {
		t = &mcp_tools[i];
		s = mcp_tool_schema(t);
		props = json_object_get(s, "properties");
		is_str(json_string_value(json_object_get(s, "type")), "object",
		    t->name);
		ok(json_is_false(json_object_get(s, "additionalProperties")),
		    t->name);
		rows = 0;
		for (k = 0; k < 3; k++)
			for (o = t->args[k]; o != NULL && !OPT_END(o); o++)
				if (o->tool != NULL) {
					check_row(t, o, json_object_get(props,
					    o->tool), json_object_get(s,
					    "required"));
					names[rows++] = o->tool;
				}
		/* those of the rows alone, in the rows' order */
		k = 0;
		json_object_foreach(props, key, p)
			ok(k < rows && strcmp(key, names[k++]) == 0, t->name);
		is_int(json_object_size(props), rows, t->name);
		/* an argument no row names is refused */
		ok(parses(t, json_pack("{s:b}", "bogus", 1), &err) < 0 &&
		    strcmp(err, "unknown argument 'bogus'") == 0, t->name);
		json_decref(s);
	}
	check_prompt(&mcp_prompt_resume);
	return done();
}
