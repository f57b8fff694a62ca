/*
 * file-path.c - which file a store path names: every symlink followed, by
 * the kernel's protected_symlinks rule whatever the sysctl says; what cannot
 * be a store (standard input, a descriptor, a directory, a device) refused
 * before anything is made; the directories a first write makes.
 *
 * It knows paths and file types only: not JSON, not the store's shape, not
 * the lock, not how the store is written.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

char *
path_dir(const char *path)
{
	char *copy = xstrdup(path), *d = xstrdup(dirname(copy));

	free(copy);
	return d;
}

/* "a directory": what a file of this type is, for errors; NULL: a regular file */
static const char *
type_name(mode_t m)
{
	if (S_ISREG(m))
		return NULL;
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int
path_not_a_store(struct error *e, const char *path, mode_t m)
{
	error_set(e, "'%s' is %s, not a store file", path, type_name(m));
	return -2;
}

/* the parents of a resolved path: an existing one must be a directory, not a
 * link someone put there since, so none is made through a link */
static int
mkdirs(char *dir, struct error *e)
{
	char *slash;
	struct stat sb;

	if (lstat(dir, &sb) == 0) {
		if (S_ISDIR(sb.st_mode))
			return 0;
		return error_set(e, "cannot create directories under '%s': it is "
		    "not a directory", dir);
	}
	if ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		if (mkdirs(dir, e) < 0)
			return -1;
		*slash = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return error_errno(e, "cannot create directory '%s'", dir);
	return 0;
}

int
path_mkdirs_for(const char *file, struct error *e)
{
	char *dir = path_dir(file);
	int rc = mkdirs(dir, e);

	free(dir);
	return rc;
}

/*
 * The kernel's protected_symlinks rule, kept whatever the sysctl says: in a
 * sticky world-writable directory (/tmp) a link is followed only when it is
 * the caller's or the directory owner's; anyone can plant one there.
 */
static int
link_protected(const char *link, const struct stat *lsb, struct error *e)
{
	char *dir = path_dir(link);
	struct stat dsb;
	int rc = 0;

	if (stat(dir, &dsb) == 0 && (dsb.st_mode & (S_ISVTX | S_IWOTH)) ==
	    (S_ISVTX | S_IWOTH) && lsb->st_uid != geteuid() &&
	    lsb->st_uid != dsb.st_uid)
		rc = error_set(e, "symlink '%s' is owned by uid %u in the sticky "
		    "world-writable directory '%s': not followed, as it is not "
		    "yours nor the directory owner's", link,
		    (unsigned)lsb->st_uid, dir);
	free(dir);
	return rc;
}

/*
 * The file a path names, every link followed (each checked by
 * link_protected), even to a target that does not exist yet: a store that is
 * a dangling link gets its target created, and the link is never replaced by
 * a regular file. *out is absolute, without links where it exists.
 */
static int
resolve(const char *path, char **out, struct error *e)
{
	struct buf done = { 0 }, rest = { 0 }, next = { 0 };
	char target[PATH_MAX], cwd[PATH_MAX], *slash;
	const char *p, *c;
	struct stat sb;
	size_t clen, mark;
	ssize_t n;
	int links = 0;

	buf_adds(&done, "");
	if (path[0] != '/') {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return error_errno(e, "cannot resolve store '%s'", path);
		buf_adds(&done, strcmp(cwd, "/") == 0 ? "" : cwd);
	}
	buf_adds(&rest, path);
	p = rest.data;
	while (*p != '\0') {
		while (*p == '/')
			p++;
		for (c = p; *p != '\0' && *p != '/'; p++)
			;
		clen = (size_t)(p - c);
		if (clen == 0 || (clen == 1 && c[0] == '.'))
			continue;
		if (clen == 2 && c[0] == '.' && c[1] == '.') {
			/* done holds no link: its parent is the path's */
			if ((slash = strrchr(done.data, '/')) != NULL) {
				done.len = (size_t)(slash - done.data);
				done.data[done.len] = '\0';
			}
			continue;
		}
		mark = done.len;
		buf_addc(&done, '/');
		buf_add(&done, c, clen);
		/* missing (the rest is made later) or not a link: go on */
		if (lstat(done.data, &sb) < 0 || !S_ISLNK(sb.st_mode))
			continue;
		if (++links > 40) {
			errno = ELOOP;
			error_errno(e, "cannot resolve store '%s'", path);
			goto fail;
		}
		if (link_protected(done.data, &sb, e) < 0)
			goto fail;
		if ((n = readlink(done.data, target, sizeof(target) - 1)) < 0) {
			error_errno(e, "cannot read symlink '%s'", done.data);
			goto fail;
		}
		target[n] = '\0';
		done.len = target[0] == '/' ? 0 : mark;
		done.data[done.len] = '\0';
		next.len = 0;
		buf_addf(&next, "%s/%s", target, p);
		buf_free(&rest);
		rest = next;
		next = (struct buf){ 0 };
		p = rest.data;
	}
	buf_free(&rest);
	if (done.len == 0)
		buf_adds(&done, "/");
	*out = buf_detach(&done);
	return 0;
fail:
	buf_free(&done);
	buf_free(&rest);
	return -1;
}

/* a name for an open descriptor: it cannot be replaced by rename */
static int
names_descriptor(const char *path)
{
	return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0 ||
	    strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0 ||
	    strncmp(path, "/dev/fd/", 8) == 0 ||
	    strncmp(path, "/proc/self/fd/", 14) == 0;
}

int
path_resolve(const char *path, char **file, struct error *e)
{
	struct stat sb;

	*file = NULL;
	if (names_descriptor(path)) {
		error_set(e, "'%s' is %s, not a store file", path,
		    strcmp(path, "-") == 0 ? "standard input here (a file "
		    "named '-' is ./-)" : "an open file descriptor");
		return -2;
	}
	/* a store that is a symlink is followed: its target is what gets replaced */
	if (resolve(path, file, e) < 0)
		return -1;
	if (stat(*file, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		free(*file);
		*file = NULL;
		return path_not_a_store(e, path, sb.st_mode);
	}
	return 0;
}
