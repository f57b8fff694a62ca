/*
 * store.c - the store in memory: loading the file, its conversations and
 * what the rest of lib/ asks of them (find, active, ended, remove, append).
 *
 * Loading reads the file and checks it in one pass (scan.c) without building
 * it: each conversation stays a range of the file's bytes with the few fields
 * the store caches, and only those that conv_json() is asked for are parsed
 * with jansson. A file the scanner refuses is parsed whole with jansson and
 * checked against the store's shape (shape.c), whose errors name the JSON
 * path, or jansson's the line and column. Opening for writing takes the lock
 * (lock.c) first; saving is save.c's.
 *
 * It does not know how the path is resolved (store-path.c), how the lock is
 * taken, or how the file is written.
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

static const struct name_table conv_roles[] = {
	{ "user", ROLE_USER },
	{ "assistant", ROLE_ASSISTANT },
	{ "system", ROLE_SYSTEM },
	{ "tool", ROLE_TOOL },
	{ NULL, 0 },
};

const char *
role_name(enum conv_role r)
{
	return enum_name(conv_roles, (int)r);
}

int
role_parse(const char *s, enum conv_role *out)
{
	int v;

	if (enum_parse(conv_roles, s, &v) < 0)
		return -1;
	*out = (enum conv_role)v;
	return 0;
}

const char *
role_list(void)
{
	static struct buf list;

	if (list.len == 0)
		enum_list(&list, conv_roles);
	return list.data;
}

const char *
json_str(const json_t *obj, const char *key, size_t *len)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_text(v))
		return NULL;
	if (len != NULL)
		*len = json_string_length(v);
	return json_string_value(v);
}

/* fills what the store caches about c from c->obj, which is valid */
int
conv_refresh(struct conv *c, struct error *e)
{
	json_t *msgs = json_object_get(conv_json(c), "messages"), *v;
	size_t n = json_array_size(msgs);

	c->id = json_str(c->obj, "id", NULL);
	c->title = json_str(c->obj, "title", NULL);
	c->summary = json_str(c->obj, "summary", NULL);
	if (ts_parse(json_str(c->obj, "startedAt", NULL), &c->started) < 0)
		return error_set(e, "conversation '%s': bad startedAt", c->id);
	v = json_object_get(c->obj, "endedAt");
	c->ended = -1;
	if (json_is_text(v) && ts_parse(json_string_value(v), &c->ended) < 0)
		return error_set(e, "conversation '%s': bad endedAt", c->id);
	c->nmsg = n;
	c->last = c->started;
	if (n > 0 && ts_parse(json_str(json_array_get(msgs, n - 1),
	    "timestamp", NULL), &c->last) < 0)
		return error_set(e, "conversation '%s': bad timestamp", c->id);
	return 0;
}

/*
 * The scanner checked raw, so this parse cannot fail; if it ever did, going
 * on could write a store without this conversation. scan_json(), not
 * jansson: numbers keep their text, keys may hold NUL.
 */
json_t *
conv_json(struct conv *c)
{
	if (c->obj == NULL) {
		c->obj = scan_json(c->raw, c->rawlen);
		if (c->obj == NULL)
			abort();
		c->raw = NULL;	/* the caller may change it: dump it when saving */
	}
	return c->obj;
}

const char *conv_id(const struct conv *c) { return c->id; }
int64_t conv_started(const struct conv *c) { return c->started; }
int64_t conv_ended(const struct conv *c) { return c->ended; }
const char *conv_title(const struct conv *c) { return c->title; }
const char *conv_summary(const struct conv *c) { return c->summary; }
size_t conv_message_count(const struct conv *c) { return c->nmsg; }
int64_t conv_last_activity(const struct conv *c) { return c->last; }

static void
conv_free(struct conv *c)
{
	if (c == NULL)
		return;
	json_decref(c->obj);
	free(c->own[0]);
	free(c->own[1]);
	free(c->own[2]);
	free(c);
}

static void
store_push(struct store *st, struct conv *c)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->conv = xrealloc(st->conv, st->cap * sizeof(*st->conv));
	}
	st->conv[st->n++] = c;
}

struct conv *
store_append(struct store *st, json_t *obj, struct error *e)
{
	struct conv *c = xmalloc(sizeof(*c));

	memset(c, 0, sizeof(*c));
	c->obj = obj;
	if (conv_refresh(c, e) < 0) {
		conv_free(c);
		return NULL;
	}
	store_push(st, c);
	return c;
}

size_t store_count(const struct store *st) { return st->n; }
struct conv *store_conv(struct store *st, size_t i) { return i < st->n ? st->conv[i] : NULL; }
const char *store_path(const struct store *st) { return st->path; }
json_t *store_root(struct store *st) { return st->root; }

struct conv *
store_find(struct store *st, const char *id)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->conv[i]->id, id) == 0)
			return st->conv[i];
	return NULL;
}

struct conv *
store_active(struct store *st)
{
	size_t i;

	for (i = st->n; i-- > 0;)
		if (st->conv[i]->ended < 0)
			return st->conv[i];
	return NULL;
}

void
store_remove(struct store *st, struct conv *const *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		v[i]->doomed = 1;
	for (i = 0; i < st->n; i++)
		if (st->conv[i]->doomed)
			conv_free(st->conv[i]);
		else
			st->conv[k++] = st->conv[i];
	st->n = k;
}

