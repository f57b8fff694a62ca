/*
 * os.h - the system's facilities that not every system has, each behind one
 * function (os.c) that uses the fast one where scripts/configure found it
 * (Linux's splice, copy_file_range, O_TMPFILE, ...) and a POSIX way
 * elsewhere: the one place the choice is made. `make PORTABLE=1` builds
 * with only what POSIX.1-2008, macOS and FreeBSD all have.
 */
#ifndef CONVCTL_OS_H
#define CONVCTL_OS_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* a pipe whose both ends close on exec */
int os_pipe(int fd[2]);
/* fd's pipe buffer grown to size bytes, where the system allows it */
void os_pipe_grow(int fd, int size);
/* a random 32-bit number from the system's entropy; -1 when it has none
 * to give yet (early boot) */
int os_random32(uint32_t *);
/* up to len bytes at *off of in written to out by the kernel, *off moved
 * on; -1 with ENOSYS where the system cannot (the caller reads and writes) */
ssize_t os_copy_file_range(int in, off_t *off, int out, size_t len);
/* up to len bytes moved from in (at *off, when off is not NULL) to out by
 * the kernel, one of them a pipe; -1 with EINVAL where it cannot */
ssize_t os_splice(int in, off_t *off, int out, size_t len, int nonblock);
/* a file open for reading and writing in dir that has no name: gone when
 * closed; -1 with errno (ENOENT when dir is NULL) */
int os_open_unnamed(const char *dir);
/* freed blocks of at least bytes go back to the system at once (glibc
 * otherwise raises its threshold and keeps them) */
void os_malloc_give_back(size_t bytes);
/* the free memory at the top of the heap and in its holes given back to the
 * system now, where the allocator can be asked to */
void os_malloc_trim(void);
/* the whole pages of p[0..n), about to be written all through, made present
 * with one call where the kernel can; fresh anonymous memory in huge pages */
void os_prefault(void *p, size_t n);
void os_hugepages(void *p, size_t n);
/* mmap's flag to read a file mapping in at once, 0 where there is none */
int os_map_populate(void);
/* poll(2) with mask as the signal mask while it waits, atomically */
int os_poll(struct pollfd *, nfds_t, const sigset_t *mask);
/* takes, without waiting, every pending signal of set */
void os_signals_drop(const sigset_t *set);
/* n bytes of p zeroed, even when the compiler sees no later read */
void os_wipe(void *p, size_t n);

#endif
