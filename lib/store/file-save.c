/*
 * file-save.c - writing the store: its text, and the atomic replace of the file.
 *
 * The new store goes to a fresh temporary file in the store's directory, is
 * flushed to disk, renamed over the store and the directory flushed, so a
 * crash at any instant leaves the old store or the new one. The text is made
 * as pieces: conversations that were not changed go back as the bytes they
 * were in the old file, with one writev. The pieces are written to the
 * temporary file as they are made, whenever the text made here reaches
 * SPILL_AT bytes, so a store of many new conversations (an import) is never
 * held as text whole beside them.
 *
 * It knows the file's layout and the conversations' bytes (file.h), but
 * not how the file was read or checked, nor the path's links, nor the lock;
 * it only requires that the caller holds it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "scan.h"
#include "file.h"

/* temporary files are .BASE.convctl-tmp.XXXXXX: no one else writes the mark */
#define TEMP_MARK ".convctl-tmp."

/*
 * Only a lock holder makes temporary files, and it renames or removes its own
 * before it lets the lock go; so one found while holding the lock, with the
 * mark, a regular file of the caller's with no other name, was left by a
 * writer that was killed. Nothing else is touched.
 */
void
save_sweep_temps(const char *file)
{
	char *dir = path_dir(file), *copy = xstrdup(file), *base = basename(copy);
	size_t blen = strlen(base), mlen = strlen(TEMP_MARK);
	struct dirent *d;
	struct stat sb;
	DIR *dp;

	if ((dp = opendir(dir)) != NULL) {
		while ((d = readdir(dp)) != NULL) {
			const char *n = d->d_name;

			if (n[0] == '.' && strncmp(n + 1, base, blen) == 0 &&
			    strncmp(n + 1 + blen, TEMP_MARK, mlen) == 0 &&
			    strlen(n + 1 + blen + mlen) == 6 &&
			    fstatat(dirfd(dp), n, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(sb.st_mode) && sb.st_uid == geteuid() &&
			    sb.st_nlink == 1)
				unlinkat(dirfd(dp), n, 0);
		}
		closedir(dp);
	}
	free(dir);
	free(copy);
}

/*
 * The new file as pieces: text made here, and ranges of the old file that
 * are written back as they were, from memory when it was loaded whole, else
 * (with an index) copied from file to file. Ranges that follow each other
 * in the old file become one piece, so a store where one conversation
 * changed is written with a handful of iovecs or copies. A message whose
 * content is spooled (convctl run's prompt or answer) has it copied from its
 * spool.
 */
enum { IN_MEMORY, OLD_FILE, SPOOL };	/* SPOOL + i: st->spooled[i]'s */
struct piece {
	const char *p;		/* in memory; NULL: text + off, or a file's */
	size_t off, len;
	int file;		/* IN_MEMORY, else whose bytes at off: the old
				 * file's or a spool's (st->spooled) */
};
struct pieces {
	struct buf text;
	struct piece *v;
	size_t n, cap;
	size_t total;		/* the bytes of the pieces so far */
	int to_file;		/* old bytes as ranges of the old file */
	int merge;		/* old bytes in memory are fs->data's */
	struct index_build *ix;	/* what is written, for its index; or NULL */
	int ix_bad;		/* something written could not be indexed */
	/* where the pieces go as they are made (save_file()), or -1: kept
	 * whole (store_text()) */
	int fd, old;		/* the temporary file, the old file */
	const struct store *st;	/* whose spools the pieces may copy from */
	int werr;		/* the errno of a write that failed, or 0 */
};

/* the text made here that is written out before more is made */
#define SPILL_AT (1024 * 1024)

static void
piece_add(struct pieces *o, const char *p, size_t off, size_t len, int file)
{
	struct piece *last = o->n ? &o->v[o->n - 1] : NULL;

	if (len == 0)
		return;
	o->total += len;
	/* text joins text that ends where it starts; old bytes join old bytes
	 * that end where they start (never arithmetic on a NULL text piece) */
	if (last != NULL && last->file == file && (file ?
	    last->off + last->len == off : p == NULL ? last->p == NULL &&
	    last->off + last->len == off :
	    last->p != NULL && last->p + last->len == p)) {
		last->len += len;
		return;
	}
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 16;
		o->v = xrealloc(o->v, o->cap * sizeof(*o->v));
	}
	o->v[o->n].p = p;
	o->v[o->n].off = off;
	o->v[o->n].file = file;
	o->v[o->n++].len = len;
}

static void
piece_text(struct pieces *o, const char *s, size_t n)
{
	size_t off = o->text.len;

	buf_add(&o->text, s, n);
	piece_add(o, NULL, off, n, IN_MEMORY);
}

