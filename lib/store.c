/*
 * store.c - the store file: load and check its shape, lock, write atomically.
 *
 * A write goes to a fresh temporary file in the store's directory, is flushed
 * to disk, renamed over the store and the directory flushed, so a crash at any
 * instant leaves the old store or the new one. Writers serialise on a lock
 * file beside the store (flock, so a killed holder never leaves it held);
 * readers never take it: rename makes each read see one whole version.
 *
 * Loading reads the file and checks it in one pass (scan.c) without building
 * it: each conversation stays a range of the file's bytes with the few fields
 * the store caches, and only those that conv_json() is asked for are parsed
 * with jansson. Saving writes the unchanged ones back as the bytes they were,
 * with one writev. A file the scanner refuses is parsed whole with jansson,
 * whose error names the line and column.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "scan.h"

struct conv {
	json_t *obj;		/* NULL until conv_json() parses raw */
	const char *raw;	/* its bytes in the store's file; NULL: new */
	size_t rawlen;
	int canonical;		/* raw is what json_dump_buf() would write */
	char *own[3];		/* id, title, summary as the scanner decoded them */
	const char *id, *title, *summary;	/* point into obj or own */
	int64_t started, ended, last;
	size_t nmsg;
	int doomed;		/* store_remove() is taking it out */
};

struct store {
	char *path;		/* as the user named it */
	char *file;		/* what is read and replaced: path, links followed */
	int lockfd;		/* -1: opened for reading */
	json_t *root;		/* every top-level field but "conversations" */
	struct conv **conv;
	size_t n, cap;
	char *data;		/* the file as loaded: raw conversations point here */
	size_t len;
	size_t max;		/* the largest file loaded, in bytes */
	size_t mapped;		/* data is an anonymous mapping this long; 0: malloc */
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
	if (!json_is_text(v))
		return error_set(e, "%s.%s: expected a time string%s", where, key,
		    nullable ? " or null" : "");
	if (ts_parse(json_string_value(v), ms) < 0)
		return error_set(e, "%s.%s: not an ISO 8601 time from 1970 on: '%s'", where,
		    key, json_string_value(v));
	return 0;
}

/* obj.key is there and a string, not "" when nonempty; *v is it */
static int
want_string(json_t *obj, const char *key, int nonempty, const char *where,
    json_t **v, struct error *e)
{
	*v = json_object_get(obj, key);
	if (*v == NULL)
		return error_set(e, "%s: missing '%s'", where, key);
	if (!json_is_text(*v) || (nonempty && json_string_length(*v) == 0))
		return error_set(e, "%s.%s: expected a %sstring", where, key,
		    nonempty ? "non-empty " : "");
	return 0;
}

static int
want_string_or_null(json_t *obj, const char *key, const char *where,
    struct error *e)
{
	json_t *v = json_object_get(obj, key);

