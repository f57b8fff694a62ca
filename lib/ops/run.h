/*
 * run.h - a command run with its input fed and its output relayed and
 * spooled (run.c). It knows no store: lib/conv/exchange.c records what it returns.
 */
#ifndef CONVCTL_RUN_H
#define CONVCTL_RUN_H

#include "../base/base.h"

/* run.c: text checked as UTF-8 a chunk at a time, each chunk read at the same
 * place p with UTF8_CARRY bytes of room before it: a character cut by the
 * chunk's end is carried there, to be checked with the next; ended: no more
 * comes. bad: the first byte that is not UTF-8 (utf8_invalid_at's offset in
 * all of the text), or -1 */
#define UTF8_CARRY 3
struct utf8_chunks {
	size_t carry;			/* bytes before p not checked yet */
	size_t checked;			/* bytes checked in all */
	long bad;
};
void utf8_chunk(struct utf8_chunks *, char *p, size_t n, int ended);

/* run.c: standard input (fd, called name), taken whole before the command
 * runs: its bytes written to raw (to feed the command, run_request.then_fd),
 * escaped into sp (to record it), checked as UTF-8 into *not_utf8; more than
 * max bytes is an error that names setting, as buf_read_max() says it */
struct spool;
int run_take_input(int fd, const char *name, size_t max, const char *setting,
    int raw, struct spool *sp, long *not_utf8, struct error *);

/* run.c: a command run with its standard input fed from memory and its
 * standard output passed on as it comes and spooled; SIGINT, SIGTERM, SIGHUP
 * sent to convctl by kill(2) are passed on to it (the terminal's reach it
 * directly; one ignored at the start stays ignored, for it too), and a
 * second SIGINT stops the wait */
struct run_request {
	char *const *argv;		/* argv[0] is looked for in PATH */
	const char *input;		/* the command's standard input first */
	size_t input_len;
	int then_fd;			/* then all of this file, from its start
					 * (-1: none); then EOF */
	size_t keep_max;		/* output past this many bytes is not kept */
	int out_fd;			/* where the output goes as it arrives */
	/* the output is kept there, and dropped (spool_drop) once it cannot
	 * be recorded: too long, or not UTF-8; NULL: not kept */
	struct spool *spool;
};
struct run_result {
	long not_utf8;			/* output's first byte that is not
					 * UTF-8 (utf8_invalid_at), or -1 */
	size_t out_bytes;		/* how much it wrote */
	int overflow;			/* more than keep_max: none of it kept */
	int exit_code;			/* its status; 128 + N: killed by signal N */
	int signal;			/* the signal that killed it, or 0 */
	int abandoned;			/* a second SIGINT: not waited for (130) */
	int pid;
	int out_errno;			/* writing to out_fd failed (then only
					 * kept): the errno */
};
/* -1: the command could not be started (e says why; errno is kept) */
int run_command(const struct run_request *, struct run_result *,
    struct error *);

#endif
