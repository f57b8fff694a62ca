/*
 * pager.c - long output through a pager when standard output is a
 * terminal, as git does: the pager setting (CONVCTL_PAGER, the config
 * file's pager), else $PAGER, else less, with LESS=FRX when LESS is not
 * set (a short answer prints as before, colours pass). `cat` or an empty
 * command is none. main.c starts it before a command that pages runs,
 * and waits for it to exit before convctl does; a pager quit early (q) is
 * no failure: what was left to print had nowhere to go.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"

const struct op_option cmd_pager_options[] = {
	OPT(0, "no-pager", NULL, "never page the output", 0),
	OPT('p', "paginate", NULL, "page the output of any command at a "
	    "terminal", 0),
	{ 0 },
};

static int want;		/* -1 --no-pager, 1 -p, 0 the command's own */
static pid_t pid = -1;		/* the pager's, while one runs */
static int gone;		/* a write found it gone */

void
pager_want(int w)
{
	want = w;
}

/* the pager's command line; NULL: none */
static const char *
command(const struct settings *set)
{
	const char *p = settings_get(set, SET_PAGER);

	if (p == NULL)
		return NULL;
	p += strspn(p, " \t");
	return *p == '\0' || strcmp(p, "cat") == 0 ? NULL : p;
}

/* a signal that ends convctl: the pager keeps the terminal until its user
 * quits it, as git's, then convctl ends by the signal; async-signal-safe */
static void
on_signal(int sig)
{
	int status;

	close(STDOUT_FILENO);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	signal(sig, SIG_DFL);
	raise(sig);
}

void
pager_start(const struct ctx *ctx)
{
	static const int ends[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	size_t i;
	enum cmd_paging paging = ctx->cmd->paging;
	const char *cmd;
	int fd[2];

	if (want < 0 || pid >= 0 || !isatty(STDOUT_FILENO) ||
	    paging == PAGING_NEVER || (want == 0 && paging != PAGING_READER) ||
	    (paging == PAGING_STDIN && isatty(STDIN_FILENO)) ||
	    (cmd = command(&ctx->settings)) == NULL)
		return;
	fflush(stdout);
	/* without a pipe or a process the output goes to the terminal */
	if (pipe(fd) < 0)
		return;
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		if (getenv("LESS") == NULL)
			setenv("LESS", "FRX", 1);
		if (getenv("LV") == NULL)
			setenv("LV", "-c", 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "convctl: cannot run the pager '%s': %s\n", cmd,
		    strerror(errno));
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	/* a pager quit early: writes fail with EPIPE, said by no one */
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		signal(ends[i], on_signal);
}

int
pager_active(void)
{
	return pid >= 0;
}

int
pager_gone(int err)
{
	if (pid < 0)
		return 0;
	if (err == EPIPE)
		gone = 1;
	return gone;
}

void
pager_finish(void)
{
	int status;

	if (pid < 0)
		return;
	fflush(stdout);
	/* the pager reads to the end, then waits for its user */
	close(STDOUT_FILENO);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	pid = -1;
}