	if (v != NULL && !json_is_null(v) && !json_is_text(v))
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
	if (want_string(m, "role", 0, where, &v, e) < 0)
		return -1;
	if (role_parse(json_string_value(v), &r) < 0)
		return error_set(e, "%s.role: unknown role '%s' (expected user, "
		    "assistant, system or tool)", where, json_string_value(v));
	if (want_string(m, "content", 0, where, &v, e) < 0 ||
	    want_time(m, "timestamp", 0, where, &ms, e) < 0)
		return -1;
	v = json_object_get(m, "id");
	if (v != NULL && !json_is_text(v))
		return error_set(e, "%s.id: expected a string", where);
	v = json_object_get(m, "toolsUsed");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v))
			return error_set(e, "%s.toolsUsed: expected an array", where);
		json_array_foreach(v, i, t)
			if (!json_is_text(t))
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
	if (want_string(c, "id", 1, where, &v, e) < 0 ||
	    want_time(c, "startedAt", 0, where, &ms, e) < 0 ||
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
	if (v != NULL && !json_is_null(v) && !json_is_text(v))
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

static int
not_a_store(struct error *e, const char *path, mode_t m)
{
	error_set(e, "'%s' is %s, not a store file", path, type_name(m));
	return -2;
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
		rc = not_a_store(e, st->path, sb.st_mode);
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

/* locking */

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

static char *
dir_of(const char *path)
{
	char *copy = xstrdup(path), *d = xstrdup(dirname(copy));

	free(copy);
	return d;
}

/* temporary files are .BASE.convctl-tmp.XXXXXX: no one else writes the mark */
#define TEMP_MARK ".convctl-tmp."

/*
 * Only a lock holder makes temporary files, and it renames or removes its own
 * before it lets the lock go; so one found while holding the lock, with the
 * mark, a regular file of the caller's with no other name, was left by a
 * writer that was killed. Nothing else is touched.
 */
static void
remove_stale_temps(const char *file)
{
	char *dir = dir_of(file), *copy = xstrdup(file), *base = basename(copy);
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

static int
lock(struct store *st, double wait, struct error *e)
{
	struct buf lp = { 0 };
	struct timespec nap = { 0, 10 * 1000000 };
	struct stat sb, lsb;
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
	/* root locking a user's store leaves the lock the user's too, or the
	 * user's next write could not open it; only an empty file of one name */
	if (geteuid() == 0 && stat(st->file, &sb) == 0 &&
	    fstat(st->lockfd, &lsb) == 0 && S_ISREG(lsb.st_mode) &&
	    lsb.st_nlink == 1 && lsb.st_size == 0 &&
	    (lsb.st_uid != sb.st_uid || lsb.st_gid != sb.st_gid) &&
	    fchown(st->lockfd, sb.st_uid, sb.st_gid) < 0) {
		error_errno(e, "cannot give lock '%s' the store's owner", lp.data);
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
 * The kernel's protected_symlinks rule, kept whatever the sysctl says: in a
 * sticky world-writable directory (/tmp) a link is followed only when it is
 * the caller's or the directory owner's; anyone can plant one there.
 */
static int
link_protected(const char *link, const struct stat *lsb, struct error *e)
{
	char *dir = dir_of(link);
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
	struct stat sb;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	st->lockfd = -1;
	st->path = xstrdup(path);
	st->max = max;
	/* nothing is made (lock, directory, temporary file) before these */
	if (names_descriptor(path)) {
		error_set(e, "'%s' is %s, not a store file", path,
		    strcmp(path, "-") == 0 ? "standard input here (a file "
		    "named '-' is ./-)" : "an open file descriptor");
		rc = -2;
		goto fail;
	}
	/* a store that is a symlink is followed: its target is what gets replaced */
	if (resolve(path, &st->file, e) < 0)
		goto fail;
	if (stat(st->file, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		rc = not_a_store(e, path, sb.st_mode);
		goto fail;
	}
	if ((mode == STORE_WRITE && lock(st, wait, e) < 0) ||
	    (rc = load(st, e)) < 0)
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

/* saving */

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
	size_t i, klen;
	char head[64];

	snprintf(head, sizeof(head), "{\n  \"version\": %d,\n  \"conversations\": [",
	    STORE_VERSION);
	piece_text(o, head, strlen(head));
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
	struct stat old, tmp;

	if (stat(st->file, &old) < 0 || !S_ISREG(old.st_mode))
		return 0;	/* a new store: the caller's, 0600 */
	if (faccessat(AT_FDCWD, st->file, W_OK, AT_EACCESS) < 0)
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
store_save(struct store *st, struct error *e)
{
	struct pieces text = { { 0 }, NULL, 0, 0 };
	struct buf tmp = { 0 };
	char *dir = dir_of(st->file), *copy = xstrdup(st->file);
	int fd = -1, rc = -1;

	if (st->lockfd < 0) {
		error_set(e, "store '%s' was opened for reading", st->path);
		goto out;
	}
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
	if (rename(tmp.data, st->file) < 0) {
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
