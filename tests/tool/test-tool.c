/*
 * test-tool.c - one binary, built from lib/ and cmd/, whose subcommands run
 * table-driven and randomized checks in one process, as git's
 * t/helper/test-tool does (tests/README.md, "The test tool"):
 *   test-tool badinput DIR    every command on each bad store or source in
 *                             DIR (written by tests/helpers/badinput.py)
 *   test-tool commands FILE   a table of commands, each with the exit
 *                             status and the stderr texts it must give
 *   test-tool run REQUESTS DIR
 *                             commands with their environments, what each
 *                             printed and its status kept in DIR
 *   test-tool serve DIR SHELL-PID [--remove TOP]
 *                             a test file's convctl commands, each run here
 *                             with its caller's descriptors (serve.c)
 * Each prints one line per failure and a summary, and exits 1 when a check
 * failed, 2 when it could not run.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

FILE *tool_out;
static int err_fd = -1, saved_err = -1;
static char err_path[] = "/tmp/convctl-test-tool.XXXXXX";
static const char *current = "";

static int tool_read_fd(int fd, struct buf *b);

static void
die(const char *what)
{
	fprintf(stderr, "test-tool: %s: %s\n", what, strerror(errno));
	exit(2);
}

void
tool_case(const char *what)
{
	current = what;
}

/* a crash names the case it met, on the tool's own stderr, then meets the
 * handler that was there before (the default's, or a sanitizer's report):
 * the fault happens again on return, a raised signal is delivered then */
static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
#define NFATAL (sizeof(fatal) / sizeof(fatal[0]))
static struct sigaction before[NFATAL];

static void
on_signal(int sig)
{
	static const char m[] = "test-tool: a signal in case: ";
	size_t i;

	if (write(saved_err, m, sizeof(m) - 1) < 0 ||
	    write(saved_err, current, strlen(current)) < 0 ||
	    write(saved_err, "\n", 1) < 0)
		_exit(128 + sig);
	for (i = 0; i < NFATAL; i++)
		if (fatal[i] == sig)
			sigaction(sig, &before[i], NULL);
}

int
tool_convctl_out(const char *const *argv, int out_fd, struct buf *err)
{
	char *copy[256];
	int argc, rc, null_out = -1;

	for (argc = 0; argv[argc] != NULL; argc++) {
		if (argc == 255)
			die("more than 255 arguments");
		copy[argc] = xstrdup(argv[argc]);
	}
	copy[argc] = NULL;
	fflush(stdout);
	if (out_fd >= 0 && ((null_out = dup(1)) < 0 || dup2(out_fd, 1) < 0))
		die("stdout");
	if (ftruncate(err_fd, 0) < 0 || lseek(err_fd, 0, SEEK_SET) < 0 ||
	    dup2(err_fd, 2) < 0)
		die("stderr");
	rc = convctl_main(argc, copy);
	fflush(stdout);
	fflush(stderr);
	if (dup2(saved_err, 2) < 0)
		die("stderr");
	if (null_out >= 0 && (dup2(null_out, 1) < 0 || close(null_out) < 0))
		die("stdout");
	err->len = 0;
	if (lseek(err_fd, 0, SEEK_SET) < 0 || tool_read_fd(err_fd, err) < 0)
		die("stderr");
	while (argc > 0)
		free(copy[--argc]);
	return rc;
}

int
tool_convctl(const char *const *argv, struct buf *err)
{
	return tool_convctl_out(argv, -1, err);
}

static int
tool_read_fd(int fd, struct buf *b)
{
	struct error e;

	b->len = 0;
	if (buf_read_fd(b, fd, "", &e) < 0)
		return -1;
	buf_reserve(b, 0);
	b->data[b->len] = '\0';
	return 0;
}

int
tool_read(const char *path, struct buf *b)
{
	int fd = open(path, O_RDONLY), rc;

	b->len = 0;
	if (fd < 0)
		return -1;
	rc = tool_read_fd(fd, b);
	close(fd);
	return rc;
}

void
tool_write(const char *path, const void *s, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(s, 1, len, f) != len || fclose(f) != 0)
		die(path);
}

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *usage;
} subcommands[] = {
	{ "badinput", tool_badinput, "DIR" },
	{ "commands", tool_table, "FILE" },
	{ "run", tool_run, "REQUESTS DIR" },
	{ "serve", tool_serve, "DIR SHELL-PID [--remove TOP]" },
};

int
main(int argc, char **argv)
{
	size_t i;
	int null;

	if (argc < 2)
		goto usage;
	/* the commands' stdout and stdin are /dev/null; stderr a file read
	 * after each; the tool reports on its own copies */
	if ((tool_out = fdopen(dup(1), "w")) == NULL ||
	    (saved_err = dup(2)) < 0 || (null = open("/dev/null", O_RDWR)) < 0 ||
	    dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    (err_fd = mkstemp(err_path)) < 0)
		die("setup");
	unlink(err_path);
	for (i = 0; i < NFATAL; i++) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, &before[i]);
	}
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (strcmp(argv[1], subcommands[i].name) == 0) {
			int rc = subcommands[i].run(argc - 1, argv + 1);

			fflush(tool_out);
			return rc;
		}
usage:
	fprintf(stderr, "usage: test-tool SUBCOMMAND ARGS\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(stderr, "       test-tool %s %s\n", subcommands[i].name,
		    subcommands[i].usage);
	return 2;
}