/* an ended conversation and its place in the file, for a stable sort */
struct ranked {
	struct conv *c;
	size_t pos;
};

/* newest endedAt first; of equal times, the later in the file first */
static int
by_ended_desc(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->c->ended != y->c->ended)
		return x->c->ended < y->c->ended ? 1 : -1;
	return x->pos < y->pos ? 1 : x->pos > y->pos ? -1 : 0;
}

struct conv **
store_ended(struct store *st, size_t *n)
{
	struct ranked *r = xmalloc((st->n + 1) * sizeof(*r));
	struct conv **v;
	size_t i, k = 0;

	for (i = 0; i < st->n; i++)
		if (st->conv[i]->ended >= 0) {
			r[k].c = st->conv[i];
			r[k].pos = i;
			k++;
		}
	if (k > 1)
		qsort(r, k, sizeof(*r), by_ended_desc);
	v = xmalloc((k + 1) * sizeof(*v));
	for (i = 0; i < k; i++)
		v[i] = r[i].c;
	v[k] = NULL;
	free(r);
	*n = k;
	return v;
}

/* loading */

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
	json_t *v;
	struct conv *c;
	size_t i;

	st->root = json_object();
	for (i = 0; i < sc->nmember; i++) {
		v = scan_json(st->data + sc->member[i].off, sc->member[i].len);
		if (v == NULL)
			abort();	/* checked: cannot happen (see conv_json) */
		json_object_setn_new_nocheck(st->root, sc->member[i].key,
		    sc->member[i].klen, v);
	}
	for (i = 0; i < sc->n; i++) {
		struct scan_conv *s = &sc->conv[i];

		c = xmalloc(sizeof(*c));
		memset(c, 0, sizeof(*c));
		c->raw = st->data + s->off;
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
	json_error_t je;
	json_t *root;
	int rc = -1;

	root = scan_json(st->data, st->len);
	if (root == NULL)
		root = json_loadb(st->data, st->len, JSON_LOAD_FLAGS, &je);
	if (root == NULL)
		return error_set(e, "'%s':%d:%d: %s", st->path, je.line,
		    je.column, je.text);
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
room(struct store *st, size_t size)
{
	void *p;

	if (size + 1 >= BIG_STORE) {
		p = mmap(NULL, size + 1, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			(void)madvise(p, size + 1, MADV_HUGEPAGE);
			(void)madvise(p, size + 1, MADV_POPULATE_WRITE);
			st->mapped = size + 1;
			return p;
		}
	}
	return xmalloc(size + 1);
}

/*
 * The file into st->data, read rather than mapped: a mapping of a file that
 * another program truncates in place kills the reader with SIGBUS, where a
 * read sees the change and says so.
 */
static int
load_bytes(struct store *st, int fd, const struct stat *sb, struct error *e)
{
	size_t size, got = 0;
	char extra;
	ssize_t n;

	if ((uintmax_t)sb->st_size > st->max)
		return error_set(e, "store '%s' is %jd bytes, larger than the "
		    "limit of %zu bytes (the max_input_bytes setting)", st->path,
		    (intmax_t)sb->st_size, st->max);
	size = (size_t)sb->st_size;
	st->data = room(st, size);
	while (got < size) {
		n = read(fd, st->data + got, size - got);
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
	st->data[size] = '\0';
	st->len = size;
	return 0;
}

static int
load(struct store *st, struct error *e)
{
	struct scan sc;
	struct stat sb;
	int fd, rc = -1;

	/* O_NONBLOCK: a FIFO put there since store_open() looked cannot hang us */
	fd = open(st->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
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
	if (st->len == 0) {	/* an empty file holds no conversations */
		st->root = json_object();
		rc = 0;
		goto out;
	}
	if (scan_store(st->data, st->len, &sc) == 0) {
		adopt_scan(st, &sc);
		rc = 0;
	} else
		rc = load_json(st, e);
out:
	close(fd);
	return rc;
}

int
store_open(struct store **out, const char *path, enum store_mode mode,
    double wait, struct error *e)
{
	return store_open_max(out, path, mode, wait, STORE_MAX_BYTES, e);
}

int
store_open_max(struct store **out, const char *path, enum store_mode mode,
    double wait, size_t max, struct error *e)
{
	struct store *st = xmalloc(sizeof(*st));
	int rc = -1;

	memset(st, 0, sizeof(*st));
	st->lockfd = -1;
	st->path = xstrdup(path);
	st->max = max;
	/* nothing is made (lock, directory, temporary file) before this */
	if ((rc = path_resolve(path, &st->file, e)) < 0)
		goto fail;
	if (mode == STORE_WRITE) {
		if ((rc = path_mkdirs_for(st->file, e)) < 0 ||
		    (rc = st->lockfd = lock_take(st->file, path, wait, e)) < 0)
			goto fail;
		save_sweep_temps(st->file);
	}
	if ((rc = load(st, e)) < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return rc < 0 ? rc : -1;
}

void
store_close(struct store *st)
{
	size_t i;

	if (st == NULL)
		return;
	for (i = 0; i < st->n; i++)
		conv_free(st->conv[i]);
	free(st->conv);
	json_decref(st->root);
	if (st->lockfd >= 0)
		close(st->lockfd);	/* releases the lock */
	if (st->mapped)
		munmap(st->data, st->mapped);
	else
		free(st->data);
	free(st->path);
	free(st->file);
	free(st);
}
