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
struct mcp_tool {
	const char *name;	/* [a-z_]+, as clients show it */
	const char *title;
	const char *description;	/* one line */
	const char *input;	/* its arguments' JSON Schema, as text */
	/* structuredContent's JSON Schema, as text; NULL: the tool answers
	 * text alone (the format asked for, which a client gives its model
	 * only when no structured content stands beside it) */
	const char *output;
	int writes;		/* left out by --read-only */
	void (*call)(const struct mcp_config *, json_t *args,
	    struct mcp_answer *);
};
extern const struct mcp_tool mcp_tools[];
extern const size_t mcp_ntools;
/* an input schema's "role" argument: its enum, the store's roles */
void mcp_schema_roles(json_t *input);

#endif
