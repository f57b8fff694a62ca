/*
 * serve.c - `test-tool serve DIR SHELL-PID [--remove TOP]`: a test file's convctl commands run in
 * this one process, as Mercurial's command server (chg) runs hg's, instead
 * of a process each: tests/lib.sh's convctl function is the client. A
 * command runs as it would in a process of its own started by the client:
 * with the client's standard input, output and error (the same open files,
 * taken with pidfd_getfd(2), so that offsets and pipes are shared), its
 * working directory, umask and exported variables. The client runs convctl
 * as a process instead whenever it cannot have the server (another command
 * holds it, the server is not there) or the server says so (the client's
 * resource limits are not the server's, a descriptor is closed, it sets a
 * variable read only as a process starts: LD_PRELOAD, say). The server
 * ends when SHELL-PID (the file's shell) does, and with --remove removes
 * TOP then (the file's directory, which holds DIR): the shell's EXIT trap
 * leaves that to it, a process fewer.
 *
 * In DIR, which the server makes:
 *   req    a FIFO: the client writes "PID\n" when its request is whole
 *   resp   a FIFO: the server answers "PID STATUS\n" there, STATUS the
 *          exit status or "exec", then closes it: the end of it before an
 *          answer is the server gone. A FIFO a client: before it answers,
 *          the server renames a new one over it for the next client (the
 *          shell's read takes a byte at a time: two readers of one FIFO
 *          would share one answer's bytes)
 *   lock   the request, which the client makes with O_EXCL (the shell's
 *          noclobber): whoever made it has the server until the server
 *          removes it, just before the answer. It holds "PID\nARGC\n", each
 *          argument as "LENGTH\nBYTES\n", then the client's `export -p`,
 *          then a line ".".
 * The client waits with its standard input on resp and the one the command
 * is to read on fd 7 (serve-client.sh: `7<&0 8<resp <&8`); the server
 * takes the client's descriptors once fd 0 is resp, when they are all in
 * place.
 * A fatal signal in a command is answered as the status a process killed by
 * it would give, before the server dies of it; a client met later runs
 * convctl as a process (lock is left). Linux only: elsewhere the server
 * says why and exits 2, and the client runs processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "tool.h"

#ifdef __linux__
#include <ftw.h>
#include <poll.h>
#include <sys/syscall.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/* a command's crash: answered before the server dies of it */
static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
static const char *dir_path;
static const char *remove_top;	/* --remove TOP: gone when the shell is */
static char *req_path, *resp_path, *lock_path;
static int resp_fd = -1;
static struct stat resp_st;
static int saved[3];		/* the server's own 0, 1 and 2 */
static char current_pid[24];	/* the client being served, for a crash */

static char *
path_in(const char *dir, const char *name)
{
	struct buf b = { 0 };

	buf_addf(&b, "%s/%s", dir, name);
	return b.data;
}

/* the answer "PID STATUS\n" on the client's resp, fd: written whole
 * (shorter than PIPE_BUF) or not at all; async-signal-safe */
static void
write_answer(int fd, const char *pid, const char *status)
{
	char line[64];
	size_t n = 0, k;

	for (k = 0; pid[k] != '\0' && n < 40; k++)
		line[n++] = pid[k];
	line[n++] = ' ';
	for (k = 0; status[k] != '\0' && n < 62; k++)
		line[n++] = status[k];
	line[n++] = '\n';
	if (write(fd, line, n) < 0)
		return;
}

/* a fatal signal in a command (a crash, or a SIGPIPE the command's client
 * does not ignore): the client is told the status a process killed by it
 * gives (128 + N, as the shell says it), then the signal meets its
 * default action: later calls run as processes (the lock is left) */
