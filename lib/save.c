/*
 * save.c - writing the store: its text, and the atomic replace of the file.
 *
 * The new store goes to a fresh temporary file in the store's directory, is
 * flushed to disk, renamed over the store and the directory flushed, so a
 * crash at any instant leaves the old store or the new one. The text is made
 * as pieces: conversations that were not changed go back as the bytes they
 * were in the old file, with one writev.
 *
 * It knows the file's layout and the conversations' bytes (store-file.h), but
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
#include <unistd.h>

#include "store-file.h"

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
 * are written back as they were. Ranges that follow each other in the old
 * file become one piece, so a store where one conversation changed is
 * written with a handful of iovecs.
 */
struct piece {
	const char *p;		/* in the old file; NULL: text + off */
	size_t off, len;
};
struct pieces {
	struct buf text;
	struct piece *v;
	size_t n, cap;
};

static void
piece_add(struct pieces *o, const char *p, size_t off, size_t len)
{
	struct piece *last = o->n ? &o->v[o->n - 1] : NULL;

	if (len == 0)
		return;
	/* text joins text that ends where it starts; old bytes join old bytes
	 * that end where they start (never arithmetic on a NULL text piece) */
	if (last != NULL && (p == NULL ? last->p == NULL &&
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
	o->v[o->n++].len = len;
}

static void
piece_text(struct pieces *o, const char *s, size_t n)
{
	size_t off = o->text.len;

	buf_add(&o->text, s, n);
	piece_add(o, NULL, off, n);
}

static void
piece_json(struct pieces *o, const json_t *v)
{
	size_t off = o->text.len;

	json_dump_buf(&o->text, v);
	piece_add(o, NULL, off, o->text.len - off);
}

/* sep and then c: the old bytes when the old file had them so */
static void
piece_conv(struct pieces *o, const char *sep, struct conv *c)
{
	struct piece *last = o->n ? &o->v[o->n - 1] : NULL;
	size_t n = strlen(sep);

	if (c->raw != NULL && !c->canonical)
		conv_json(c);	/* as jansson writes it: one line */
	if (c->raw == NULL) {
		piece_text(o, sep, n);
		piece_json(o, c->obj);
		return;
	}
	if (last != NULL && last->p != NULL && last->p + last->len + n == c->raw &&
	    memcmp(c->raw - n, sep, n) == 0)
		piece_add(o, c->raw - n, 0, n + c->rawlen);
	else {
		piece_text(o, sep, n);
		piece_add(o, c->raw, 0, c->rawlen);
	}
}

/* the file's text: one conversation a line, so a diff or grep stays readable */
static void
serialize(struct store *st, struct pieces *o)
{
	const char *key;
	json_t *v, *k;
	size_t i, klen, off = o->text.len;

	buf_addf(&o->text, "{\n  \"version\": %d,\n  \"conversations\": [",
	    STORE_VERSION);
	piece_add(o, NULL, off, o->text.len - off);
	for (i = 0; i < st->n; i++)
		piece_conv(o, i ? ",\n    " : "\n    ", st->conv[i]);
	piece_text(o, st->n ? "\n  ]" : "]", st->n ? 4 : 1);
	json_object_keylen_foreach(st->root, key, klen, v) {
		if (strcmp(key, "version") == 0)
			continue;
		k = json_stringn(key, klen);
		piece_text(o, ",\n  ", 4);
		piece_json(o, k);
		piece_text(o, ": ", 2);
		piece_json(o, v);
		json_decref(k);
	}
	piece_text(o, "\n}\n", 3);
}

static int
write_pieces(int fd, struct pieces *o)
{
	struct iovec iov[64];
	size_t i = 0, k, done = 0;	/* done: bytes of piece i written */
	ssize_t w;

	while (i < o->n) {
		for (k = 0; k < 64 && i + k < o->n; k++) {
			const struct piece *pc = &o->v[i + k];
			const char *p = pc->p ? pc->p : o->text.data + pc->off;

			iov[k].iov_base = (void *)(uintptr_t)(p + (k ? 0 : done));
			iov[k].iov_len = pc->len - (k ? 0 : done);
		}
		w = writev(fd, iov, (int)k);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		/* a short write: go on from where it stopped */
		while (w > 0) {
			size_t left = o->v[i].len - done;

			if ((size_t)w < left) {
				done += (size_t)w;
				break;
			}
			w -= (ssize_t)left;
			done = 0;
			i++;
		}
	}
	return 0;
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

int
save_file(struct store *st, struct error *e)
{
	struct file_state *fs = st->be;
	struct pieces text = { { 0 }, NULL, 0, 0 };
	struct buf tmp = { 0 };
	char *dir = path_dir(fs->file), *copy = xstrdup(fs->file);
	int fd = -1, rc = -1;

	serialize(st, &text);
	buf_addf(&tmp, "%s/.%s" TEMP_MARK "XXXXXX", dir, basename(copy));
	/* mkstemp: a fresh unpredictable name, created 0600, never a planted link */
	if ((fd = mkstemp(tmp.data)) < 0) {
		error_errno(e, "cannot create a temporary file in '%s'", dir);
		goto out;
	}
	if (keep_owner(st, fd, e) < 0)
		goto out;
	if (write_pieces(fd, &text) < 0) {
		error_errno(e, "cannot write '%s'", tmp.data);
		goto out;
	}
	if (fsync(fd) < 0) {
		error_errno(e, "cannot flush '%s' to disk", tmp.data);
		goto out;
	}
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
out:
	if (fd >= 0)
		close(fd);
	if (tmp.data != NULL)
		unlink(tmp.data);
	buf_free(&tmp);
	buf_free(&text.text);
	free(text.v);
	free(copy);
	free(dir);
	return rc;
}

int
store_text(struct store *st, struct buf *b, struct error *e)
{
	struct pieces text = { { 0 }, NULL, 0, 0 };
	size_t i;

	if (store_load_all(st, e) < 0)
		return -1;
	serialize(st, &text);
	for (i = 0; i < text.n; i++)
		buf_add(b, text.v[i].p ? text.v[i].p : text.text.data +
		    text.v[i].off, text.v[i].len);
	buf_free(&text.text);
	free(text.v);
	return 0;
}
