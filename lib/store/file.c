/*
 * file.c - the file engine: the store as one JSON file, read whole at
 * open (or, by its index, in part) and written back whole (file-save.c) under the
 * lock beside it (file-lock.c).
 *
 * Loading reads the file and checks it in one pass (scan.c) without building
 * it: each conversation stays a range of the file's bytes with the few fields
 * the store caches, and only those that conv_json() is asked for are parsed
 * with jansson. A file the scanner refuses is parsed whole with jansson and
 * checked against the store's shape (shape.c), whose errors name the JSON
 * path, or jansson's the line and column.
 *
 * With an index that holds (file-index.c), open reads only the top-level fields,
 * and each load reads only the conversations it asks for, where the index
 * says they are, checked by the scanner as a whole load checks them; a
 * reader that loaded the file whole writes the index of what it checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scan.h"
#include "shape.h"
#include "file.h"

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
	struct conv *active = NULL, *cv, *dup = NULL;
	size_t i, j, dupat = 0;
	int rc = -1;

	/* the conversations one by one below: the first wrong one is named */
	if (shape_check(&shape_store, root, NULL, 0, e) < 0)
		return -1;
	convs = json_object_get(root, "conversations");
	json_array_foreach(convs, i, c) {
		where.len = 0;
		buf_addf(&where, "conversations[%zu]", i);
		if (conv_validate(c, where.data, e) < 0)
			goto out;
		if (dup == NULL && (dup = store_loaded(st,
		    json_string_value(json_object_get(c, "id")))) != NULL)
			dupat = i;	/* said after a worse fault, as before */
		if ((cv = store_append(st, json_incref(c), e)) == NULL)
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
	if (dup != NULL) {	/* ids are unique */
		for (j = 0; st->conv[j] != dup; j++)
			;
		error_set(e, "conversations[%zu].id: '%s' is also the id of "
		    "conversations[%zu]", dupat, dup->id, j);
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
		v = lex_json(fs->data + sc->member[i].off, sc->member[i].len);
		if (v == NULL)
			abort();	/* checked: cannot happen (see conv_json) */
		json_object_setn_new_nocheck(st->root, sc->member[i].key,
		    sc->member[i].klen, v);
	}
	for (i = 0; i < sc->n; i++) {
		c = conv_of_scan(&sc->conv[i], fs->data + sc->conv[i].off,
		    sc->conv[i].len);
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

	root = lex_json(fs->data, fs->len);
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
			os_hugepages(p, size + 1);
			os_prefault(p, size + 1);
			fs->mapped = size + 1;
			return p;
		}
	}
	return xmalloc(size + 1);
}

/*
 * The file into fs->data, read rather than mapped when it cannot be
 * mapped safely (file_map_leased()).
 */
