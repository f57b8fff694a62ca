/*
 * report.c - how a command says what went wrong: one line on stderr,
 * "convctl: CMD: message"; below options.c and common.c, which both report.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* "convctl: CMD: message" ("convctl: message" before a command is known),
 * one printable line whatever it quotes */
void
cmd_verror(const struct ctx *ctx, const char *fmt, va_list ap)
{
	struct buf b = { 0 };
	char *raw, *line;

	buf_vaddf(&b, fmt, ap);
	raw = buf_detach(&b);
	line = xmalloc(4 * strlen(raw) + 1);	/* \xHH for every byte at most */
	error_printable(line, 4 * strlen(raw) + 1, raw);
	fprintf(stderr, "convctl: %s%s%s\n", ctx->cmd ? ctx->cmd->name : "",
	    ctx->cmd ? ": " : "", line);
	free(line);
	free(raw);
}

void
cmd_error(const struct ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cmd_verror(ctx, fmt, ap);
	va_end(ap);
}
