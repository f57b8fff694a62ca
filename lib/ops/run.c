/*
 * run.c - one command run for `convctl run`: its standard input taken first
 * when it is the prompt, the command's fed from memory and then a file, its
 * standard output copied to ours as it arrives and kept in a spool, the
 * signals a user sends forwarded; it touches no store and prints nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../convctl.h"

#define PIPE_SIZE (1 << 20)	/* asked of the output pipe (Linux's limit) */
#define CHUNK (256 << 10)	/* read at most this much at once */

/* the signals forwarded to the command, and the counts the handler keeps */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))
static volatile sig_atomic_t got[NFORWARDED];	/* not yet handled */
static volatile sig_atomic_t got_user[NFORWARDED]; /* of those, sent by kill */

static void
on_signal(int sig, siginfo_t *si, void *uc)
{
	size_t i;

	(void)uc;
	for (i = 0; i < NFORWARDED; i++)
		if (forwarded[i] == sig) {
			got[i]++;
			/* the terminal's ^C went to the command's process
			 * group, the command included: only what kill(2)
			 * sent to convctl alone is passed on */
			if (si->si_code == SI_USER || si->si_code == SI_QUEUE)
				got_user[i]++;
		}
}

static void
on_child(int sig)
{
	(void)sig;	/* it only wakes os_poll up */
}

/* the signals run_command changes, and how they were before */
struct signals {
	sigset_t block, old_mask;
	sigset_t wait;			/* the mask while os_poll waits */
	struct sigaction old[NFORWARDED], old_pipe, old_chld;
};

static void
signals_take(struct signals *s)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&s->block);
	for (i = 0; i < NFORWARDED; i++) {
		got[i] = got_user[i] = 0;
		sigaddset(&s->block, forwarded[i]);
	}
	sigaddset(&s->block, SIGCHLD);
	/* blocked but while poll waits, so none is missed between a check
	 * and the wait */
	sigprocmask(SIG_BLOCK, &s->block, &s->old_mask);
	s->wait = s->old_mask;
	for (i = 0; i < NFORWARDED; i++) {
		sigaction(forwarded[i], NULL, &s->old[i]);
		/* one ignored when convctl started (SIGINT in a background
		 * job, SIGHUP under nohup) stays ignored, by CMD too */
		if (s->old[i].sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
		sigdelset(&s->wait, forwarded[i]);
	}
	sigdelset(&s->wait, SIGCHLD);
	/* the command's end interrupts the wait (a pidfd would too, but not
	 * before Linux 5.3, nor under valgrind) */
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCHLD, &sa, &s->old_chld);
	/* a reader of our output that goes away is reported, not fatal: the
	 * command's answer is still to be recorded */
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, &s->old_pipe);
}

static void
signals_give_back(struct signals *s)
{
	size_t i;

	/* one that came after the command ended was for it: it is gone */
	os_signals_drop(&s->block);
	for (i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &s->old[i], NULL);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	sigaction(SIGCHLD, &s->old_chld, NULL);
	sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
}

/* in the child: the signals as convctl found them (an ignored one stays
 * ignored across exec: SIGPIPE, main.c's SIGXFSZ), in and out as standard
 * input and output, then CMD; what failed goes back through err */
static void
child(const struct run_request *rq, const struct signals *s, int in, int out,
    int err)
{
	size_t i;
	int code;

	for (i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &s->old[i], NULL);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
	sigaction(SIGCHLD, &s->old_chld, NULL);
	signal(SIGXFSZ, SIG_DFL);
	sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
	if (dup2(in, STDIN_FILENO) >= 0 && dup2(out, STDOUT_FILENO) >= 0)
		execvp(rq->argv[0], rq->argv);
	code = errno;
	if (write(err, &code, sizeof(code)) < 0)
		_exit(126);
	_exit(127);
}

/* fork and exec, the exec's failure told apart from CMD's own (a
 * close-on-exec pipe stays empty when exec succeeds) */
static int
spawn(const struct run_request *rq, const struct signals *s, int in, int out,
    pid_t *pid, struct error *e)
{
	int err[2], code = 0, status;
	ssize_t n;

	if (os_pipe(err) < 0)
		return error_errno(e, "cannot make a pipe");
	if ((*pid = fork()) < 0) {
		close(err[0]);
		close(err[1]);
		return error_errno(e, "cannot run '%s'", rq->argv[0]);
	}
	if (*pid == 0)
		child(rq, s, in, out, err[1]);
	close(err[1]);
	while ((n = read(err[0], &code, sizeof(code))) < 0 && errno == EINTR)
		;
	close(err[0]);
	if (n == (ssize_t)sizeof(code)) {
		while (waitpid(*pid, &status, 0) < 0 && errno == EINTR)
			;
		errno = code;
		return error_errno(e, "cannot run '%s'", rq->argv[0]);
	}
	return 0;
}

