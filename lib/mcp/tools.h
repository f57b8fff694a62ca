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

/* a tool's answer: what its command prints, and its --json */
struct mcp_answer {
	struct buf text;	/* the command's standard output, or the error */
	json_t *structured;	/* an object (the command's --json), or NULL */
	int is_error;		/* text says what was wrong */
};
struct mcp_tool {
	const char *name;	/* [a-z_]+, as clients show it */
	const char *title;
	const char *description;	/* one line */
	const char *input;	/* its arguments' JSON Schema, as text */
	const char *output;	/* structuredContent's JSON Schema, as text */
	int writes;		/* left out by --read-only */
	void (*call)(const struct mcp_config *, json_t *args,
	    struct mcp_answer *);
};
extern const struct mcp_tool mcp_tools[];
extern const size_t mcp_ntools;
/* an input schema's "role" argument: its enum, the store's roles */
void mcp_schema_roles(json_t *input);

#endif