static void
on_fatal(int sig)
{
	char st[8];
	int n = 128 + sig, i = 0;

	if (current_pid[0] != '\0') {
		st[i++] = '0' + n / 100;
		st[i++] = '0' + n / 10 % 10;
		st[i++] = '0' + n % 10;
		st[i] = '\0';
		write_answer(resp_fd, current_pid, st);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* the request's next line as a number; -1 at its end or a bad one */
static long
number(char **p, const char *end)
{
	char *nl = memchr(*p, '\n', (size_t)(end - *p)), *stop;
	long v;

	if (nl == NULL)
		return -1;
	*nl = '\0';
	v = strtol(*p, &stop, 10);
	if (stop == *p || *stop != '\0' || v < 0)
		return -1;
	*p = nl + 1;
	return v;
}

/* one character of a $'...' word at *p, *p moved past it: bash's and
 * zsh's `export -p` quote a value with control characters or bytes that
 * are not text so: \n \t \\ \' \" and the like, octal \NNN, \xHH, and
 * zsh's \C-X (X & 0x9f, \C-? 0x7f) and \M-X (X | 0x80), X a character,
 * or after \M- \C-X, \t or \n, as zsh reads them (AFTER: 'C' or 'M' for
 * the X of \C- or \M-, else 0); -1 for an escape not in this list, the
 * end, and a backslash after \C- or \M- else: zsh writes 0x1c as \C-\
 * and 0xdc as \M-\, which it does not read back as they were (the
 * command is then a process's). A NUL is the caller's to refuse */
static int
ansi_char(char **p, const char *end, int after)
{
	static const char names[] = "abefnrtvE\\'\"?";
	static const char codes[] = "\a\b\033\f\n\r\t\v\033\\'\"?";
	char *s = *p;
	const char *at;
	int c, n;

	if (s >= end)
		return -1;
	if (*s != '\\') {
		*p = s + 1;
		return (unsigned char)*s;
	}
	if (++s >= end || after == 'C' ||
	    (after == 'M' && *s != 'C' && *s != 't' && *s != 'n'))
		return -1;
	if (*s >= '0' && *s <= '7') {
		for (c = 0, n = 0; n < 3 && s < end && *s >= '0' && *s <= '7'; n++)
			c = c * 8 + (*s++ - '0');
		c &= 0xff;
	} else if (*s == 'x') {
		for (s++, c = 0, n = 0; n < 2 && s < end && strchr(
		    "0123456789abcdefABCDEF", *s) != NULL && *s != '\0'; n++, s++)
			c = c * 16 + (*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
		if (n == 0)
			return -1;
	} else if ((*s == 'C' || *s == 'M') && s + 1 < end && s[1] == '-') {
		int control = *s == 'C';

		*p = s + 2;
		if ((c = ansi_char(p, end, *s)) < 0)
			return -1;
		if (control)
			return c == '?' ? 0x7f : c & 0x9f;
		return c | 0x80;
	} else if (*s != '\0' && (at = strchr(names, *s)) != NULL) {
		c = (unsigned char)codes[at - names];
		s++;
	} else {
		return -1;
	}
	*p = s;
	return c;
}

/* one word of `export -p`'s value at *p, unquoted into *out; *p left at
 * the newline or end that ends it; -1 for a $'...' word not understood */
static int
shell_word(char **p, const char *end, struct buf *out)
{
	char *s = *p;

	while (s < end && *s != '\n') {
		if (*s == '$' && s + 1 < end && s[1] == '\'') {
			for (s += 2; s < end && *s != '\''; ) {
				int c = ansi_char(&s, end, 0);
				char ch = (char)c;

				if (c <= 0)	/* (a NUL: no value holds one) */
					return -1;
				buf_add(out, &ch, 1);
			}
			if (s >= end)
				return -1;
			s++;
		} else if (*s == '\'') {
			for (s++; s < end && *s != '\''; s++)
				buf_add(out, s, 1);
			s++;
		} else if (*s == '"') {
			for (s++; s < end && *s != '"'; s++) {
				if (*s == '\\' && s + 1 < end &&
				    strchr("$`\"\\\n", s[1]) != NULL)
					s++;
				buf_add(out, s, 1);
			}
			s++;
		} else if (*s == '\\' && s + 1 < end) {
			buf_add(out, s + 1, 1);
			s += 2;
		} else {
			buf_add(out, s++, 1);
		}
	}
	*p = s;
	return 0;
}

/* the variables a process reads as it starts, not later (the dynamic
 * loader's, the allocator's): a client's that differ from the server's
 * own, at its start, are for a process of its own (LD_PRELOAD in a case) */
static int
read_at_start(const char *name)
{
	return strncmp(name, "LD_", 3) == 0 ||
	    strncmp(name, "MALLOC_", 7) == 0 ||
	    strcmp(name, "GLIBC_TUNABLES") == 0;
}

static char **start_env;	/* the server's read_at_start variables */

static void
keep_start_env(void)
{
	extern char **environ;
	size_t n = 0, i;

	for (i = 0; environ[i] != NULL; i++)
		n++;
	start_env = calloc(n + 1, sizeof(*start_env));
	if (start_env == NULL)
		return;
	for (i = 0, n = 0; environ[i] != NULL; i++)
		if (read_at_start(environ[i]))
			start_env[n++] = xstrdup(environ[i]);
}

/* NAME=VALUE is in the server's environment as it started */
static int
in_start_env(const char *name, const char *value)
{
	size_t i, len = strlen(name);

	for (i = 0; start_env != NULL && start_env[i] != NULL; i++)
		if (strncmp(start_env[i], name, len) == 0 &&
		    start_env[i][len] == '=' &&
		    strcmp(start_env[i] + len + 1, value) == 0)
			return 1;
	return 0;
}

/* the environment made what the client's `export -p` says (from p to
 * end): "export NAME='VALUE'" a variable (bash: declare -x NAME="VALUE";
 * zsh: export NAME=VALUE, quoted only where it must be; bash and zsh
 * write $'...' for a value with control characters: ansi_char), a NAME
 * with an option before it (zsh's export -i10 N=1, outside its sh
 * emulation) is a process's,
 * "export NAME" one without a value, which a command does not get; then a line "." (a request cut
 * short has none: -1) */
static int
set_environment(char *p, const char *end)
{
	struct buf value = { 0 };

	if (clearenv() != 0)
		return -1;
	while (p < end) {
		char *name, *eq;

		if (*p == '\n') {
			p++;
			continue;
		}
		if (end - p == 2 && memcmp(p, ".\n", 2) == 0)
			break;
		if (end - p >= 7 && memcmp(p, "export ", 7) == 0)
			name = p + 7;			/* dash's */
		else if (end - p >= 11 && memcmp(p, "declare -x ", 11) == 0)
			name = p + 11;			/* bash's */
		else
			return -1;
		if (*name == '-')
			return -1;
		eq = name;
		while (eq < end && *eq != '=' && *eq != '\n')
			eq++;
		if (eq == end || *eq == '\n') {
			p = eq;		/* no value: not in a command's env */
			continue;
		}
		*eq = '\0';
		p = eq + 1;
		value.len = 0;
		if (shell_word(&p, end, &value) < 0)
			return -1;
		buf_addc(&value, '\0');
		if (read_at_start(name) && !in_start_env(name, value.data))
			return -1;
		if (setenv(name, value.data, 1) != 0)
			return -1;
	}
	buf_free(&value);
	if (p >= end)
		return -1;	/* no end line */
	tzset();		/* localtime_r reads TZ only once else */
	return 0;
}

/* the client's resource limits are the server's: else a command run here
 * would not meet the limit the test set it (ulimit -v, -f, -n) */
static int
same_limits(pid_t pid)
{
	static const int which[] = { RLIMIT_AS, RLIMIT_CORE, RLIMIT_CPU,
	    RLIMIT_DATA, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_STACK,
	    RLIMIT_NPROC, RLIMIT_MEMLOCK };
	size_t i;

	for (i = 0; i < sizeof(which) / sizeof(which[0]); i++) {
		struct rlimit mine, theirs;

		if (getrlimit(which[i], &mine) != 0 ||
		    prlimit(pid, which[i], NULL, &theirs) != 0 ||
		    mine.rlim_cur != theirs.rlim_cur ||
		    mine.rlim_max != theirs.rlim_max)
			return 0;
	}
	return 1;
}

static int
same_file(int fd, const struct stat *st)
{
	struct stat s;

	return fstat(fd, &s) == 0 && s.st_dev == st->st_dev &&
	    s.st_ino == st->st_ino;
}

/* the client waits for its answer: its fd 0 is resp (which it opened
 * before, and all its descriptors are in place); 0, or -1 when it is gone
 * or went astray (30 s) */
static int
client_waits(int pidfd)
{
	struct timespec nap = { 0, 200000 };	/* 0.2 ms */
	long tries;

	for (tries = 0; tries < 150000; tries++) {
		int zero = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
		int waiting;

		if (zero < 0)
			return -1;
		waiting = same_file(zero, &resp_st);
		close(zero);
		if (waiting)
			return 0;
		nanosleep(&nap, NULL);
	}
	return -1;
}

/* the client's descriptors its command is to have as 0, 1 and 2 (its fd
 * 7, 1 and 2, once it waits); 0 when taken, -1 when one is closed */
static int
take_fds(int pidfd, int fds[3])
{
	static const int from[3] = { 7, 1, 2 };
	int i;

	for (i = 0; i < 3; i++)
		if ((fds[i] = (int)syscall(SYS_pidfd_getfd, pidfd, from[i],
		    0)) < 0) {
			while (i > 0)
				close(fds[--i]);
			return -1;
		}
	return 0;
}

/* the signals the client ignores ignored, the others at their default
 * action, as a process the client started would find them (SIGINT and
 * SIGQUIT, which the shell had the server, a background job, ignore,
 * too); but a SIGPIPE is answered first, the status a process killed by
 * it gives, and a crash too (on_fatal) */
static void
take_signals(unsigned long long ignored)
{
	int sig;

	for (sig = 1; sig < 32; sig++) {
		struct sigaction sa;
		size_t i;
		int fatal_one = 0;

		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			fatal_one |= fatal[i] == sig;
		if (sig == SIGKILL || sig == SIGSTOP || fatal_one)
			continue;
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		if (ignored & (1ULL << (sig - 1)))
			sa.sa_handler = SIG_IGN;
		else if (sig == SIGPIPE) {
			sa.sa_handler = on_fatal;
			sa.sa_flags = SA_ONSTACK;
		} else
			sa.sa_handler = SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
}

/* the client's working directory, umask and ignored signals made this
 * process's */
static int
take_place(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	int dir, rc;
	unsigned mask = 0;
	unsigned long long ignored = 0;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%ld/cwd", (long)pid);
	if ((dir = open(path, O_RDONLY | O_DIRECTORY)) < 0)
		return -1;
	rc = fchdir(dir);
	close(dir);
	if (rc != 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Umask: %o", &mask) == 1 ||
		    sscanf(line, "SigIgn: %llx", &ignored) == 1)
			found++;
	fclose(f);
	if (found != 2)
		return -1;
	umask((mode_t)mask);
	take_signals(ignored);
	return 0;
}

/* argv run with the client's descriptors fds as 0, 1 and 2: its exit
 * status; -1 when the server's own could not be put back */
static int
run(int argc, char **argv, const int fds[3])
{
	int i, rc;

	fflush(NULL);
	for (i = 0; i < 3; i++) {
		if (dup2(fds[i], i) < 0)
			return -1;
		close(fds[i]);
	}
	__fpurge(stdin);
	clearerr(stdin);
	tool_case(argv[1] != NULL ? argv[1] : "convctl");
	rc = convctl_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	__fpurge(stdin);
	clearerr(stdin);
	clearerr(stdout);
	clearerr(stderr);
	for (i = 0; i < 3; i++)
		if (dup2(saved[i], i) < 0)
			return -1;
	return rc;
}

/* the request the client of pid made, served; the answer's status */
static const char *
serve(const char *pid_text, char *status, size_t size)
{
	struct buf req = { 0 };
	char **argv = NULL, *p, *end;
	long pid, argc, i;
	int pidfd = -1, fds[3], rc;
	const char *verdict = "exec";

	pid = strtol(pid_text, NULL, 10);
	if (tool_read(lock_path, &req) < 0)
		goto out;
	p = req.data;
	end = req.data + req.len;
	if (number(&p, end) != pid || (argc = number(&p, end)) < 0)
		goto out;
	argv = calloc((size_t)argc + 2, sizeof(*argv));
	if (argv == NULL)
		goto out;
	argv[0] = "convctl";
	for (i = 1; i <= argc; i++) {
		long len = number(&p, end);

		if (len < 0 || end - p < len + 1 || p[len] != '\n')
			goto out;
		p[len] = '\0';
		argv[i] = p;
		p += len + 1;
	}
	if ((pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0)) < 0 ||
	    client_waits(pidfd) < 0 || !same_limits((pid_t)pid) ||
	    set_environment(p, end) < 0 || take_place((pid_t)pid) < 0 ||
	    take_fds(pidfd, fds) < 0)
		goto out;
	rc = run((int)argc + 1, argv, fds);
	if (rc < 0) {
		fprintf(stderr, "test-tool: serve: cannot restore the "
		    "standard descriptors: %s\n", strerror(errno));
		exit(2);
	}
	snprintf(status, size, "%d", rc);
	verdict = status;
out:
	if (pidfd >= 0)
		close(pidfd);
	free(argv);
	buf_free(&req);
	return verdict;
}

/* a FIFO of its own for the next client, at resp (renamed over it: the
 * name is never missing), this one's kept open to answer on; -1 when none
 * could be made. Each client reads a FIFO no other reads (the shell's read
 * takes a byte at a time: two readers would share one answer's bytes), and
 * the next may ask as soon as this one is answered */
static int
new_resp(void)
{
	char *tmp = path_in(dir_path, "resp.new");
	int fd = -1, rc = -1;

	if (mkfifo(tmp, 0600) == 0 &&
	    (fd = open(tmp, O_RDWR | O_CLOEXEC)) >= 0 &&
	    fstat(fd, &resp_st) == 0 && rename(tmp, resp_path) == 0)
		rc = fd;
	else if (fd >= 0)
		close(fd);
	free(tmp);
	return rc;
}

/* nftw's: path removed, whatever it is; the walk goes on past a failure */
static int
remove_one(const char *path, const struct stat *sb, int type,
    struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* the next line of req, its newline dropped, in line (size bytes); 0 when
 * the shell that started the server has ended (or req is gone), -1 when
 * interrupted: tried again */
static int
next_line(int req_fd, int shell_fd, char *line, size_t size)
{
	static char pending[256];
	static size_t have;
	struct pollfd pf[2] = { { req_fd, POLLIN, 0 }, { shell_fd, POLLIN, 0 } };

	for (;;) {
		char *nl = memchr(pending, '\n', have);
		ssize_t n;

		if (nl != NULL) {
			size_t len = (size_t)(nl - pending);

			if (len >= size)
				len = size - 1;
			memcpy(line, pending, len);
			line[len] = '\0';
			have -= (size_t)(nl + 1 - pending);
			memmove(pending, nl + 1, have);
			return 1;
		}
		if (have == sizeof(pending))
			have = 0;	/* no line is that long: not a client's */
		if (poll(pf, 2, -1) < 0)
			return errno == EINTR ? -1 : 0;
		if (pf[1].revents != 0)
			return 0;	/* the shell is gone: so is the server */
		n = read(req_fd, pending + have, sizeof(pending) - have);
		if (n <= 0)
			return n < 0 && errno == EINTR ? -1 : 0;
		have += (size_t)n;
	}
}

int
tool_serve(int argc, char **argv)
{
	static char altstack[64 * 1024];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	char line[24], status[16], *tmp_path;
	int req_fd, shell_fd, this_resp, i, got;

	if (argc == 5 && strcmp(argv[3], "--remove") == 0)
		remove_top = argv[4];
	else if (argc != 3) {
		fprintf(stderr, "usage: test-tool serve DIR SHELL-PID "
		    "[--remove TOP]\n");
		return 2;
	}
	/* gone with the test file's shell that started it (not its child:
	 * the file's `wait` waits for its own) */
	if ((shell_fd = (int)syscall(SYS_pidfd_open,
	    (pid_t)strtol(argv[2], NULL, 10), 0)) < 0) {
		fprintf(stderr, "test-tool: serve: shell %s: %s\n", argv[2],
		    strerror(errno));
		return 2;
	}
	req_path = path_in(argv[1], "req");
	resp_path = path_in(argv[1], "resp");
	lock_path = path_in(argv[1], "lock");
	dir_path = argv[1];
	if ((mkdir(argv[1], 0700) != 0 && errno != EEXIST) ||
	    (resp_fd = new_resp()) < 0) {
		fprintf(stderr, "test-tool: serve: %s: %s\n", argv[1],
		    strerror(errno));
		return 2;
	}
	/* made last, and named req only once it is open here: a client
	 * asks once req is there, and what it writes to a FIFO that no one
	 * else holds open is gone when it closes it */
	tmp_path = path_in(argv[1], "req.new");
	if (mkfifo(tmp_path, 0600) != 0 ||
	    (req_fd = open(tmp_path, O_RDWR | O_CLOEXEC)) < 0 ||
	    rename(tmp_path, req_path) != 0) {
		fprintf(stderr, "test-tool: serve: %s: %s\n", req_path,
		    strerror(errno));
		return 2;
	}
	free(tmp_path);
	/* up: the shell, reading standard output till its end (lib.sh's
	 * $(...)), goes on; the tool's report stream, a copy of it, too */
	fclose(tool_out);
	tool_out = stderr;
	for (i = 0; i < 3; i++)
		if ((saved[i] = fcntl(i, F_DUPFD_CLOEXEC, 10)) < 0)
			return 2;
	keep_start_env();
	sigaltstack(&ss, NULL);
	for (i = 0; i < (int)(sizeof(fatal) / sizeof(fatal[0])); i++) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal;
		sa.sa_flags = SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
	while ((got = next_line(req_fd, shell_fd, line, sizeof(line))) != 0) {
		const char *verdict;

		if (got < 0 || line[0] == '\0')
			continue;
		memcpy(current_pid, line, sizeof(current_pid));
		verdict = serve(line, status, sizeof(status));
		/* the next client's resp made, and the lock gone, before this
		 * one's answer: the next may ask as soon as this one has it
		 * (and goes on), and reads a FIFO of its own */
		this_resp = resp_fd;
		if ((resp_fd = new_resp()) < 0) {
			fprintf(stderr, "test-tool: serve: %s: %s\n",
			    resp_path, strerror(errno));
			return 2;
		}
		current_pid[0] = '\0';
		unlink(lock_path);
		write_answer(this_resp, line, verdict);
		close(this_resp);
	}
	/* the shell has ended: its file's directory goes with it, as its
	 * EXIT trap would have removed it (not across a mount point) */
	if (remove_top != NULL)
		nftw(remove_top, remove_one, 16, FTW_DEPTH | FTW_PHYS |
		    FTW_MOUNT);
	return 0;
}

#else

int
tool_serve(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "test-tool: serve: Linux only (pidfd_getfd)\n");
	return 2;
}

#endif
