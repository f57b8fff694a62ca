/*
 * store-file.c - the file engine: the store as one JSON file, read whole at
 * open and written back whole (save.c) under the lock beside it (lock.c).
 *
 * Loading reads the file and checks it in one pass (scan.c) without building
 * it: each conversation stays a range of the file's bytes with the few fields
 * the store caches, and only those that conv_json() is asked for are parsed
 * with jansson. A file the scanner refuses is parsed whole with jansson and
 * checked against the store's shape (shape.c), whose errors name the JSON
 * path, or jansson's the line and column.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan.h"
#include "shape.h"
#include "store-file.h"

/* puts "'file': " before the message already in e */
static int
error_in_file(struct error *e, const char *path)
{
	char msg[sizeof(e->msg)];

	memcpy(msg, e->msg, sizeof(msg));
	return error_set(e, "'%s': %s", path, msg);
}

/* takes root (a reference) apart into st: checks it, caches each conversation */
static int
adopt(struct store *st, json_t *root, struct error *e)
{
	struct buf where = { 0 };
	json_t *convs, *c;
	struct conv *active = NULL, *cv;
	size_t i, j;
	int rc = -1;

	/* the conversations one by one below: the first wrong one is named */
	if (shape_check(&shape_store, root, NULL, 0, e) < 0)
		return -1;
	convs = json_object_get(root, "conversations");
	json_array_foreach(convs, i, c) {
		where.len = 0;
		buf_addf(&where, "conversations[%zu]", i);
		if (conv_validate(c, where.data, e) < 0 ||
		    (cv = store_append(st, json_incref(c), e)) == NULL)
			goto out;
		if (cv->ended < 0) {
			if (active != NULL) {
				error_set(e, "%s: two active conversations ('%s' "
				    "and '%s'); at most one may have endedAt null",
				    where.data, active->id, cv->id);
				goto out;
			}
			active = cv;
		}
	}
	/* ids are unique; a sort would be faster, but stores are small in count */
	for (i = 1; i < st->n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(st->conv[i]->id, st->conv[j]->id) == 0) {
				error_set(e, "conversations[%zu].id: '%s' is also "
				    "the id of conversations[%zu]", i,
				    st->conv[i]->id, j);
				goto out;
			}
	json_object_del(root, "conversations");
	st->root = json_incref(root);
	rc = 0;
out:
	buf_free(&where);
	return rc;
}

/* the scanner's result, which it checked, into st; it takes sc's strings */
static void
adopt_scan(struct store *st, struct scan *sc)
{
	struct file_state *fs = st->be;
	json_t *v;
	struct conv *c;
	size_t i;

	st->root = json_object();
	for (i = 0; i < sc->nmember; i++) {
		v = scan_json(fs->data + sc->member[i].off, sc->member[i].len);
		if (v == NULL)
			abort();	/* checked: cannot happen (see conv_json) */
		json_object_setn_new_nocheck(st->root, sc->member[i].key,
		    sc->member[i].klen, v);
	}
	for (i = 0; i < sc->n; i++) {
		struct scan_conv *s = &sc->conv[i];

		c = conv_new();
		c->raw = fs->data + s->off;
		c->rawlen = s->len;
		c->canonical = s->canonical;
		c->id = c->own[0] = s->id;
		c->title = c->own[1] = s->title;
		c->summary = c->own[2] = s->summary;
		s->id = s->title = s->summary = NULL;
		c->started = s->started;
		c->ended = s->ended;
		c->last = s->last;
		c->nmsg = s->nmsg;
		c->pos = st->next_pos++;
		store_push(st, c);
	}
	scan_free(sc);
}

/*
 * A file the scanner refused, built whole: adopt() names the JSON path of
 * what is wrong; when it is not JSON, jansson names the line and column.
 */