static void
piece_json(struct pieces *o, const json_t *v)
{
	size_t off = o->text.len;

	json_dump_buf(&o->text, v);
	piece_add(o, NULL, off, o->text.len - off, IN_MEMORY);
}

#define SEP_FIRST "\n    "
#define SEP_NEXT ",\n    "

static unsigned
sep_flags(const char *sep)
{
	return INDEX_SEP5 | (*sep == ',' ? INDEX_SEP6 : 0);
}

/* sep and len bytes at off of the old file, whose record says flags */
static void
piece_old(struct pieces *o, const char *sep, size_t off, size_t len,
    unsigned flags)
{
	size_t n = strlen(sep);

	if (flags & (*sep == ',' ? INDEX_SEP6 : INDEX_SEP5))
		piece_add(o, NULL, off - n, n + len, OLD_FILE);
	else {
		piece_text(o, sep, n);
		piece_add(o, NULL, off, len, OLD_FILE);
	}
}

/*
 * c dumped into the text, each spooled content's bytes copied from its spool
 * in place of the "" that stands in for it ("content":" the spool's bytes ").
 */
static void
piece_dump(struct store *st, struct pieces *o, struct conv *c)
{
	const json_t *want[NSPOOLED];
	struct json_hole at[NSPOOLED];
	size_t from = o->text.len, i, n;

	for (i = 0; i < NSPOOLED; i++)
		want[i] = st->spooled[i].value;
	n = json_dump_holes(&o->text, c->obj, want, NSPOOLED, at);
	for (i = 0; i < n; from = at[i++].at) {
		piece_add(o, NULL, from, at[i].at - from, IN_MEMORY);
		piece_add(o, NULL, 0, st->spooled[at[i].which].len,
		    SPOOL + (int)at[i].which);
	}
	piece_add(o, NULL, from, o->text.len - from, IN_MEMORY);
}

/* sep and then c: the old bytes when the old file had them so */
static void
piece_conv(struct store *st, struct pieces *o, const char *sep, struct conv *c)
{
	struct file_state *fs = st->be;
	struct piece *last = o->n ? &o->v[o->n - 1] : NULL;
	struct scan_conv sc;
	size_t n = strlen(sep), at, toff;

	if (c->raw != NULL && !c->canonical)
		conv_json(c);	/* as jansson writes it: one line */
	if (c->raw == NULL) {
		piece_text(o, sep, n);
		at = o->total;
		toff = o->text.len;
		piece_dump(st, o, c);
		/* what it says of itself, by the scanner that will read it (a
		 * spooled content as "": its bytes tell nothing of that, and are
		 * escaped by the same writer) */
		if (o->ix == NULL)
			return;
		if (scan_conv(o->text.data + toff, o->text.len - toff, &sc) < 0) {
			o->ix_bad = 1;
			return;
		}
		index_add_conv(o->ix, at, o->total - at, sc.id, sc.started,
		    sc.ended, sc.last, sc.newest, sc.nmsg, (sc.canonical ? INDEX_CANONICAL :
		    0) | sep_flags(sep));
		scan_conv_clear(&sc);
		return;
	}
	if (o->to_file && c->text == NULL)
		piece_old(o, sep, ((struct file_conv *)c->be)->off, c->rawlen,
		    fs->ix->rec[c->pos].flags);
	else if (o->merge && c->text == NULL && last != NULL &&
	    last->p != NULL && last->p + last->len + n == c->raw &&
	    memcmp(c->raw - n, sep, n) == 0)
		piece_add(o, c->raw - n, 0, n + c->rawlen, IN_MEMORY);
	else {
		piece_text(o, sep, n);
		piece_add(o, c->raw, 0, c->rawlen, IN_MEMORY);
	}
	if (o->ix != NULL)
		index_add_conv(o->ix, o->total - c->rawlen, c->rawlen, c->id,
		    c->started, c->ended, c->last, c->newest, c->nmsg,
		    INDEX_CANONICAL | sep_flags(sep));
}

/* record i of the index, not loaded: its bytes as they are in the old file */
static void
piece_rec(struct store *st, struct pieces *o, const char *sep, size_t i)
{
	const struct index *ix = ((struct file_state *)st->be)->ix;
	const struct index_rec *r = &ix->rec[i];

	piece_old(o, sep, r->off, r->len, r->flags);
	if (o->ix != NULL)
		index_add_conv(o->ix, o->total - r->len, r->len, ix->str + r->id,
		    r->started, r->ended, r->last, r->newest, r->nmsg,
		    INDEX_CANONICAL | sep_flags(sep));
}

