/*
 * args.h - an operation's arguments, declared once for both faces: each
 * row is a command line option (or an operand, shown in -h) and, when it
 * names a tool argument, that MCP argument too: its type, range, enum and
 * description. cmd/options.c makes the parser, the usage line and -h from
 * the rows; lib/mcp/tools.c makes each tool's inputSchema and parses its
 * JSON arguments from the same rows. The tables of the commands `convctl
 * mcp` offers are in args.c.
 */
#ifndef CONVCTL_ARGS_H
#define CONVCTL_ARGS_H

/* what a tool argument holds */
enum op_type {
	OPT_NONE,		/* the command line's alone: no tool argument */
	OPT_NAME,		/* a string without a NUL character (what it
				 * names is compared whole); max: its most
				 * characters, 0 no limit */
	OPT_TEXT,		/* a string, NUL characters and all */
	OPT_BOOL,		/* true or false */
	OPT_WHOLE,		/* a whole number in [min, max] */
	OPT_TIME,		/* an ISO 8601 time */
	OPT_ROLE,		/* a role's name (role_parse) */
	OPT_FORMAT,		/* one of the formats in formats */
	OPT_NAMES,		/* an array of OPT_NAME strings, at least min
				 * (0 or 1), at most max (0: no limit) */
	OPT_CURSOR,		/* a nextCursor the tool answered */
};

/*
 * One row. A table ends with a row whose key, name and arg are all 0. The
 * command line reads key, name, arg, help and flags; a tool reads tool and
 * what follows (its description is help unless tool_help is given).
 */
struct op_option {
	char key;		/* -x, or 0: long only */
	const char *name;	/* --name, or NULL: short only (or an operand) */
	const char *arg;	/* the value's name, "FMT"; NULL: takes none */
	const char *help;	/* one sentence; -h wraps it */
	unsigned flags;		/* OPTF_* */
	const char *tool;	/* the tool argument's name, or NULL: none */
	enum op_type type;
	long min, max;		/* OPT_WHOLE, OPT_NAME, OPT_NAMES: see above */
	unsigned formats;	/* OPT_FORMAT: a mask of 1 << FMT_x */
	const char *tool_help;	/* the tool's description, when help (the
				 * command line's) does not fit it */
};
enum {
	OPTF_REPEAT = 1,	/* may be given again: "[--tool NAME]..." */
	OPTF_AMONG_OPERANDS = 2, /* the usage shows it in .operands instead */
	OPTF_OPTIONAL = 4,	/* its value only as --name=VALUE: "[--name[=ARG]]" */
	OPTF_REQUIRED = 8,	/* the tool argument must be given */
};
/* a row of the command line alone, as positional fields */
#define OPT(k, n, a, h, f) \
	{ .key = (k), .name = (n), .arg = (a), .help = (h), .flags = (f) }

/* what show and prompt (the tool context) write; a mask of 1 << FMT_x */
#define SHOW_FORMATS (1u << FMT_TEXT | 1u << FMT_MARKDOWN | 1u << FMT_JSON)
#define PROMPT_FORMATS (1u << FMT_TEXT | 1u << FMT_MARKDOWN | \
	1u << FMT_OPENAI | 1u << FMT_JSONL)
/* prompt's --last and --max-tokens at most */
#define PROMPT_MAX (1L << 40)
/* the tool search's page when no limit is given */
#define SEARCH_PAGE 100

/* the last row of a table (key, name, arg and tool all 0) */
#define OPT_END(o) ((o)->key == 0 && (o)->name == NULL && (o)->arg == NULL && \
	(o)->tool == NULL)

/* the tables (args.c): each operation's options, its operands' rows (for
 * -h), and the rows its tool alone takes (args_page: a list's cursor) */
extern const struct op_option args_add_options[], args_add_operands[];
extern const struct op_option args_end_options[];
extern const struct op_option args_title_options[], args_title_operands[];
extern const struct op_option args_tag_options[], args_tag_operands[];
extern const struct op_option args_search_options[], args_search_operands[];
extern const struct op_option args_recent_options[];
extern const struct op_option args_show_options[], args_show_operands[];
extern const struct op_option args_prompt_options[], args_prompt_operands[];
/* the MCP prompt resume's arguments, given as strings */
extern const struct op_option args_resume_prompt[];
extern const struct op_option args_page[];
/* t's row of the option name (its long name, else its letter) */
const struct op_option *args_row(const struct op_option *t, const char *name);

#endif
