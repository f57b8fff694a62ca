/*
 * file-rec.c - one conversation of the store file read where its index
 * record says it is, checked as a whole load checks it; and whether the
 * file is still the one read. Below file.c (open and load) and file-save.c
 * (which loads the records it must rewrite), so neither needs the other's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan.h"
#include "file.h"

int
file_changed(struct store *st, struct error *e)
{
	return error_set(e, "store '%s' changed while it was read (another "
	    "program writes it in place); try again", st->path);
}

int
file_unchanged(struct store *st, int fd, const struct stat *sb,
    struct error *e)
{
	struct stat now;

	if (fstat(fd, &now) < 0)
		return error_errno(e, "cannot stat store '%s'", st->path);
	/* a writer renamed a new store over it: the unlink moved its ctime,
	 * and nothing can change it in place through the name any more */
	if (now.st_nlink == 0)
		now.st_ctim = sb->st_ctim;
	return index_same_file(sb, &now) ? 0 : file_changed(st, e);
}

/* len bytes at off of the store into p; all of them, or an error */
int
file_read_at(struct store *st, char *p, size_t len, size_t off,
    struct error *e)
{
	struct file_state *fs = st->be;
	ssize_t n;

	while (len > 0) {
		n = pread(fs->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_errno(e, "cannot read store '%s'", st->path);
		if (n == 0)
			return file_changed(st, e);
		p += n;
		off += (size_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int
file_load_rec(struct store *st, size_t i, struct error *e)
{
	struct file_state *fs = st->be;
	const struct index_rec *r = &fs->ix->rec[i];
	const char *id = fs->ix->str + r->id;
	struct file_conv *fc;
	struct scan_conv sc;
	struct conv *c;

	if (fs->got[i] || store_loaded(st, id) != NULL)
		return 0;	/* what st holds is newer */
	fc = xmalloc(sizeof(*fc) + r->len + 1);
	fc->off = r->off;
	if (file_read_at(st, fc->bytes, r->len, r->off, e) < 0) {
		free(fc);
		return -1;
	}
	fc->bytes[r->len] = '\0';
	/* the same checks as a whole load's; the index must agree with them */
	if (scan_conv(fc->bytes, r->len, &sc) < 0) {
		free(fc);
		return file_changed(st, e);
	}
	if (strcmp(sc.id, id) != 0 || sc.started != r->started ||
	    sc.ended != r->ended || sc.last != r->last ||
	    (r->newest != INT64_MAX && sc.newest != r->newest) ||
	    sc.nmsg != r->nmsg ||
	    !sc.canonical != !(r->flags & INDEX_CANONICAL)) {
		scan_conv_clear(&sc);
		free(fc);
		return file_changed(st, e);
	}
	c = conv_of_scan(&sc, fc->bytes, r->len);
	c->pos = (int64_t)i;
	c->be = fc;
	store_push(st, c);
	fs->got[i] = 1;
	return 0;
}

/*
 * The store file mapped, for a reader: the page cache read where it is, no
 * fresh memory zeroed and filled with a copy. A mapping of a file that
 * another program truncates in place kills the reader with SIGBUS where a
 * read sees the change and says so; so the file is mapped only under a read
 * lease (fcntl F_SETLEASE), which the kernel grants only while no one has
 * it open for writing, and which then makes whoever opens it to write, or
 * truncates it, wait until the lease is given up: until file_close()
 * unmaps it and closes fd (or /proc/sys/fs/lease-break-time passes, 45 s
 * by default; search holds the mapping only while it searches). The
 * lease's break is told by SIGURG, which is ignored unless caught, not by
 * SIGIO, which would kill us. 1: mapped, fd kept in fs->mapfd; 0: no lease
 * (a writer has the file open, it is not ours, the filesystem has none) or
 * no mapping, or the file is no longer sb: the caller reads it.
 */
int
file_map_leased(struct file_state *fs, int fd, const struct stat *sb)
{
	struct stat now;
	void *p;

	if (sb->st_size == 0 || fcntl(fd, F_SETSIG, SIGURG) < 0 ||
	    fcntl(fd, F_SETLEASE, F_RDLCK) < 0)
		return 0;
	/* the size mapped is the size it keeps while leased */
	if (fstat(fd, &now) < 0 || !index_same_file(sb, &now))
		goto no;
	p = mmap(NULL, (size_t)sb->st_size, PROT_READ, MAP_PRIVATE |
	    MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED)
		goto no;
	fs->data = p;
	fs->len = (size_t)sb->st_size;
	fs->filemap = fs->len;
	fs->mapfd = fd;
	return 1;
no:
	(void)fcntl(fd, F_SETLEASE, F_UNLCK);
	return 0;
}