static int
load_bytes(struct store *st, int fd, const struct stat *sb, struct error *e)
{
	struct file_state *fs = st->be;
	size_t size = (size_t)sb->st_size, got = 0;
	char extra;
	ssize_t n;

	if (st->mode == STORE_READ && file_map_leased(fs, fd, sb))
		return 0;
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

/* what the scanner found, as the index of the file whose identity is sb */
static void
index_scan(struct store *st, const struct scan *sc, const struct stat *sb)
{
	struct file_state *fs = st->be;
	struct index_build b;
	size_t i;

	memset(&b, 0, sizeof(b));
	for (i = 0; i < sc->n; i++) {
		const struct scan_conv *c = &sc->conv[i];
		unsigned flags = c->canonical ? INDEX_CANONICAL : 0;

		if (c->off >= 6 && memcmp(fs->data + c->off - 6, ",\n    ", 6) == 0)
			flags |= INDEX_SEP6 | INDEX_SEP5;
		else if (c->off >= 5 &&
		    memcmp(fs->data + c->off - 5, "\n    ", 5) == 0)
			flags |= INDEX_SEP5;
		index_add_conv(&b, c->off, c->len, c->id, c->started, c->ended,
		    c->last, c->newest, c->nmsg, flags);
	}
	for (i = 0; i < sc->nmember; i++)
		index_add_member(&b, sc->member[i].key, sc->member[i].klen,
		    sc->member[i].off, sc->member[i].len);
	index_write(fs->ixpath, fs->file, sb, &b);
	index_build_free(&b);
}

/*
 * The store by its index: only the top-level fields are read now, and each
 * load reads its conversations' bytes where the index says they are.
 */
static int
open_indexed(struct store *st, int fd, const struct stat *sb,
    struct index *ix, struct error *e)
{
	struct file_state *fs = st->be;
	json_t *v;
	char *p;
	size_t i;

	fs->ix = xmalloc(sizeof(*fs->ix));
	*fs->ix = *ix;
	fs->fd = fd;
	fs->sb = *sb;
	fs->got = xmalloc(ix->n + 1);
	memset(fs->got, 0, ix->n + 1);
	st->root = json_object();
	st->next_pos = (int64_t)ix->n;
	for (i = 0; i < ix->nmember; i++) {
		const struct index_member *m = &ix->member[i];

		p = xmalloc(m->len + 1);
		if (file_read_at(st, p, m->len, m->off, e) < 0) {
			free(p);
			return -1;
		}
		v = lex_json(p, m->len);
		free(p);
		if (v == NULL)
			return file_changed(st, e);
		json_object_setn_new_nocheck(st->root, ix->str + m->key, m->klen, v);
	}
	return file_unchanged(st, fd, sb, e);
}

/* newest endedAt first; of equal times, the later stored first */
static int
rec_newer(const struct index_rec *r, size_t i, const struct index_rec *q,
    size_t j)
{
	return r->ended != q->ended ? r->ended > q->ended : i > j;
}

static const struct index *sort_ix;	/* for by_ended: qsort has no argument */

static int
by_ended(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	return rec_newer(&sort_ix->rec[i], i, &sort_ix->rec[j], j) ? -1 : 1;
}

/* the newest limit ended conversations, by the index */
static int
load_ended(struct store *st, size_t limit, struct error *e)
{
	const struct index *ix = ((struct file_state *)st->be)->ix;
	size_t *v = xmalloc((ix->nended + 1) * sizeof(*v)), i, k = 0, j;
	int rc = 0;

	if (limit > ix->nended)
		limit = ix->nended;
	for (i = 0; i < ix->n; i++) {
		if (ix->rec[i].ended < 0)
			continue;
		if (limit > 64) {	/* sorted below */
			v[k++] = i;
			continue;
		}
		/* a few: kept in order as they come, the oldest dropped */
		if (k == limit && (k == 0 ||
		    !rec_newer(&ix->rec[i], i, &ix->rec[v[k - 1]], v[k - 1])))
			continue;
		if (k < limit)
			k++;
		for (j = k - 1; j > 0 && rec_newer(&ix->rec[i], i,
		    &ix->rec[v[j - 1]], v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = i;
	}
	if (limit > 64 && limit < k) {
		sort_ix = ix;
		qsort(v, k, sizeof(*v), by_ended);
	}
	if (k > limit)
		k = limit;
	for (i = 0; i < k && rc == 0; i++)
		rc = file_load_rec(st, v[i], e);
	free(v);
	return rc;
}

/* only with an index: a whole load has everything at open */
static int
file_load(struct store *st, const struct store_query *q, struct error *e)
{
	struct file_state *fs = st->be;
	const struct index *ix = fs->ix;
	int64_t k;
	size_t i;
	int rc = 0;

	switch (q->what) {
	case LOAD_ACTIVE:
		if (ix->active != INDEX_NONE)
			rc = file_load_rec(st, (size_t)ix->active, e);
		break;
	case LOAD_ID:
		if ((k = index_find(ix, q->id)) >= 0)
			rc = file_load_rec(st, (size_t)k, e);
		break;
	case LOAD_ENDED:
		rc = load_ended(st, q->limit, e);
		break;
	case LOAD_ALL:
		for (i = 0; i < ix->n && rc == 0; i++)
			rc = file_load_rec(st, i, e);
		if (rc == 0 && st->n > 1)
			qsort(st->conv, st->n, sizeof(*st->conv), conv_by_pos);
		break;
	}
	if (rc == 0)
		rc = file_unchanged(st, fs->fd, &fs->sb, e);
	return rc;
}

/* the index's count, less those loaded, plus what st holds now */
static int
file_count_ended(struct store *st, size_t *n, struct error *e)
{
	struct file_state *fs = st->be;
	size_t i;

	(void)e;
	*n = fs->ix->nended;
	for (i = 0; i < fs->ix->n; i++)
		if (fs->got[i] && fs->ix->rec[i].ended >= 0)
			--*n;
	for (i = 0; i < st->n; i++)
		if (st->conv[i]->ended >= 0)
			++*n;
	return 0;
}

/* CONVCTL_NO_INDEX=1: no index read or written (the tests compare) */
static int
index_wanted(void)
{
	const char *v = getenv("CONVCTL_NO_INDEX");

	return v == NULL || *v == '\0' || strcmp(v, "0") == 0;
}

static int
load(struct store *st, struct error *e)
{
	struct file_state *fs = st->be;
	struct index ix;
	struct timespec t0;
	struct scan sc;
	struct stat sb, now;
	int fd, rc = -1;

	/* before the stat: a change after it is dated t0 or later */
	clock_gettime(CLOCK_REALTIME_COARSE, &t0);
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
	if ((uintmax_t)sb.st_size > st->max) {
		error_set(e, "store '%s' is %jd bytes, larger than the limit of "
		    "%zu bytes (the max_input_bytes setting)", st->path,
		    (intmax_t)sb.st_size, st->max);
		goto out;
	}
	if (sb.st_size > 0 && index_read(fs->ixpath, fs->file, &sb, &ix))
		return open_indexed(st, fd, &sb, &ix, e);	/* keeps fd */
	if (load_bytes(st, fd, &sb, e) < 0)
		goto out;
	if (fs->len == 0) {	/* an empty file holds no conversations */
		st->root = json_object();
		rc = 0;
		goto out;
	}
	if (scan_store(fs->data, fs->len, &sc) == 0) {
		/* a writer writes the index of what it writes */
		if (st->mode == STORE_READ && fs->ixpath != NULL &&
		    fstat(fd, &now) == 0 && index_settled(&sb, &now, &t0))
			index_scan(st, &sc, &sb);
		adopt_scan(st, &sc);
		rc = 0;
	} else
		rc = load_json(st, e);
out:
	if (fd != fs->mapfd)
		close(fd);
	return rc;
}

/* the lock first when writing: then everything, so the store is LOADED_ALL */
static int
file_open(struct store *st, const char *path, double wait, int whole,
    struct error *e)
{
	struct file_state *fs = xmalloc(sizeof(*fs));
	int rc;

	memset(fs, 0, sizeof(*fs));
	fs->lockfd = -1;
	fs->fd = -1;
	fs->mapfd = -1;
	st->be = fs;
	/* nothing is made (lock, directory, temporary file) before this */
	if ((rc = path_resolve(path, &fs->file, e)) < 0)
		return rc;
	if (!whole && index_wanted())
		fs->ixpath = index_path(fs->file);
	if (st->mode == STORE_WRITE) {
		if ((rc = path_mkdirs_for(fs->file, e)) < 0 ||
		    (rc = fs->lockfd = lock_take(fs->file, st->path, wait, e)) < 0)
			return rc;
		save_sweep_temps(fs->file);
	}
	if ((rc = load(st, e)) < 0)
		return rc;
	if (fs->ix == NULL)
		st->loaded = LOADED_ALL | LOADED_ACTIVE;
	return 0;
}

/* file_stats()'s walk of one conversation's messages */
struct stats_walk {
	uint64_t role[4];
	struct { const char *p; size_t len; } *tools;
	size_t ntools, cap;
};

static int
stats_message(void *arg, const struct scan_msg *m)
{
	struct stats_walk *w = arg;
	char name[64];		/* "assistant", each letter \\uXXXX: 54 */
	enum conv_role role;

	if (m->role.len < sizeof(name)) {
		scan_unescape(&m->role, name);
		if (role_parse(name, &role) == 0)
			w->role[role]++;
	}
	if (m->tools != NULL && m->tools[0] == '[') {
		if (w->ntools == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 16;
			w->tools = xrealloc(w->tools, w->cap * sizeof(*w->tools));
		}
		w->tools[w->ntools].p = m->tools;
		w->tools[w->ntools++].len = m->toolslen;
	}
	return 0;
}

/*
 * Counted from the file's bytes (the index's spans, or those loaded whole),
 * each conversation's messages walked by the scanner: only a conversation's
 * tags and marks, and its tools, are decoded. None once a conversation is
 * parsed (it may have changed): store_stats() loads them instead.
 */
static int
file_stats(struct store *st, const struct stats_request *rq,
    struct store_stats *s, struct error *e)
{
	struct file_state *fs = st->be;
	struct stats_walk w = { { 0 }, NULL, 0, 0 };
	struct store_span *v = NULL;
	struct scan_conv sc;
	struct conv *c;
	json_t *tools;
	size_t n, i, j;
	int rc, unchecked;

	s->bytes = fs->ix != NULL ? (int64_t)fs->sb.st_size : (int64_t)fs->len;
	if ((rc = file_spans(st, &v, &n, &unchecked, e)) <= 0)
		return rc;
	for (i = 0; i < n && rc > 0; i++) {
		memset(&w.role, 0, sizeof(w.role));
		w.ntools = 0;
		/* UTF-8 it is: the store was checked whole, or its index vouches */
		if (scan_conv_each(v[i].p, v[i].len, &sc, 1, stats_message,
		    &w) < 0) {
			rc = file_changed(st, e);
			break;
		}
		c = conv_new();
		c->raw = v[i].p;
		c->rawlen = v[i].len;
		c->id = sc.id;
		c->started = sc.started;
		c->ended = sc.ended;
		if (stats_conv(s, rq, c)) {
			for (j = 0; j < 4; j++)
				stats_role(s, (enum conv_role)j, w.role[j]);
			for (j = 0; j < w.ntools; j++) {
				tools = lex_json(w.tools[j].p, w.tools[j].len);
				stats_tools(s, tools);
				json_decref(tools);
			}
		}
		conv_free(c);
		scan_conv_clear(&sc);
	}
	free(w.tools);
	free(v);
	return rc;
}

static void
file_close(struct store *st)
{
	struct file_state *fs = st->be;

	if (fs == NULL)
		return;
	/* unmapped before its descriptor is closed, which gives up the lease */
	if (fs->mapped)
		munmap(fs->data, fs->mapped);
	else if (fs->filemap)
		munmap(fs->data, fs->filemap);
	else
		free(fs->data);
	if (fs->mapfd >= 0 && fs->mapfd != fs->fd)
		close(fs->mapfd);
	if (fs->lockfd >= 0)
		close(fs->lockfd);	/* releases the lock */
	if (fs->fd >= 0)
		close(fs->fd);
	if (fs->ix != NULL)
		index_free(fs->ix);
	free(fs->ix);
	free(fs->got);
	free(fs->ixpath);
	free(fs->file);
	free(fs);
	st->be = NULL;
}

/*
 * Without an index open loads it all (LOADED_ALL) and store.c calls neither
 * load nor count_ended; with one, a load brings conversations whole, so
 * conv_load() never needs a load_body.
 */
/* the store's own directory: a spool there is on its filesystem */
static char *
file_spool_dir(struct store *st)
{
	struct file_state *fs = st->be;

	return fs != NULL && fs->file != NULL ? path_dir(fs->file) : NULL;
}

/* the conversations' bytes are the file's: loaded whole, not by the index */
static int
file_bytes_are_text(struct store *st)
{
	return ((struct file_state *)st->be)->ix == NULL;
}

/* every name the other engines do not claim */
static int
file_claims(const char *path)
{
	(void)path;
	return 1;
}

const struct store_engine store_file_engine = {
	.name = "file",
	.claims = file_claims,
	.shown = xstrdup,
	.open = file_open,
	.load = file_load,
	.count_ended = file_count_ended,
	.search = file_search,
	.stats = file_stats,
	.commit = save_file,
	.spool_dir = file_spool_dir,
	.close = file_close,
	.bytes_are_text = file_bytes_are_text,
	.writes_text = 1,
};
