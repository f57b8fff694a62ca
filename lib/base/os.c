/*
 * os.c - each facility of os.h, its fast way where build/config.h
 * (scripts/configure) says the system has it, its POSIX way elsewhere.
 * Nothing else in the tree tests a HAVE_ macro.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <unistd.h>

#include "config.h"
#if HAVE_GETRANDOM || HAVE_GETENTROPY
#include <sys/random.h>
#endif
#if HAVE_MALLOPT || HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

#include "base.h"
#include "os.h"

int
os_pipe(int fd[2])
{
#if HAVE_PIPE2
	return pipe2(fd, O_CLOEXEC);
#else
	if (pipe(fd) < 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) < 0) {
		int saved = errno;

		close(fd[0]);
		close(fd[1]);
		errno = saved;
		return -1;
	}
	return 0;
#endif
}

void
os_pipe_grow(int fd, int size)
{
#if HAVE_F_SETPIPE_SZ
	(void)fcntl(fd, F_SETPIPE_SZ, size);
#else
	(void)fd;
	(void)size;
#endif
}

int
os_random32(uint32_t *r)
{
#if HAVE_GETRANDOM
	return getrandom(r, sizeof(*r), GRND_NONBLOCK) == (ssize_t)sizeof(*r) ?
	    0 : -1;
#elif HAVE_GETENTROPY
	return getentropy(r, sizeof(*r));
#else
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = read(fd, r, sizeof(*r));
		close(fd);
	}
	return n == (ssize_t)sizeof(*r) ? 0 : -1;
#endif
}

ssize_t
os_copy_file_range(int in, off_t *off, int out, size_t len)
{
#if HAVE_COPY_FILE_RANGE
	return copy_file_range(in, off, out, NULL, len, 0);
#else
	(void)in;
	(void)off;
	(void)out;
	(void)len;
	errno = ENOSYS;
	return -1;
#endif
}

ssize_t
os_splice(int in, off_t *off, int out, size_t len, int nonblock)
{
#if HAVE_SPLICE
	return splice(in, off, out, NULL, len, nonblock ? SPLICE_F_NONBLOCK : 0);
#else
	(void)in;
	(void)off;
	(void)out;
	(void)len;
	(void)nonblock;
	errno = EINVAL;
	return -1;
#endif
}

int
os_open_unnamed(const char *dir)
{
	size_t len;
	char *name;
	int fd;

	if (dir == NULL) {	/* no directory: none there */
		errno = ENOENT;
		return -1;
	}
	len = strlen(dir) + sizeof("/.convctl-spool.XXXXXX");

#if HAVE_O_TMPFILE
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) >= 0)
		return fd;
#endif
	/* no O_TMPFILE here, or not on this filesystem: a name for an
	 * instant */
	if ((name = malloc(len)) == NULL)
		return -1;
	snprintf(name, len, "%s/.convctl-spool.XXXXXX", dir);
	if ((fd = mkstemp(name)) >= 0) {
		unlink(name);
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
			close(fd);
			fd = -1;
		}
	}
	free(name);
	return fd;
}

void
os_malloc_give_back(size_t bytes)
{
#if HAVE_MALLOPT
	mallopt(M_MMAP_THRESHOLD, (int)bytes);
#else
	(void)bytes;
#endif
}

void
os_malloc_trim(void)
{
#if HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
}

void
os_prefault(void *p, size_t n)
{
#if HAVE_MADV_POPULATE_WRITE
	(void)madvise(p, n, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void
os_hugepages(void *p, size_t n)
{
#if HAVE_MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

int
os_map_populate(void)
{
#if HAVE_MAP_POPULATE
	return MAP_POPULATE;
#else
	return 0;
#endif
}

int
os_poll(struct pollfd *p, nfds_t n, const sigset_t *mask)
{
#if HAVE_PPOLL
	return ppoll(p, n, NULL, mask);
#else
	/* pselect(2), POSIX's wait with a signal mask; the descriptors are
	 * few and small, so fd_set holds them */
	fd_set r, w;
	nfds_t i;
	int top = -1, rc;

	FD_ZERO(&r);
	FD_ZERO(&w);
	for (i = 0; i < n; i++) {
		if (p[i].fd < 0 || p[i].fd >= FD_SETSIZE)
			continue;
		if (p[i].events & POLLIN)
			FD_SET(p[i].fd, &r);
		if (p[i].events & POLLOUT)
			FD_SET(p[i].fd, &w);
		if (p[i].fd > top)
			top = p[i].fd;
	}
	if ((rc = pselect(top + 1, &r, &w, NULL, NULL, mask)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		p[i].revents = 0;
		if (p[i].fd < 0 || p[i].fd >= FD_SETSIZE)
			continue;
		/* a closed other end is readable (EOF) or writable (EPIPE):
		 * the caller's read or write says which */
		if (FD_ISSET(p[i].fd, &r))
			p[i].revents |= POLLIN;
		if (FD_ISSET(p[i].fd, &w))
			p[i].revents |= POLLOUT;
	}
	return rc;
#endif
}

void
os_signals_drop(const sigset_t *set)
{
#if HAVE_SIGTIMEDWAIT
	struct timespec now = { 0, 0 };

	while (sigtimedwait(set, NULL, &now) > 0)
		;
#else
	sigset_t pending;
	int sig;

	/* sigwait(2) takes a pending one without waiting */
	while (sigpending(&pending) == 0) {
		int any = 0;

		for (sig = 1; sig < NSIG; sig++)
			if (sigismember(set, sig) == 1 &&
			    sigismember(&pending, sig) == 1) {
				sigset_t one;
				int got;

				sigemptyset(&one);
				sigaddset(&one, sig);
				(void)sigwait(&one, &got);
				any = 1;
			}
		if (!any)
			break;
	}
#endif
}

void
os_wipe(void *p, size_t n)
{
#if HAVE_EXPLICIT_BZERO
	explicit_bzero(p, n);
#else
	volatile unsigned char *v = p;

	while (n-- > 0)
		*v++ = 0;
#endif
}

/*
 * The whole pages of p[0..n) made present with one call: a page's first
 * write otherwise traps into the kernel, which in a virtual machine costs
 * several times more (10 MB of fresh memory: 60 ms of faults against 15 ms).
 * Only for memory about to be written all through; a kernel without it
 * leaves the pages to fault as before.
 */
void
mem_prefault(void *p, size_t n)
{
	static long page;
	uintptr_t from, to;

	if (page == 0)
		page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || n < (size_t)page)
		return;
	from = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	to = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
	if (from < to)
		os_prefault((void *)from, to - from);
}
