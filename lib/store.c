/*
 * store.c - the store file: load and check its shape, lock, write atomically.
 *
 * A write goes to a fresh temporary file in the store's directory, is flushed
 * to disk, renamed over the store and the directory flushed, so a crash at any
 * instant leaves the old store or the new one. Writers serialise on a lock
 * file beside the store (flock, so a killed holder never leaves it held);
 * readers never take it: rename makes each read see one whole version.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

struct conv {
	json_t *obj;
	const char *id, *title, *summary;	/* point into obj */
	int64_t started, ended, last;
	size_t nmsg;
};

struct store {
	char *path;		/* as the user named it */
	char *file;		/* what is read and replaced: path, links followed */
	int lockfd;		/* -1: opened for reading */
	json_t *root;		/* every top-level field but "conversations" */
	struct conv **conv;
	size_t n, cap;
};

static const char *const roles[ROLE_COUNT] = { "user", "assistant", "system", "tool" };

const char *
role_name(enum conv_role r)
{
	return roles[r];
}

int
role_parse(const char *s, enum conv_role *out)
{
	int i;

	for (i = 0; i < ROLE_COUNT; i++)
		if (strcmp(s, roles[i]) == 0) {
			*out = (enum conv_role)i;
			return 0;
		}
	return -1;
}

static int
dump_cb(const char *p, size_t n, void *data)
{
	buf_add(data, p, n);
	return 0;
}

void
json_dump_buf(struct buf *b, const json_t *v)
{
	json_dump_callback(v, dump_cb, b, JSON_COMPACT | JSON_ENCODE_ANY);
}

const char *
json_str(const json_t *obj, const char *key, size_t *len)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_string(v))
		return NULL;
	if (len != NULL)
		*len = json_string_length(v);
	return json_string_value(v);
}

/* shape checks: each returns -1 with the JSON path of what is wrong */

static int
want_time(json_t *obj, const char *key, int nullable, const char *where,
    int64_t *ms, struct error *e)
{
	json_t *v = json_object_get(obj, key);

	if (v == NULL || (nullable && json_is_null(v))) {
		if (!nullable)
			return error_set(e, "%s: missing '%s'", where, key);
		*ms = -1;
		return 0;
	}
	if (!json_is_string(v))
		return error_set(e, "%s.%s: expected a time string%s", where, key,
		    nullable ? " or null" : "");
	if (ts_parse(json_string_value(v), ms) < 0)
		return error_set(e, "%s.%s: not an ISO 8601 time from 1970 on: '%s'", where,
		    key, json_string_value(v));
	return 0;
}

static int
want_string_or_null(json_t *obj, const char *key, const char *where,
    struct error *e)
{
	json_t *v = json_object_get(obj, key);

	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return error_set(e, "%s.%s: expected a string or null", where, key);
	return 0;
}

static int
message_validate(json_t *m, const char *where, struct error *e)
{
	json_t *v, *t;
	enum conv_role r;
	int64_t ms;
	size_t i;

	if (!json_is_object(m))
		return error_set(e, "%s: expected an object", where);
	v = json_object_get(m, "role");
	if (v == NULL)
		return error_set(e, "%s: missing 'role'", where);
	if (!json_is_string(v))
		return error_set(e, "%s.role: expected a string", where);
	if (role_parse(json_string_value(v), &r) < 0)
		return error_set(e, "%s.role: unknown role '%s' (expected user, "
		    "assistant, system or tool)", where, json_string_value(v));
	v = json_object_get(m, "content");
	if (v == NULL)
		return error_set(e, "%s: missing 'content'", where);
	if (!json_is_string(v))
		return error_set(e, "%s.content: expected a string", where);
	if (want_time(m, "timestamp", 0, where, &ms, e) < 0)
		return -1;
	v = json_object_get(m, "id");
	if (v != NULL && !json_is_string(v))
		return error_set(e, "%s.id: expected a string", where);
	v = json_object_get(m, "toolsUsed");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v))
			return error_set(e, "%s.toolsUsed: expected an array", where);
		json_array_foreach(v, i, t)
			if (!json_is_string(t))
				return error_set(e, "%s.toolsUsed[%zu]: expected a "
				    "string", where, i);
	}
	return 0;
}

