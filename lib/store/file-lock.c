/*
 * file-lock.c - the writers' lock: an exclusive flock on FILE.lock beside the
 * store, waited for a bounded time. flock, so a killed holder never leaves it
 * held; readers never take it, as rename makes each read see one whole
 * version.
 *
 * It knows the lock file only: not the store's contents, not how the store
 * is written, not which temporary files a writer leaves.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file.h"

/*
 * Root locking a user's store leaves the lock the user's too, or the user's
 * next write could not open it; only an empty file of one name is given.
 */
static int
keep_lock_owner(int fd, const char *file, const char *lock, struct error *e)
{
	struct stat sb, lsb;

	if (geteuid() == 0 && stat(file, &sb) == 0 &&
	    fstat(fd, &lsb) == 0 && S_ISREG(lsb.st_mode) &&
	    lsb.st_nlink == 1 && lsb.st_size == 0 &&
	    (lsb.st_uid != sb.st_uid || lsb.st_gid != sb.st_gid) &&
	    fchown(fd, sb.st_uid, sb.st_gid) < 0)
		return error_errno(e, "cannot give lock '%s' the store's owner",
		    lock);
	return 0;
}

/* waits for the lock on fd, 10 ms at first, then longer, to 100 ms a try */
static int
wait_lock(int fd, const char *lock, const char *name, double wait,
    struct error *e)
{
	struct timespec nap = { 0, 10 * 1000000 };
	double waited = 0;

	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return error_errno(e, "cannot lock '%s'", lock);
		if (waited >= wait)
			return store_locked(name, wait, e);
		nanosleep(&nap, NULL);
		waited += nap.tv_nsec / 1e9;
		if (nap.tv_nsec < 100 * 1000000)
			nap.tv_nsec += 10 * 1000000;
	}
	return 0;
}

int
lock_take(const char *file, const char *name, double wait, struct error *e)
{
	struct buf lp = { 0 };
	int fd;

	buf_adds(&lp, file);
	buf_adds(&lp, ".lock");
	fd = open(lp.data, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		error_errno(e, "cannot open lock '%s'", lp.data);
	else if (keep_lock_owner(fd, file, lp.data, e) < 0 ||
	    wait_lock(fd, lp.data, name, wait, e) < 0) {
		close(fd);
		fd = -1;
	}
	buf_free(&lp);
	return fd;
}