/* all of s[0..n) to fd, or -1 with errno */
static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(fd, s, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* the output is still kept: it may yet be recorded */
static int
kept(const struct run_request *rq)
{
	return rq->spool != NULL && rq->spool->fd >= 0;
}

/* n more bytes came: past the limit, none of it can be recorded */
static void
count_output(const struct run_request *rq, struct run_result *r, size_t n)
{
	r->out_bytes += n;
	if (!r->overflow && r->out_bytes > rq->keep_max) {
		r->overflow = 1;
		if (kept(rq))
			spool_drop(rq->spool);
	}
}

/*
 * Text checked as UTF-8 a chunk at a time, just read and still in the cache,
 * rather than all of it again at the end: up to the last character that may
 * still lack bytes (a lead byte among the last three), which is carried over
 * to go before the next chunk; all of it once the text has ended. A cut
 * before a character's first byte is a place a walk over the whole text
 * passes too, so the offset is the same.
 */
void
utf8_chunk(struct utf8_chunks *u, char *p, size_t n, int ended)
{
	const unsigned char *s = (const unsigned char *)p - u->carry;
	size_t len = u->carry + n, cut = len, q;
	long bad;

	if (u->bad >= 0)
		return;
	for (q = cut; !ended && q > 0 && cut - q < 3; q--)
		if ((s[q - 1] & 0xc0) != 0x80) {
			if (s[q - 1] >= 0xc0)
				cut = q - 1;
			break;
		}
	if ((bad = utf8_invalid_at((const char *)s, cut)) >= 0) {
		u->bad = (long)u->checked + bad;
		return;
	}
	u->checked += cut;
	u->carry = len - cut;
	memmove(p - u->carry, s + cut, u->carry);
}

int
run_take_input(int fd, const char *name, size_t max, const char *setting,
    int raw, struct spool *sp, long *not_utf8, struct error *e)
{
	char *scratch = xmalloc(UTF8_CARRY + CHUNK), *p = scratch + UTF8_CARRY;
	struct utf8_chunks u = { 0, 0, -1 };
	size_t len = 0;
	ssize_t n;
	int rc = -1;

	for (;;) {
		if ((n = read(fd, p, CHUNK)) == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno(e, "cannot read '%s'", name);
			goto out;
		}
		if ((len += (size_t)n) > max) {
			error_too_large(e, name, max, setting);
			goto out;
		}
		if (write_all(raw, p, (size_t)n) < 0) {
			error_errno(e, "cannot keep '%s' in a temporary file",
			    name);
			goto out;
		}
		utf8_chunk(&u, p, (size_t)n, 0);
		spool_add(sp, p, (size_t)n);
	}
	utf8_chunk(&u, p, 0, 1);
	*not_utf8 = u.bad;
	if (spool_end(sp) < 0) {
		error_errno(e, "cannot keep '%s' in a temporary file", name);
		goto out;
	}
	rc = 0;
out:
	free(scratch);
	return rc;
}

/* the output's way from the command to us and on */
struct relay {
	char *scratch;		/* UTF8_CARRY + CHUNK: a chunk is read at
				 * UTF8_CARRY */
	struct utf8_chunks u;	/* the kept output checked as UTF-8 */
	int no_splice;		/* the output fd cannot take splice(2) */
};

/* output not kept, moved from the pipe to ours without passing through
 * us: 1, 0 at its end, -1 when splice cannot (then read and write) */
static int
splice_output(const struct run_request *rq, struct run_result *r, int fd,
    struct relay *rl)
{
	ssize_t n = os_splice(fd, NULL, rq->out_fd, CHUNK, 0);

	if (n > 0) {
		count_output(rq, r, (size_t)n);
		return 1;
	}
	if (n == 0)
		return 0;
	if (errno == EINTR)
		return 1;
	/* not a file, a pipe or a device splice writes to (a terminal,
	 * O_APPEND), or stdout failed or would block: write() says which */
	rl->no_splice = 1;
	return -1;
}

/* a chunk of the command's output: passed on, and spooled while it may be
 * recorded (no longer once it is too long or not UTF-8) */
static int
read_output(const struct run_request *rq, struct run_result *r, int fd,
    struct relay *rl)
{
	char *p = rl->scratch + UTF8_CARRY;
	ssize_t n;
	int rc;

	if (!kept(rq) && r->out_errno == 0 && !rl->no_splice &&
	    (rc = splice_output(rq, r, fd, rl)) >= 0)
		return rc;
	if ((n = read(fd, p, CHUNK)) <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN) ? 1 : 0;
	if (r->out_errno == 0 && write_all(rq->out_fd, p, (size_t)n) < 0)
		r->out_errno = errno;	/* no more passed on; still kept */
	count_output(rq, r, (size_t)n);
	if (kept(rq)) {
		utf8_chunk(&rl->u, p, (size_t)n, 0);
		if ((r->not_utf8 = rl->u.bad) >= 0)
			spool_drop(rq->spool);
		else
			spool_add(rq->spool, p, (size_t)n);
	}
	return 1;
}

/* the signals that came in: passed on; 1 when a second SIGINT says to stop
 * waiting */
static int
forward(pid_t pid, int *sigints)
{
	size_t i;
	int stop = 0;

	for (i = 0; i < NFORWARDED; i++) {
		for (; got_user[i] > 0; got_user[i]--)
			kill(pid, forwarded[i]);
		for (; got[i] > 0; got[i]--)
			if (forwarded[i] == SIGINT && ++*sigints >= 2)
				stop = 1;
	}
	return stop;
}

/* how much of the command's input is written: of input, of then_fd */
struct feed {
	size_t fed;
	off_t off;
};

/* the next of the command's input written, as much as the pipe takes: 0 when
 * all of it is, or the command closed its input (EPIPE) */
static int
feed(const struct run_request *rq, struct feed *f, int in)
{
	char b[PIPE_BUF];
	ssize_t w, n;

	if (f->fed < rq->input_len) {
		w = write(in, rq->input + f->fed, rq->input_len - f->fed);
		if (w > 0)
			f->fed += (size_t)w;
		if (w < 0 && errno != EINTR && errno != EAGAIN)
			return 0;
		return f->fed < rq->input_len || rq->then_fd >= 0;
	}
	/* the file moved to the pipe by the kernel; where splice cannot, a
	 * pipe's atomic write at a time: all of it taken, or none */
	if ((w = os_splice(rq->then_fd, &f->off, in, CHUNK, 1)) < 0 &&
	    errno == EINVAL) {
		if ((n = pread(rq->then_fd, b, sizeof(b), f->off)) <= 0)
			return n < 0 && errno == EINTR;
		if ((w = write(in, b, (size_t)n)) > 0)
			f->off += w;
	}
	return w > 0 || (w < 0 && (errno == EINTR || errno == EAGAIN));
}

static void
set_status(struct run_result *r, int status)
{
	if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
		r->exit_code = 128 + r->signal;	/* as shells say it */
	} else
		r->exit_code = WEXITSTATUS(status);
}