int
conv_validate(json_t *c, const char *where, struct error *e)
{
	char at[256];
	json_t *v, *msgs, *m;
	int64_t ms;
	size_t i;

	if (!json_is_object(c))
		return error_set(e, "%s: expected an object", where);
	v = json_object_get(c, "id");
	if (v == NULL)
		return error_set(e, "%s: missing 'id'", where);
	if (!json_is_string(v) || json_string_length(v) == 0)
		return error_set(e, "%s.id: expected a non-empty string", where);
	if (want_time(c, "startedAt", 0, where, &ms, e) < 0 ||
	    want_time(c, "endedAt", 1, where, &ms, e) < 0 ||
	    want_string_or_null(c, "title", where, e) < 0 ||
	    want_string_or_null(c, "summary", where, e) < 0)
		return -1;
	msgs = json_object_get(c, "messages");
	if (msgs == NULL)
		return error_set(e, "%s: missing 'messages'", where);
	if (!json_is_array(msgs))
		return error_set(e, "%s.messages: expected an array", where);
	json_array_foreach(msgs, i, m) {
		snprintf(at, sizeof(at), "%s.messages[%zu]", where, i);
		if (message_validate(m, at, e) < 0)
			return -1;
	}
	return 0;
}

/* fills what the store caches about c from c->obj, which is valid */
int
conv_refresh(struct conv *c, struct error *e)
{
	json_t *msgs = json_object_get(c->obj, "messages"), *v;
	size_t n = json_array_size(msgs);

	c->id = json_str(c->obj, "id", NULL);
	c->title = json_str(c->obj, "title", NULL);
	c->summary = json_str(c->obj, "summary", NULL);
	if (ts_parse(json_str(c->obj, "startedAt", NULL), &c->started) < 0)
		return error_set(e, "conversation '%s': bad startedAt", c->id);
	v = json_object_get(c->obj, "endedAt");
	c->ended = -1;
	if (json_is_string(v) && ts_parse(json_string_value(v), &c->ended) < 0)
		return error_set(e, "conversation '%s': bad endedAt", c->id);
	c->nmsg = n;
	c->last = c->started;
	if (n > 0 && ts_parse(json_str(json_array_get(msgs, n - 1),
	    "timestamp", NULL), &c->last) < 0)
		return error_set(e, "conversation '%s': bad timestamp", c->id);
	return 0;
}

json_t *
conv_json(struct conv *c)
{
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
	free(c);
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
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->conv = xrealloc(st->conv, st->cap * sizeof(*st->conv));
	}
	st->conv[st->n++] = c;
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
store_remove(struct store *st, struct conv *c)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->conv[i] == c) {
			memmove(st->conv + i, st->conv + i + 1,
			    (st->n - i - 1) * sizeof(*st->conv));
			st->n--;
			conv_free(c);
			return;
		}
}

/* newest endedAt first; of equal times, the later in the file first */
static int
by_ended_desc(const void *a, const void *b)
{
	const struct conv *x = *(struct conv *const *)a, *y = *(struct conv *const *)b;

	if (x->ended != y->ended)
		return x->ended < y->ended ? 1 : -1;
	return 0;
}

struct conv **
store_ended(struct store *st, size_t *n)
{
	struct conv **v = xmalloc((st->n + 1) * sizeof(*v));
	size_t i, k = 0;

	for (i = st->n; i-- > 0;)	/* reversed, so a stable sort keeps later first */
		if (st->conv[i]->ended >= 0)
			v[k++] = st->conv[i];
	/* qsort is not stable: order equal times by file position by hand */
	for (i = 1; i < k; i++) {
		struct conv *c = v[i];
		size_t j = i;

		while (j > 0 && by_ended_desc(&v[j - 1], &c) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = c;
	}
	v[k] = NULL;
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
	char where[64];
	json_t *v, *convs, *c;
	struct conv *active = NULL, *cv;
	size_t i, j;

	if (!json_is_object(root))
		return error_set(e, "expected a JSON object at the top");
	v = json_object_get(root, "version");
	if (v != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1)
			return error_set(e, "version: expected a whole number from 1");
		if (json_integer_value(v) > STORE_VERSION)
			return error_set(e, "store version %lld is newer than this "
			    "convctl knows (%d); upgrade convctl",
			    (long long)json_integer_value(v), STORE_VERSION);
	}
	v = json_object_get(root, "lastMigrated");
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return error_set(e, "lastMigrated: expected a string or null");
	convs = json_object_get(root, "conversations");
	if (convs != NULL && !json_is_array(convs))
		return error_set(e, "conversations: expected an array");
	json_array_foreach(convs, i, c) {
		snprintf(where, sizeof(where), "conversations[%zu]", i);
		if (conv_validate(c, where, e) < 0)
			return -1;
		if ((cv = store_append(st, json_incref(c), e)) == NULL)
			return -1;
		if (cv->ended < 0) {
			if (active != NULL)
				return error_set(e, "%s: two active conversations "
				    "('%s' and '%s'); at most one may have endedAt "
				    "null", where, active->id, cv->id);
			active = cv;
		}
	}
	/* ids are unique; a sort would be faster, but stores are small in count */
	for (i = 1; i < st->n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(st->conv[i]->id, st->conv[j]->id) == 0)
				return error_set(e, "conversations[%zu].id: '%s' is "
				    "also the id of conversations[%zu]", i,
				    st->conv[i]->id, j);
	json_object_del(root, "conversations");
	st->root = json_incref(root);
	return 0;
}

