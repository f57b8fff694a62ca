/*
 * tools.h - the tools `convctl mcp` offers (tools.c), as the protocol
 * (server.c) lists and calls them. A tool knows the store and what its
 * command prints; it knows nothing of JSON-RPC, and holds no lock once it
 * has answered.
 */
#ifndef CONVCTL_MCP_TOOLS_H
#define CONVCTL_MCP_TOOLS_H

#include "../internal.h"
#include "mcp.h"

/* a tool's answer: its --json as an object, else the text its command
 * prints (show, context), else the error */
struct mcp_answer {
	struct buf text;	/* the text asked for, or the error */
	json_t *structured;	/* an object (the command's --json), or NULL */
	int is_error;		/* text says what was wrong */
};
struct tool_args;
struct mcp_tool {
	const char *name;	/* [a-z_]+, as clients show it */
	const char *title;
	const char *description;	/* one line */
	/* its arguments: the rows of these tables (lib/args) that name one,
	 * in order; NULL: none. The inputSchema and the parsing are made
	 * from them (args.c) */
	const struct op_option *args[3];
	/* structuredContent's JSON Schema, as text; NULL: the tool answers
	 * text alone (the format asked for, which a client gives its model
	 * only when no structured content stands beside it) */
	const char *output;
	int writes;		/* left out by --read-only */
	void (*call)(const struct mcp_config *, const struct tool_args *,
	    struct mcp_answer *);
};

/* args.c: a call's arguments, each row's value as its type says */
struct tool_value {
	const struct op_option *row;
	int given;
	const char *s;		/* OPT_NAME, OPT_TEXT (len bytes), OPT_TIME,
				 * OPT_ROLE, OPT_FORMAT, OPT_CURSOR: as given */
	size_t len;
	long n;			/* OPT_WHOLE, OPT_BOOL, OPT_ROLE (enum
				 * conv_role), OPT_FORMAT (enum format),
				 * OPT_CURSOR (the position) */
	int64_t ms;		/* OPT_TIME */
	const char **v;		/* OPT_NAMES, NULL-ended (nv); owned */
	size_t nv;
};
#define TOOL_ARGS_MAX 16
struct tool_args {
	struct tool_value v[TOOL_ARGS_MAX];
	size_t n;
};
/* an error answer: one line naming what was wrong */
void mcp_fail(struct mcp_answer *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* args parsed by t's rows, then t called; a wrong argument answered as
 * an error naming it */
void mcp_tool_call(const struct mcp_tool *, const struct mcp_config *,
    json_t *args, struct mcp_answer *);
/* t's inputSchema, from its rows */
json_t *mcp_tool_schema(const struct mcp_tool *);
int tool_args_parse(const struct mcp_tool *, json_t *args, struct tool_args *,
    struct mcp_answer *);
/* a prompt's arguments, by its rows (a struct mcp_tool: its name, title,
 * description and rows alone), each given as a string: a whole number's
 * digits; and the arguments prompts/list gives, from the rows */
int prompt_args_parse(const struct mcp_tool *, json_t *args,
    struct tool_args *, struct mcp_answer *);
json_t *mcp_prompt_arguments(const struct mcp_tool *);
void tool_args_free(struct tool_args *);
/* the value of the argument name (a row's tool), or NULL when not given */
const struct tool_value *tool_arg(const struct tool_args *, const char *name);
const char *tool_str(const struct tool_args *, const char *name);
long tool_long(const struct tool_args *, const char *name, long dflt);
extern const struct mcp_tool mcp_tools[];
/* what a request that is not a tool call came to, for its JSON-RPC answer */
enum mcp_outcome {
	MCP_DONE,		/* *result holds the answer */
	MCP_BAD_PARAMS,		/* e says which (-32602) */
	MCP_NOT_FOUND,		/* no such resource (-32002) */
	MCP_FAILED,		/* the store failed; e says how (-32603) */
};
/* the most bytes of a tool's text or structured content, about 25,000
 * tokens: a page of search or recent is fewer items, show's or context's
 * text is cut (and says so) */
#define MCP_ANSWER_MAX 100000
/* the most resources a resources/list page holds */
#define MCP_PAGE 50
/* resources.c: cursor NULL, the first page */
enum mcp_outcome mcp_resources_list(const struct mcp_config *,
    const char *cursor, json_t **result, struct error *);
json_t *mcp_resource_templates(void);
enum mcp_outcome mcp_resource_read(const struct mcp_config *,
    const char *uri, json_t **result, struct error *);
/* the prompt resume: what convctl prompt gives, as messages */
extern const struct mcp_tool mcp_prompt_resume;
json_t *mcp_prompts(void);
/* name NULL: none given; args NULL: none */
enum mcp_outcome mcp_prompt_get(const struct mcp_config *, const char *name,
    json_t *args, json_t **result, struct error *);
extern const size_t mcp_ntools;

#endif