/* the loop: input written, output read, signals passed on, until the
 * output ends and the command has exited (or a second SIGINT) */
static void
pump(const struct run_request *rq, struct run_result *r, pid_t pid, int in,
    int out, const sigset_t *waitmask)
{
	struct relay rl = { xmalloc(UTF8_CARRY + CHUNK), { 0, 0, -1 }, 0 };
	struct feed f = { 0, 0 };
	int sigints = 0, exited = 0, status;
	struct pollfd p[2];

	if (rq->input_len == 0 && rq->then_fd < 0) {
		close(in);
		in = -1;
	}
	while (out >= 0 || !exited) {
		nfds_t n = 0;
		int i_in = -1, i_out = -1;

		if (in >= 0) {
			p[i_in = (int)n++] = (struct pollfd){ in, POLLOUT, 0 };
		}
		if (out >= 0)
			p[i_out = (int)n++] = (struct pollfd){ out, POLLIN, 0 };
		/* SIGCHLD (or another signal) ends the wait with EINTR */
		if (os_poll(p, n, waitmask) < 0 && errno != EINTR)
			break;		/* cannot wait on the pipes: on the exit */
		if (forward(pid, &sigints)) {
			r->abandoned = 1;
			r->exit_code = 128 + SIGINT;
			break;
		}
		if (i_in >= 0 && p[i_in].revents != 0 && !feed(rq, &f, in)) {
			close(in);
			in = -1;
		}
		if (i_out >= 0 && p[i_out].revents != 0 &&
		    !read_output(rq, r, out, &rl)) {
			close(out);
			out = -1;
		}
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			set_status(r, status);
		}
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (!exited && !r->abandoned && waitpid(pid, &status, 0) == pid)
		set_status(r, status);
	if (kept(rq)) {		/* a character cut short at the end */
		utf8_chunk(&rl.u, rl.scratch + UTF8_CARRY, 0, 1);
		if ((r->not_utf8 = rl.u.bad) >= 0)
			spool_drop(rq->spool);
	}
	free(rl.scratch);
}

static void
close_pair(int *p)
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
}

int
run_command(const struct run_request *rq, struct run_result *r,
    struct error *e)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, rc = -1;
	struct signals sig;
	pid_t pid = -1;

	memset(r, 0, sizeof(*r));
	r->not_utf8 = -1;
	if (os_pipe(in) < 0 || os_pipe(out) < 0) {
		error_errno(e, "cannot make a pipe");
		goto fail;
	}
	/* the input is written as the command takes it, between reads of
	 * its output: a command that answers before reading all its input
	 * must not wait on us while we wait on it */
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	/* fewer, larger hand-overs from the command to us: on a busy machine
	 * each one waits for a processor; a read still returns what is there */
	os_pipe_grow(out[0], PIPE_SIZE);
	signals_take(&sig);
	if (spawn(rq, &sig, in[0], out[1], &pid, e) < 0) {
		rc = errno;	/* for the caller: not found, or not runnable */
		signals_give_back(&sig);
		close_pair(in);
		close_pair(out);
		errno = rc;
		return -1;
	}
	close(in[0]);
	close(out[1]);
	r->pid = pid;
	pump(rq, r, pid, in[1], out[0], &sig.wait);
	signals_give_back(&sig);
	return 0;
fail:
	close_pair(in);
	close_pair(out);
	return rc;
}

