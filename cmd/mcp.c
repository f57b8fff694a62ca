/*
 * mcp.c - `convctl mcp`: the store served over the Model Context Protocol on
 * standard input and output, a JSON-RPC message a line, until standard
 * input ends; the protocol and the tools are lib/mcp/'s. Standard output
 * carries protocol messages only; diagnostics go to standard error.
 */
#include <locale.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "read-only", NULL, "offer only the tools that read the store "
	    "(search, recent, show, context)", 0),
	{ 0 },
};

static void
warn(void *arg, const char *msg)
{
	cmd_error(arg, "%s", msg);
}

static int
mcp_exec(struct ctx *ctx)
{
	struct mcp_config cf = { .settings = &ctx->settings,
	    .read_only = args_has(&ctx->args, "read-only"), .warn = warn,
	    .warn_arg = ctx };
	struct mcp_reader *r = NULL;
	struct mcp_server *s = NULL;
	struct buf line = { 0 }, out = { 0 };
	struct error e;
	long max;
	int rc;

	if ((rc = cmd_limit(ctx, SET_MAX_MESSAGE_BYTES, &max)) != 0)
		return rc;
	/* a wrong setting stops the server at start, as it stops every
	 * command; a store that cannot be read now is a warning, and each
	 * call's answer */
	if (mcp_check(&cf, &e) < 0)
		return cmd_fail(ctx, &e);
	/* messages are UTF-8 whatever the user's locale: search folds case
	 * as such */
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	/* a client gone is an end like any other: said by the write */
	signal(SIGPIPE, SIG_IGN);
	s = mcp_new(&cf);
	r = xmalloc(sizeof(*r));
	*r = (struct mcp_reader){ .fd = STDIN_FILENO };
	for (;;) {
		out.len = 0;
		switch (mcp_read_line(r, (size_t)max + MCP_ENVELOPE_BYTES,
		    &line, &e)) {
		case MCP_READ_FAILED:
			rc = cmd_fail(ctx, &e);
			goto out;
		case MCP_READ_EOF:
			goto out;
		case MCP_READ_TOO_LARGE:
			mcp_too_large(&out, (size_t)max + MCP_ENVELOPE_BYTES);
			break;
		case MCP_READ_LINE:
			mcp_handle(s, line.data, line.len, &out);
			/* a call that read a large store freed it all: back to
			 * the system, not kept while the agent thinks */
			os_malloc_trim();
			break;
		}
		if ((rc = cmd_print(ctx, out.data, out.len)) != 0 ||
		    fflush(stdout) != 0)
			goto out;
	}
out:
	buf_free(&line);
	buf_free(&out);
	free(r);
	mcp_free(s);
	return rc;
}

const struct cmd_entry cmd_mcp_entry = {
	.name = "mcp",
	.summary = "serve the store to LLM agents over MCP on stdio",
	.options = options,
	.notes = "Speaks the Model Context Protocol (JSON-RPC 2.0, a message a "
	    "line) on\nstandard input and output until standard input ends. "
	    "Tools: search,\nrecent, show, context, add, end, title and tag; each "
	    "conversation is\na resource (convctl://conversation/ID), and the "
	    "prompt resume gives\none as messages to go on from.\n",
	.min_args = 0, .max_args = 0,
	.paging = PAGING_NEVER,
	.exec = mcp_exec,
};
