/*
 * progress.c - "convctl: CMD: what N/M" redrawn on stderr while a command
 * works through many conversations; only on a terminal, so logs and pipes
 * never see it.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* what and the item (a file's name, a conversation's id) escaped: the one
 * escape sent is ours */
static void
draw(struct progress *p)
{
	struct buf line = { 0 };

	buf_add_printable(&line, p->what);
	buf_addf(&line, " %zu/%zu", p->done, p->total);
	if (p->item != NULL) {
		buf_addc(&line, ' ');
		buf_add_printable(&line, p->item);
	}
	fprintf(stderr, "\r\033[Kconvctl: %s: %s", p->ctx->cmd->name,
	    line.data);
	buf_free(&line);
	fflush(stderr);
	p->shown = 1;
	p->last_ms = now_ms();
}

void
progress_start(struct progress *p, const struct ctx *ctx, const char *what,
    size_t total)
{
	p->ctx = ctx;
	p->what = what;
	p->item = NULL;
	p->done = 0;
	p->total = total;
	p->on = total > 1 && isatty(STDERR_FILENO);
	p->shown = 0;
	p->last_ms = 0;
	if (p->on)
		draw(p);
}

void
progress_step(struct progress *p, size_t done)
{
	p->done = done;
	p->item = NULL;
	/* a terminal redrawn more than ten times a second only slows us down */
	if (p->on && (done == p->total || now_ms() - p->last_ms >= 100))
		draw(p);
}

void
progress_item(struct progress *p, size_t done, const char *item)
{
	p->done = done;
	p->item = item;
	if (p->on)
		draw(p);
}

void
progress_clear(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = 0;
}

void
progress_done(struct progress *p)
{
	/* the line is erased: what was done is the command's output */
	progress_clear(p);
	p->on = 0;
}

void
progress_cb(void *arg, size_t done, size_t total)
{
	struct progress *p = arg;

	if (p->total != total && !p->shown)
		progress_start(p, p->ctx, p->what, total);
	progress_step(p, done);
}

void
progress_log_line(void *ctx, const char *line)
{
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);	/* over any progress line */
	cmd_error(ctx, "%s", line);
}

void
cmd_summarize_report(void *arg, const struct summarize_event *ev)
{
	struct progress *p = arg;

	switch (ev->kind) {
	case SUMMARIZE_BEGIN:
		progress_start(p, p->ctx, "summarizing", ev->total);
		break;
	case SUMMARIZE_ITEM:
		progress_item(p, ev->done, ev->id);
		break;
	case SUMMARIZE_STORING:
		progress_clear(p);
		break;
	case SUMMARIZE_ERROR:
	case SUMMARIZE_NOTE:
		progress_clear(p);
		cmd_error(p->ctx, "%s", ev->msg);
		break;
	case SUMMARIZE_VERBOSE:
		progress_clear(p);
		progress_log_line((void *)p->ctx, ev->msg);
		break;
	}
}