static int
load(struct store *st, struct error *e)
{
	struct buf b = { 0 };
	json_error_t je;
	json_t *root = NULL;
	struct stat sb;
	int fd, rc = -1;

	fd = open(st->file, O_RDONLY | O_CLOEXEC);
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
	if (S_ISDIR(sb.st_mode)) {
		error_set(e, "store '%s' is a directory", st->path);
		goto out;
	}
	if (buf_read_fd(&b, fd, st->path, e) < 0)
		goto out;
	if (b.len == 0) {	/* an empty file holds no conversations */
		st->root = json_object();
		rc = 0;
		goto out;
	}
	root = json_loadb(b.data, b.len, JSON_LOAD_FLAGS, &je);
	if (root == NULL) {
		error_set(e, "'%s':%d:%d: %s", st->path, je.line, je.column, je.text);
		goto out;
	}
	if (adopt(st, root, e) < 0) {
		error_in_file(e, st->path);
		goto out;
	}
	rc = 0;
out:
	json_decref(root);
	buf_free(&b);
	close(fd);
	return rc;
}

/* locking */

static int
mkdirs(char *dir, struct error *e)
{
	char *slash;
	struct stat sb;

	if (stat(dir, &sb) == 0)
		return 0;
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

static char *
dir_of(const char *path)
{
	char *copy = xstrdup(path), *d = xstrdup(dirname(copy));

	free(copy);
	return d;
}

/*
 * Temporary files are named .BASE.XXXXXX; only a lock holder makes them, so
 * any found while holding the lock was left by a writer that was killed.
 */
static void
remove_stale_temps(const char *file)
{
	char *dir = dir_of(file), *copy = xstrdup(file), *base = basename(copy);
	size_t blen = strlen(base);
	struct dirent *d;
	DIR *dp;

	if ((dp = opendir(dir)) != NULL) {
		while ((d = readdir(dp)) != NULL) {
			const char *n = d->d_name;

			if (n[0] == '.' && strncmp(n + 1, base, blen) == 0 &&
			    n[1 + blen] == '.' && strlen(n + 2 + blen) == 6)
				unlinkat(dirfd(dp), n, 0);
		}
		closedir(dp);
	}
	free(dir);
	free(copy);
}

static int
lock(struct store *st, double wait, struct error *e)
{
	struct buf lp = { 0 };
	struct timespec nap = { 0, 10 * 1000000 };
	double waited = 0;
	char *dir;
	int rc;

	dir = dir_of(st->file);
	rc = mkdirs(dir, e);
	free(dir);
	if (rc < 0)
		return -1;
	buf_adds(&lp, st->file);
	buf_adds(&lp, ".lock");
	st->lockfd = open(lp.data, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (st->lockfd < 0) {
		error_errno(e, "cannot open lock '%s'", lp.data);
		buf_free(&lp);
		return -1;
	}
	while (flock(st->lockfd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			error_errno(e, "cannot lock '%s'", lp.data);
			buf_free(&lp);
			return -1;
		}
		if (waited >= wait) {
			error_set(e, "store '%s' is locked by another convctl; gave "
			    "up after %g seconds (see --wait)", st->path, wait);
			buf_free(&lp);
			return -1;
		}
		nanosleep(&nap, NULL);
		waited += nap.tv_nsec / 1e9;
		if (nap.tv_nsec < 100 * 1000000)
			nap.tv_nsec += 10 * 1000000;
	}
	buf_free(&lp);
	remove_stale_temps(st->file);
	return 0;
}

/*
 * The file a path names, links followed, even to a target that does not exist
 * yet: a store that is a dangling link gets its target created, and the link
 * is never replaced by a regular file.
 */
static char *
resolve(const char *path)
{
	char real[PATH_MAX], target[PATH_MAX], *cur = xstrdup(path), *dir;
	struct buf b = { 0 };
	ssize_t n;
	int depth;

	for (depth = 0; depth < 40; depth++) {
		if (realpath(cur, real) != NULL) {
			free(cur);
			return xstrdup(real);
		}
		if ((n = readlink(cur, target, sizeof(target) - 1)) < 0)
			break;		/* not a link: the file is made here */
		target[n] = '\0';
		if (target[0] != '/') {
			dir = dir_of(cur);
			buf_addf(&b, "%s/", dir);
			free(dir);
		}
		buf_adds(&b, target);
		free(cur);
		cur = buf_detach(&b);
	}
	return cur;
}

int
store_open(struct store **out, const char *path, enum store_mode mode,
    double wait, struct error *e)
{
	struct store *st = xmalloc(sizeof(*st));

	memset(st, 0, sizeof(*st));
	st->lockfd = -1;
	st->path = xstrdup(path);
	/* a store that is a symlink is followed: its target is what gets replaced */
	st->file = resolve(path);
	if ((mode == STORE_WRITE && lock(st, wait, e) < 0) || load(st, e) < 0) {
		store_close(st);
		return -1;
	}
	*out = st;
	return 0;
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
	free(st->path);
	free(st->file);
	free(st);
}

/* saving */

/* the file's text: one conversation a line, so a diff or grep stays readable */
static void
serialize(struct store *st, struct buf *b)
{
	const char *key;
	json_t *v, *k;
	size_t i, klen;

	buf_addf(b, "{\n  \"version\": %d,\n  \"conversations\": [", STORE_VERSION);
	for (i = 0; i < st->n; i++) {
		buf_adds(b, i ? ",\n    " : "\n    ");
		json_dump_buf(b, st->conv[i]->obj);
	}
	buf_adds(b, st->n ? "\n  ]" : "]");
	json_object_keylen_foreach(st->root, key, klen, v) {
		if (strcmp(key, "version") == 0)
			continue;
		k = json_stringn(key, klen);
		buf_adds(b, ",\n  ");
		json_dump_buf(b, k);
		buf_adds(b, ": ");
		json_dump_buf(b, v);
		json_decref(k);
	}
	buf_adds(b, "\n}\n");
}

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
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
store_save(struct store *st, struct error *e)
{
	struct buf text = { 0 }, tmp = { 0 };
	char *dir = dir_of(st->file), *copy = xstrdup(st->file);
	struct stat sb;
	int fd = -1, rc = -1;

	if (st->lockfd < 0) {
		error_set(e, "store '%s' was opened for reading", st->path);
		goto out;
	}
	serialize(st, &text);
	buf_addf(&tmp, "%s/.%s.XXXXXX", dir, basename(copy));
	/* mkstemp: a fresh unpredictable name, created 0600, never a planted link */
	if ((fd = mkstemp(tmp.data)) < 0) {
		error_errno(e, "cannot create a temporary file in '%s'", dir);
		goto out;
	}
	/* keep the mode a user gave an existing store */
	if (stat(st->file, &sb) == 0 && S_ISREG(sb.st_mode))
		fchmod(fd, sb.st_mode & 0777);
	if (write_all(fd, text.data, text.len) < 0) {
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
	if (rename(tmp.data, st->file) < 0) {
		error_errno(e, "cannot replace store '%s'", st->path);
		goto out;
	}
	buf_free(&tmp);		/* renamed: nothing left to clean up */
	if (fsync_dir(dir) < 0) {
		error_errno(e, "cannot flush directory '%s' to disk", dir);
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (tmp.data != NULL)
		unlink(tmp.data);
	buf_free(&tmp);
	buf_free(&text);
	free(copy);
	free(dir);
	return rc;
}