static int
load_json(struct store *st, struct error *e)
{
	struct file_state *fs = st->be;
	json_error_t je;
	json_t *root;
	int rc = -1, line, column;

	root = scan_json(fs->data, fs->len);
	if (root == NULL)
		root = json_loadb(fs->data, fs->len, JSON_LOAD_FLAGS, &je);
	if (root == NULL) {
		json_error_place(fs->data, fs->len, &je, &line, &column);
		return error_set(e, "'%s':%d:%d: %s", st->path, line, column,
		    je.text);
	}
	if (adopt(st, root, e) < 0)
		error_in_file(e, st->path);
	else
		rc = 0;
	json_decref(root);
	return rc;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14; older kernels refuse it */
#endif
#define BIG_STORE (2u << 20)

/*
 * Room for a file of size bytes. A big one gets anonymous memory in huge
 * pages, made present at once: faulting in a fresh 4 KiB page at a time
 * costs several times what reading the bytes does.
 */
static char *
room(struct file_state *fs, size_t size)
{
	void *p;

	if (size + 1 >= BIG_STORE) {
		p = mmap(NULL, size + 1, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			(void)madvise(p, size + 1, MADV_HUGEPAGE);
			(void)madvise(p, size + 1, MADV_POPULATE_WRITE);
			fs->mapped = size + 1;
			return p;
		}
	}
	return xmalloc(size + 1);
}

/*
 * The file into fs->data, read rather than mapped: a mapping of a file that
 * another program truncates in place kills the reader with SIGBUS, where a
 * read sees the change and says so.
 */
static int
load_bytes(struct store *st, int fd, const struct stat *sb, struct error *e)
{
	struct file_state *fs = st->be;
	size_t size, got = 0;
	char extra;
	ssize_t n;

	if ((uintmax_t)sb->st_size > st->max)
		return error_set(e, "store '%s' is %jd bytes, larger than the "
		    "limit of %zu bytes (the max_input_bytes setting)", st->path,
		    (intmax_t)sb->st_size, st->max);
	size = (size_t)sb->st_size;
	fs->data = room(fs, size);
	while (got < size) {
		n = read(fd, fs->data + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_errno(e, "cannot read store '%s'", st->path);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	while ((n = read(fd, &extra, 1)) < 0 && errno == EINTR)
		;
	if (got != size || n != 0)
		return error_set(e, "store '%s' changed size while it was read "
		    "(another program writes it in place); try again", st->path);
	fs->data[size] = '\0';
	fs->len = size;
	return 0;
}

static int
load(struct store *st, struct error *e)
{
	struct file_state *fs = st->be;
	struct scan sc;
	struct stat sb;
	int fd, rc = -1;

	/* O_NONBLOCK: a FIFO put there since store_open() looked cannot hang us */
	fd = open(fs->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			return error_errno(e, "cannot open store '%s'", st->path);
		st->root = json_object();	/* a missing store is an empty one */
		return 0;
	}
	if (fstat(fd, &sb) < 0) {
		error_errno(e, "cannot stat store '%s'", st->path);
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		rc = path_not_a_store(e, st->path, sb.st_mode);
		goto out;
	}
	if (load_bytes(st, fd, &sb, e) < 0)
		goto out;
	if (fs->len == 0) {	/* an empty file holds no conversations */
		st->root = json_object();
		rc = 0;
		goto out;
	}
	if (scan_store(fs->data, fs->len, &sc) == 0) {
		adopt_scan(st, &sc);
		rc = 0;
	} else
		rc = load_json(st, e);
out:
	close(fd);
	return rc;
}

/* the lock first when writing: then everything, so the store is LOADED_ALL */
static int
file_open(struct store *st, const char *path, double wait, struct error *e)
{
	struct file_state *fs = xmalloc(sizeof(*fs));
	int rc;

	memset(fs, 0, sizeof(*fs));
	fs->lockfd = -1;
	st->be = fs;
	/* nothing is made (lock, directory, temporary file) before this */
	if ((rc = path_resolve(path, &fs->file, e)) < 0)
		return rc;
	if (st->mode == STORE_WRITE) {
		if ((rc = path_mkdirs_for(fs->file, e)) < 0 ||
		    (rc = fs->lockfd = lock_take(fs->file, st->path, wait, e)) < 0)
			return rc;
		save_sweep_temps(fs->file);
	}
	if ((rc = load(st, e)) < 0)
		return rc;
	st->loaded = LOADED_ALL | LOADED_ACTIVE;
	return 0;
}

static void
file_close(struct store *st)
{
	struct file_state *fs = st->be;

	if (fs == NULL)
		return;
	if (fs->lockfd >= 0)
		close(fs->lockfd);	/* releases the lock */
	if (fs->mapped)
		munmap(fs->data, fs->mapped);
	else
		free(fs->data);
	free(fs->file);
	free(fs);
	st->be = NULL;
}

const struct store_engine store_file_engine = {
	.name = "file",
	.open = file_open,	/* loads it all: no load, load_body, count_ended */
	.commit = save_file,
	.close = file_close,
};
