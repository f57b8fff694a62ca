/*
 * mcp.h - `convctl mcp`: the store served to LLM agents over the Model
 * Context Protocol (JSON-RPC 2.0, a message a line), as cmd/ calls it. The
 * protocol and the tools are lib/mcp/'s own.
 */
#ifndef CONVCTL_MCP_H
#define CONVCTL_MCP_H

#include "../store/store.h"

/* mcp/server.c: the protocol revisions spoken, newest first; the newest is
 * answered to a client that asks for one not in the list */
extern const char *const mcp_versions[];

struct mcp_server;
struct mcp_config {
	/* the settings a command would have; each tool call opens the store
	 * they name and closes it before it answers (not const: ops_end sets
	 * a summarizer flag in them, and MCP gives none) */
	struct settings *settings;
	int read_only;			/* the tools that write left out */
	/* a diagnostic for standard error (warnings a command would print),
	 * one line; NULL: dropped */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
};
/*
 * Every setting a tool reads checked, as the server starts: each one's
 * value (the numbers, the choices) and the summarizer's when the tools
 * that end conversations are offered; 0, or -1 and e naming the first
 * that is wrong. The store is opened to read and closed: one that cannot
 * be (a directory, not a store, a database that does not answer) is only
 * warned of, as every call then answers its error to the agent.
 */
int mcp_check(const struct mcp_config *, struct error *);
struct mcp_server *mcp_new(const struct mcp_config *);
void mcp_free(struct mcp_server *);
/*
 * One message, line[0..len) without its newline: the reply, a JSON-RPC
 * message on one line and its newline, appended to out; nothing for a
 * notification, a response or a line of blanks (no message).
 */
void mcp_handle(struct mcp_server *, const char *line, size_t len,
    struct buf *out);
/* the reply to a line of more than max bytes, which was not read whole */
void mcp_too_large(struct buf *out, size_t max);
/* the longest request line read: max_message_bytes and 64 KiB for the
 * rest of the message */
#define MCP_ENVELOPE_BYTES 65536

/*
 * A file descriptor read a line at a time, at most max bytes a line: what
 * is past max is dropped as it arrives, never held.
 */
struct mcp_reader {
	int fd;
	char buf[65536];
	size_t start, end;
	int skipping;			/* in a line over max: dropping to its end */
	int eof;
};
enum mcp_read {
	MCP_READ_FAILED = -1,		/* e says why */
	MCP_READ_EOF,
	MCP_READ_LINE,			/* *line holds it, without its newline
					 * (and a CR before it) */
	MCP_READ_TOO_LARGE,		/* a line over max: refused, the rest of
					 * it will be skipped */
};
enum mcp_read mcp_read_line(struct mcp_reader *, size_t max, struct buf *line,
    struct error *);

#endif