static int write_pieces(int fd, int old, const struct store *st,
    struct pieces *o);

/*
 * The pieces so far written to the temporary file and let go of, once the
 * text made here is SPILL_AT bytes or more (never between a conversation's
 * text and the scan of it for the index): 0, or -1 with o->werr set.
 */
static int
spill(struct pieces *o)
{
	if (o->fd < 0 || o->text.len < SPILL_AT)
		return 0;
	if (write_pieces(o->fd, o->old, o->st, o) < 0) {
		o->werr = errno ? errno : EIO;
		return -1;
	}
	o->n = 0;
	o->text.len = 0;
	return 0;
}

/*
 * A record the old file does not hold as jansson writes it, loaded, to be
 * written so (before the temporary file is made: its errors are the old
 * file's).
 */
static int
load_uncanonical(struct store *st, struct error *e)
{
	struct file_state *fs = st->be;
	size_t i;

	for (i = 0; fs->ix != NULL && i < fs->ix->n; i++)
		if (!fs->got[i] && !(fs->ix->rec[i].flags & INDEX_CANONICAL) &&
		    file_load_rec(st, i, e) < 0)
			return -1;
	return 0;
}

/*
 * With an index, the conversations in stored order: each record of the old
 * file as loaded (and maybe changed), gone (removed) or as it is there, then
 * the new ones (after load_uncanonical()). 1: some, 0: none,
 * -1: a write failed (o->werr).
 */
static int
conversations_indexed(struct store *st, struct pieces *o)
{
	struct file_state *fs = st->be;
	const struct index *ix = fs->ix;
	struct conv **at, **fresh;
	size_t i, k = 0, nout = 0;
	int rc = -1;

	at = xmalloc((ix->n + 1) * sizeof(*at));
	memset(at, 0, (ix->n + 1) * sizeof(*at));
	fresh = xmalloc((st->n + 1) * sizeof(*fresh));
	for (i = 0; i < st->n; i++)
		if (st->conv[i]->pos >= 0 && (size_t)st->conv[i]->pos < ix->n)
			at[st->conv[i]->pos] = st->conv[i];
		else
			fresh[k++] = st->conv[i];
	qsort(fresh, k, sizeof(*fresh), conv_by_pos);
	for (i = 0; i < ix->n; i++) {
		if (at[i] != NULL)
			piece_conv(st, o, nout++ ? SEP_NEXT : SEP_FIRST, at[i]);
		else if (!fs->got[i])
			piece_rec(st, o, nout++ ? SEP_NEXT : SEP_FIRST, i);
		if (spill(o) < 0)
			goto out;
	}
	for (i = 0; i < k; i++) {
		piece_conv(st, o, nout++ ? SEP_NEXT : SEP_FIRST, fresh[i]);
		if (spill(o) < 0)
			goto out;
	}
	rc = nout > 0;
out:
	free(at);
	free(fresh);
	return rc;
}

/*
 * the file's text: one conversation a line, so a diff or grep stays
 * readable; -1: a write of what was made so far failed (o->werr)
 */
static int
serialize(struct store *st, struct pieces *o)
{
	struct file_state *fs = st->be;
	const char *key;
	json_t *v, *k;
	size_t i, klen, off = o->text.len, at;
	int any;

	buf_addf(&o->text, "{\n  \"version\": %d,\n  \"conversations\": [",
	    STORE_VERSION);
	if (o->ix != NULL) {
		at = strlen("{\n  \"version\": ");
		index_add_member(o->ix, "version", 7, at,
		    (size_t)(strchr(o->text.data + off + at, ',') -
		    (o->text.data + off + at)));
	}
	piece_add(o, NULL, off, o->text.len - off, IN_MEMORY);
	if (o->to_file) {
		if ((any = conversations_indexed(st, o)) < 0)
			return -1;
	} else {
		for (i = 0; i < st->n; i++) {
			piece_conv(st, o, i ? SEP_NEXT : SEP_FIRST, st->conv[i]);
			if (spill(o) < 0)
				return -1;
		}
		any = st->n > 0;
	}
	piece_text(o, any ? "\n  ]" : "]", any ? 4 : 1);
	json_object_keylen_foreach(st->root, key, klen, v) {
		if (strcmp(key, "version") == 0)
			continue;
		k = json_stringn(key, klen);
		piece_text(o, ",\n  ", 4);
		piece_json(o, k);
		piece_text(o, ": ", 2);
		at = o->total;
		piece_json(o, v);
		if (o->ix != NULL)
			index_add_member(o->ix, key, klen, at, o->total - at);
		json_decref(k);
	}
	piece_text(o, "\n}\n", 3);
	(void)fs;
	return 0;
}

/* iov[0..k) whole, however short each writev is */
static int
write_iov(int fd, struct iovec *iov, size_t k)
{
	ssize_t w;

	while (k > 0) {
		w = writev(fd, iov, (int)k);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		while (k > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			k--;
		}
		if (k > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/*
 * len bytes at off of in onto out: in the kernel (copy_file_range(2), a
 * reflink where the filesystem shares blocks), else read and written.
 */
static int
copy_range(int in, size_t off, size_t len, int out)
{
	static int no_copy;
	char b[65536];
	off_t o = (off_t)off;
	ssize_t n, w;

	while (len > 0 && !no_copy) {
		n = os_copy_file_range(in, &o, out, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == EINVAL ||
		    errno == ENOSYS || errno == EOPNOTSUPP)) {
			no_copy = 1;
			break;
		}
		if (n <= 0)
			return n == 0 ? (errno = EIO, -1) : -1;
		len -= (size_t)n;
	}
	while (len > 0) {
		n = pread(in, b, len < sizeof(b) ? len : sizeof(b), (off_t)o);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? (errno = EIO, -1) : -1;
		for (w = 0; w < n;) {
			ssize_t k = write(out, b + w, (size_t)(n - w));

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				return -1;
			w += k;
		}
		o += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
write_pieces(int fd, int old, const struct store *st, struct pieces *o)
{
	struct iovec iov[64];
	size_t i, k = 0;

	for (i = 0; i < o->n; i++) {
		const struct piece *pc = &o->v[i];

		if (pc->file) {
			if ((k > 0 && write_iov(fd, iov, k) < 0) ||
			    copy_range(pc->file >= SPOOL ?
			    st->spooled[pc->file - SPOOL].fd : old, pc->off,
			    pc->len, fd) < 0)
				return -1;
			k = 0;
			continue;
		}
		iov[k].iov_base = (void *)(uintptr_t)(pc->p ? pc->p :
		    o->text.data + pc->off);
		iov[k++].iov_len = pc->len;
		if (k == 64) {
			if (write_iov(fd, iov, k) < 0)
				return -1;
			k = 0;
		}
	}
	return k > 0 ? write_iov(fd, iov, k) : 0;
}

/*
 * The old file's owner, group and mode onto the new one, so root rewriting a
 * user's store leaves it the user's; a store the caller may not write, or
 * whose owner a rewrite could not keep, is refused rather than replaced.
 */
static int
keep_owner(struct store *st, int fd, struct error *e)
{
	struct file_state *fs = st->be;
	struct stat old, tmp;

	if (stat(fs->file, &old) < 0 || !S_ISREG(old.st_mode))
		return 0;	/* a new store: the caller's, 0600 */
	if (faccessat(AT_FDCWD, fs->file, W_OK, AT_EACCESS) < 0)
		return error_errno(e, "cannot write store '%s' (mode %04o, owner "
		    "uid %u)", st->path, (unsigned)(old.st_mode & 07777),
		    (unsigned)old.st_uid);
	if (fstat(fd, &tmp) < 0)
		return error_errno(e, "cannot stat a temporary file of '%s'",
		    st->path);
	if ((old.st_uid != tmp.st_uid || old.st_gid != tmp.st_gid) &&
	    fchown(fd, old.st_uid, old.st_gid) < 0)
		return error_errno(e, "cannot keep the owner of store '%s' (uid "
		    "%u, gid %u) in a rewrite", st->path, (unsigned)old.st_uid,
		    (unsigned)old.st_gid);
	if (fchmod(fd, old.st_mode & 07777) < 0)
		return error_errno(e, "cannot keep the mode of store '%s'",
		    st->path);
	return 0;
}

static int
fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/*
 * The index of what was just written, when nothing can have changed it
 * unseen: a change after the rename moves the store's mtime past its ctime,
 * which the rename set (a change in the same tick as the rename could not be
 * told apart, and the next reader rebuilds the index instead).
 */
static void
save_index(struct store *st, int fd, struct pieces *o)
{
	struct file_state *fs = st->be;
	struct stat sb;

	if (o->ix == NULL || o->ix_bad || fstat(fd, &sb) < 0 ||
	    (uint64_t)sb.st_size != o->total ||
	    !(sb.st_mtim.tv_sec < sb.st_ctim.tv_sec ||
	    (sb.st_mtim.tv_sec == sb.st_ctim.tv_sec &&
	    sb.st_mtim.tv_nsec < sb.st_ctim.tv_nsec)))
		return;
	index_write(fs->ixpath, fs->file, &sb, o->ix);
}

/*
 * Waits, if need be, until the clock has left the timestamp tick of fd's
 * last write (a few milliseconds at most, and only when the write and its
 * flush were quicker than a tick), so that the rename's ctime comes after
 * it and the index can be written (see save_index()).
 */
static void
settle(int fd)
{
	struct timespec now, nap = { 0, 500000 };
	struct stat sb;
	int i;

	if (fstat(fd, &sb) < 0)
		return;
	for (i = 0; i < 40; i++) {
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (now.tv_sec > sb.st_mtim.tv_sec ||
		    (now.tv_sec == sb.st_mtim.tv_sec &&
		    now.tv_nsec > sb.st_mtim.tv_nsec))
			return;
		nanosleep(&nap, NULL);
	}
}

int
save_file(struct store *st, struct error *e)
{
	struct file_state *fs = st->be;
	struct index_build ix;
	struct pieces text;
	struct buf tmp = { 0 };
	char *dir = path_dir(fs->file), *copy = xstrdup(fs->file);
	int fd = -1, kept = -1, rc = -1;

	memset(&text, 0, sizeof(text));
	memset(&ix, 0, sizeof(ix));
	text.to_file = fs->ix != NULL;
	text.merge = fs->ix == NULL;
	text.fd = -1;
	text.old = fs->fd;
	text.st = st;
	if (fs->ixpath != NULL)
		text.ix = &ix;
	if (load_uncanonical(st, e) < 0)
		goto out;
	buf_addf(&tmp, "%s/.%s" TEMP_MARK "XXXXXX", dir, basename(copy));
	/* mkstemp: a fresh unpredictable name, created 0600, never a planted link */
	if ((fd = mkstemp(tmp.data)) < 0) {
		error_errno(e, "cannot create a temporary file in '%s'", dir);
		goto out;
	}
	if (keep_owner(st, fd, e) < 0)
		goto out;
	text.fd = fd;
	if (serialize(st, &text) < 0) {
		errno = text.werr;
		error_errno(e, "cannot write '%s'", tmp.data);
		goto out;
	}
	if (write_pieces(fd, fs->fd, st, &text) < 0) {
		error_errno(e, "cannot write '%s'", tmp.data);
		goto out;
	}
	/* bytes copied from the old file are what the index said they were
	 * only if no one changed it in place meanwhile */
	if (fs->ix != NULL && file_unchanged(st, fs->fd, &fs->sb, e) < 0)
		goto out;
	if (fsync(fd) < 0) {
		error_errno(e, "cannot flush '%s' to disk", tmp.data);
		goto out;
	}
	if (text.ix != NULL)
		settle(fd);
	kept = dup(fd);		/* to stat it once renamed, for its index */
	if (close(fd) < 0) {
		fd = -1;
		error_errno(e, "cannot write '%s'", tmp.data);
		goto out;
	}
	fd = -1;
	if (rename(tmp.data, fs->file) < 0) {
		error_errno(e, "cannot replace store '%s'", st->path);
		goto out;
	}
	buf_free(&tmp);		/* renamed: nothing left to clean up */
	rc = 0;
	/* the store is replaced already: a warning, not a failure */
	if (fsync_dir(dir) < 0) {
		error_errno(e, "store '%s' is written, but its directory '%s' "
		    "was not flushed to disk (a crash soon may bring back the "
		    "old store)", st->path, dir);
		rc = 1;
	}
	if (kept >= 0)
		save_index(st, kept, &text);
out:
	if (fd >= 0)
		close(fd);
	if (kept >= 0)
		close(kept);
	if (tmp.data != NULL)
		unlink(tmp.data);
	buf_free(&tmp);
	buf_free(&text.text);
	free(text.v);
	index_build_free(&ix);
	free(copy);
	free(dir);
	return rc;
}

int
store_text(struct store *st, struct buf *b, struct error *e)
{
	struct pieces text;
	size_t i;
	int rc;

	memset(&text, 0, sizeof(text));
	text.fd = -1;
	if (store_spool_fill(st, e) < 0)	/* text in memory only */
		return -1;
	/* another engine's conversations are never the file's bytes */
	text.merge = st->engine->bytes_are_text != NULL &&
	    st->engine->bytes_are_text(st);
	if (store_load_all(st, e) < 0)
		return -1;
	rc = serialize(st, &text);
	for (i = 0; rc == 0 && i < text.n; i++)
		buf_add(b, text.v[i].p ? text.v[i].p : text.text.data +
		    text.v[i].off, text.v[i].len);
	buf_free(&text.text);
	free(text.v);
	return rc;
}
