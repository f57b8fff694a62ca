/*
 * migrate.c - brings other tools' histories into the store, once.
 *
 * A run reads every source first (a file, or the files of a directory), each
 * through its format's reader in migrate-formats.c, and fails on the first
 * thing wrong before the store is touched. Only then are ids checked against
 * the store, the conversations appended, and each source recorded in the
 * store's "imports" by its SHA-256, so that the same bytes are never imported
 * twice. The caller saves the store, or, on error, does not.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "migrate.h"

struct migrate_result {
	const struct migrate_request *rq;
	struct mig_source *src;
	size_t nsrc;
	json_t *notes;			/* strings */
	json_t *imported;		/* id -> the conversations added; true: its
					 * summary is migrate's own */
	size_t nconv, nmsg, nnew;
};

const char migrate_formats[] =
    "smarthole, messages, jsonl, chatsidian, aiwhisperer";
static const char *const format_names[] = {
	"smarthole", "messages", "jsonl", "chatsidian", "aiwhisperer",
};

int
migrate_format_parse(const char *s, enum migrate_format *f)
{
	int i;

	for (i = 0; i < MIGRATE_DETECT; i++)
		if (strcmp(s, format_names[i]) == 0) {
			*f = (enum migrate_format)i;
			return 0;
		}
	return -1;
}

const char *
migrate_format_name(enum migrate_format f)
{
	return f < MIGRATE_DETECT ? format_names[f] : "detect";
}

/*
 * s with each byte that is not UTF-8 replaced by U+FFFD: file names are bytes,
 * and jansson takes only valid strings (a name it refused would be lost)
 */
static char *
utf8_clean(const char *s)
{
	struct buf b = { 0 };
	size_t len = strlen(s);
	long bad;

	while ((bad = utf8_invalid_at(s, len)) >= 0) {
		buf_add(&b, s, (size_t)bad);
		buf_adds(&b, "\xef\xbf\xbd");
		s += bad + 1;
		len -= (size_t)bad + 1;
	}
	buf_add(&b, s, len);
	return buf_detach(&b);
}

static json_t *
clean_string(const char *s)
{
	char *c = utf8_clean(s);
	json_t *v = json_string(c);

	free(c);
	return v;
}

static void
vnote(json_t *notes, const char *fmt, va_list ap)
{
	char raw[1024], msg[sizeof(raw)];

	/* a note quotes the source, as an error does: one printable line */
	vsnprintf(raw, sizeof(raw), fmt, ap);
	error_printable(msg, sizeof(msg), raw);
	json_array_append_new(notes, clean_string(msg));
}

static void
note(json_t *notes, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(notes, fmt, ap);
	va_end(ap);
}

/* what readers call */

void
mig_note(struct mig_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(r->notes, fmt, ap);
	va_end(ap);
}

void
mig_progress(struct mig_reader *r, size_t done, size_t total)
{
	if (r->rq->progress != NULL)
		r->rq->progress(r->rq->progress_arg, r->src->file, done, total);
}

int
mig_is_epoch(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return 0;
	if (*p == '.' && p[1] >= '0' && p[1] <= '9')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	return *p == '\0';
}

/*
 * A time: an ISO 8601 string, or milliseconds since the epoch as a number or
 * a string of digits; below 1e11 they are taken as seconds (Python's
 * time.time()), since as milliseconds they would all fall in 1970.
 */
int
mig_time_of(json_t *v, int64_t *ms)
{
	double d;

	if (json_is_string(v) && !mig_is_epoch(json_string_value(v)))
		return ts_parse(json_string_value(v), ms);
	if (json_is_string(v))
		d = strtod(json_string_value(v), NULL);
	else if (json_is_number(v))
		d = json_number_value(v);
	else
		return -1;
	if (d < 0 || d > 253402300799999.0)	/* past 9999: not a time */
		return -1;
	if (d < 1e11)
		d *= 1000;
	*ms = (int64_t)d;
	return 0;
}

int64_t
mig_time(json_t *m)
{
	int64_t ms = 0;

	mig_time_of(json_object_get(m, "timestamp"), &ms);
	return ms;
}

static void
push(struct mig_source *s, json_t *c, int own)
{
	s->messages += json_array_size(json_object_get(c, "messages"));
	json_array_append_new(s->convs, c);
	json_array_append_new(s->own, json_boolean(own));
}

/*
 * --split: a conversation cut where its messages are further apart than the
 * idle timeout. The first piece keeps the id and every field; the others are
 * ID-2, ID-3… with their own times and "splitFrom" naming the first.
 */
void
mig_add(struct mig_reader *r, json_t *c, int own, int splittable)
{
	json_t *msgs = json_object_get(c, "messages"), *piece, *part, *first;
	char ts[TS_LEN];
	struct buf id = { 0 };
	size_t i, start = 0, n = json_array_size(msgs), k = 1;

	if (!r->rq->split || !splittable || n < 2) {
		push(r->src, c, own);
		return;
	}
	first = json_copy(c);
	part = json_array();
	for (i = 0; i <= n; i++) {
		if (i < n && (i == 0 || mig_time(json_array_get(msgs, i)) -
		    mig_time(json_array_get(msgs, i - 1)) <= r->rq->idle_timeout)) {
			json_array_append(part, json_array_get(msgs, i));
			continue;
		}
		/* a piece ends at i: the first keeps the conversation's fields */
		if (start == 0)
			piece = first;
		else {
			id.len = 0;
			buf_addf(&id, "%s-%zu", json_str(c, "id", NULL), ++k);
			ts_format(mig_time(json_array_get(part, 0)), ts);
			piece = json_pack("{s:s, s:s, s:n, s:O?, s:n, s:s}", "id",
			    id.data, "startedAt", ts, "endedAt", "title",
			    json_object_get(c, "title"), "summary", "splitFrom",
			    json_str(c, "id", NULL));
		}
		json_object_set(piece, "messages", part);
		if (i < n) {	/* not the last piece: ended at its last message */
			ts_format(mig_time(json_array_get(part,
			    json_array_size(part) - 1)), ts);
			json_object_set_new(piece, "endedAt", json_string(ts));
		} else if (start > 0)
			json_object_set(piece, "endedAt", json_object_get(c,
			    "endedAt"));
		push(r->src, piece, own);
		json_decref(part);
		if (i == n)
			break;
		part = json_array();
		json_array_append(part, json_array_get(msgs, i));
		start = i;
	}
	buf_free(&id);
	json_decref(c);
}

/* finding the sources */

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* the session id a file's name gives: ID.jsonl, or ID/events.jsonl */
static char *
session_of(const char *file)
{
	const char *base = strrchr(file, '/'), *start;
	static const char *const exts[] = { ".jsonl", ".ndjson", ".json" };
	size_t n, i;
	char *s;

	base = base ? base + 1 : file;
	if (strcmp(base, "events.jsonl") == 0 && base > file + 1) {
		for (start = base - 2; start > file && *start != '/'; start--)
			;
		if (*start == '/')
			start++;
		n = (size_t)(base - 1 - start);
	} else {
		start = base;
		n = strlen(base);
		for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
			if (has_suffix(base, exts[i]) && n > strlen(exts[i])) {
				n -= strlen(exts[i]);
				break;
			}
	}
	s = xmalloc(n + 1);
	memcpy(s, start, n);
	s[n] = '\0';
	return s;
}

static void
add_source(struct migrate_result *res, const char *file)
{
	struct mig_source *s;

	res->src = xrealloc(res->src, (res->nsrc + 1) * sizeof(*res->src));
	s = &res->src[res->nsrc++];
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	s->name = utf8_clean(file);
	s->session = session_of(s->name);
	s->convs = json_array();
	s->own = json_array();
	s->renamed = json_object();
}

/*
 * a directory: NAME.json, NAME.jsonl, NAME.ndjson and NAME/events.jsonl, by
 * name; never the store itself, should it live there
 */
static int
collect_dir(struct migrate_result *res, const char *dir, const char *store,
    struct error *e)
{
	struct dirent **names = NULL;
	struct stat sb, self;
	int have_self = stat(store, &self) == 0;
	struct buf p = { 0 };
	const char *n;
	int i, count, rc = -1;

	if ((count = scandir(dir, &names, NULL, alphasort)) < 0)
		return error_errno(e, "cannot read directory '%s'", dir);
	for (i = 0; i < count; i++) {
		n = names[i]->d_name;
		if (n[0] == '.')
			continue;
		p.len = 0;
		buf_addf(&p, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", n);
		if (stat(p.data, &sb) < 0) {
			error_errno(e, "cannot read '%s'", p.data);
			goto out;
		}
		if (have_self && sb.st_dev == self.st_dev &&
		    sb.st_ino == self.st_ino)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			buf_adds(&p, "/events.jsonl");
			if (stat(p.data, &sb) == 0 && S_ISREG(sb.st_mode))
				add_source(res, p.data);
		} else if (S_ISREG(sb.st_mode) && (has_suffix(n, ".json") ||
		    has_suffix(n, ".jsonl") || has_suffix(n, ".ndjson")))
			add_source(res, p.data);
	}
	if (res->nsrc == 0) {
		error_set(e, "'%s': no .json or .jsonl files in it, nor "
		    "SESSION/events.jsonl", dir);
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	buf_free(&p);
	return rc;
}

/* reading a source */

/* the format from the name, then the parsed shape; *root is its JSON */
static int
detect(struct mig_reader *r, const struct buf *text, json_t **root,
    struct error *e)
{
	struct mig_source *s = r->src;
	json_error_t je;
	json_t *v;
	size_t i;

	*root = NULL;
	s->format = r->rq->format;
	if (s->format == MIGRATE_JSONL || (s->format == MIGRATE_DETECT &&
	    (has_suffix(s->file, ".jsonl") || has_suffix(s->file, ".ndjson")))) {
		s->format = MIGRATE_JSONL;
		return 0;
	}
	v = json_loadb(text->data, text->len, JSON_LOAD_FLAGS |
	    JSON_DISABLE_EOF_CHECK, &je);
	if (v != NULL) {
		for (i = je.position; i < text->len; i++)
			if (strchr(" \t\r\n", text->data[i]) == NULL)
				break;
		if (i < text->len) {
			/* more after the first value: JSON lines, or garbage */
			json_decref(v);
			if (s->format == MIGRATE_DETECT && text->data[i] == '{') {
				s->format = MIGRATE_JSONL;
				return 0;
			}
			v = json_loadb(text->data, text->len, JSON_LOAD_FLAGS, &je);
		}
	}
	if (v == NULL)
		return error_set(e, "'%s':%d:%d: %s", s->file, je.line, je.column,
		    je.text);
	*root = v;
	if (s->format != MIGRATE_DETECT)
		return 0;
	if (json_is_array(v))
		s->format = MIGRATE_MESSAGES;
	else if (!json_is_object(v))
		;
	else if (json_object_get(v, "conversationHistory") != NULL ||
	    json_object_get(v, "conversationData") != NULL ||
	    json_object_get(v, "recentConversations") != NULL ||
	    json_is_array(json_object_get(v, "conversations")))
		s->format = MIGRATE_SMARTHOLE;
	else if (json_object_get(v, "tasks") != NULL)
		s->format = MIGRATE_AIWHISPERER;
	else if (json_object_get(v, "messages") != NULL &&
	    json_object_get(v, "id") != NULL)
		s->format = MIGRATE_CHATSIDIAN;
	else if (json_object_get(v, "role") != NULL) {
		s->format = MIGRATE_JSONL;	/* a log of one record */
		json_decref(v);
		*root = NULL;
	}
	if (s->format == MIGRATE_DETECT)
		return error_set(e, "'%s': cannot tell its format; name it with "
		    "--format (%s)", s->file, migrate_formats);
	return 0;
}

int
migrate_read(const char *file, size_t max, struct buf *b, struct error *e)
{
	struct stat sb;
	int fd, rc = -1;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return error_errno(e, "cannot open '%s'", file);
	if (fstat(fd, &sb) < 0)
		error_errno(e, "cannot stat '%s'", file);
	else if (max > 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
		error_set(e, "'%s' is %jd bytes, larger than the limit of %zu "
		    "bytes (the max_input_bytes setting)", file,
		    (intmax_t)sb.st_size, max);
	else if (max > 0)
		rc = buf_read_max(b, fd, file, max, "max_input_bytes", e);
	else
		rc = buf_read_fd(b, fd, file, e);
	close(fd);
	return rc;
}

/* the record of an earlier import of these bytes, or NULL */
static json_t *
imported_before(json_t *imports, const char *sha)
{
	json_t *rec;
	size_t i;
	const char *h;

	json_array_foreach(imports, i, rec)
		if ((h = json_str(rec, "sha256", NULL)) != NULL &&
		    strcmp(h, sha) == 0)
			return rec;
	return NULL;
}

static int
read_source(struct migrate_result *res, size_t k, json_t *imports,
    struct error *e)
{
	struct mig_source *s = &res->src[k];
	struct mig_reader r = { res->rq, s, res->notes };
	struct buf text = { 0 };
	json_t *root = NULL, *rec;
	size_t i;
	int rc = -1;

	if (res->rq->data != NULL && strcmp(s->file, res->rq->path) == 0)
		buf_add(&text, res->rq->data, res->rq->len);
	else if (migrate_read(s->file, res->rq->max_bytes, &text, e) < 0)
		goto out;
	sha256_hex(text.data, text.len, s->sha);
	if ((rec = imported_before(imports, s->sha)) != NULL) {
		s->status = SRC_BEFORE;
		s->before = xstrdup(json_str(rec, "importedAt", NULL) ?
		    json_str(rec, "importedAt", NULL) : "an earlier run");
		if (json_str(rec, "format", NULL) != NULL)
			migrate_format_parse(json_str(rec, "format", NULL),
			    &s->format);
		rc = 0;
		goto out;
	}
	for (i = 0; i < k; i++)
		if (strcmp(res->src[i].sha, s->sha) == 0) {
			s->status = SRC_DUPLICATE;
			s->before = xstrdup(res->src[i].file);
			s->format = res->src[i].format;
			rc = 0;
			goto out;
		}
	/* a byte order mark (Windows editors write one) is not JSON */
	if (text.len >= 3 && memcmp(text.data, "\xef\xbb\xbf", 3) == 0) {
		memmove(text.data, text.data + 3, text.len - 2);
		text.len -= 3;
	}
	if (detect(&r, &text, &root, e) < 0)
		goto out;
	switch (s->format) {
	case MIGRATE_SMARTHOLE: rc = mig_read_smarthole(&r, root, e); break;
	case MIGRATE_MESSAGES: rc = mig_read_messages(&r, root, e); break;
	case MIGRATE_JSONL: rc = mig_read_jsonl(&r, text.data ? text.data : "",
	    text.len, e); break;
	case MIGRATE_CHATSIDIAN: rc = mig_read_chatsidian(&r, root, e); break;
	case MIGRATE_AIWHISPERER: rc = mig_read_aiwhisperer(&r, root, e); break;
	case MIGRATE_DETECT: break;
	}
out:
	json_decref(root);
	buf_free(&text);
	return rc;
}

/* placing the conversations in the store */

static int
id_taken(struct store *st, json_t *taken, const char *id)
{
	return store_find(st, id) != NULL || json_object_get(taken, id) != NULL;
}

static char *
free_id(struct store *st, json_t *taken, const char *id)
{
	struct buf b = { 0 };
	int n = 2;

	do {
		b.len = 0;
		buf_addf(&b, "%s-%d", id, n++);
	} while (id_taken(st, taken, b.data));
	return buf_detach(&b);
}

/* each conversation gets its id, or a free one; a clash of its own is a conflict */
static int
place_ids(struct store *st, struct migrate_result *res, struct error *e)
{
	json_t *taken = json_object(), *c, *by;
	struct mig_source *s;
	const char *id;
	char *fresh;
	size_t k, i;
	int rc = -1;

	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		json_array_foreach(s->convs, i, c) {
			id = json_str(c, "id", NULL);
			if (!id_taken(st, taken, id)) {
				json_object_set_new(taken, id, json_string(s->name));
				continue;
			}
			fresh = free_id(st, taken, id);
			if (json_is_true(json_array_get(s->own, i)) &&
			    !res->rq->rename_conflicts) {
				by = json_object_get(taken, id);
				if (by != NULL)
					error_set(e, "'%s': conversation '%s' is also "
					    "in '%s'; nothing imported "
					    "(--rename-conflicts imports it as "
					    "'%s')", s->file, id,
					    json_string_value(by), fresh);
				else
					error_set(e, "'%s': conversation '%s' is "
					    "already in the store; nothing "
					    "imported (--rename-conflicts imports "
					    "it as '%s')", s->file, id, fresh);
				free(fresh);
				goto out;
			}
			if (json_is_true(json_array_get(s->own, i)))
				json_object_set_new(s->renamed, fresh,
				    json_string(id));
			json_object_set_new(c, "id", json_string(fresh));
			json_object_set_new(taken, fresh, json_string(s->name));
			free(fresh);
		}
	}
	rc = 0;
out:
	json_decref(taken);
	return rc;
}

/* at most one conversation is active: a second is ended at its last message */
static void
one_active(struct store *st, struct migrate_result *res)
{
	int active = store_active(st) != NULL;
	json_t *c, *msgs, *end;
	struct mig_source *s;
	size_t k, i, n;

	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		json_array_foreach(s->convs, i, c) {
			if (!json_is_null(json_object_get(c, "endedAt")) &&
			    json_object_get(c, "endedAt") != NULL)
				continue;
			if (!active) {
				active = 1;
				continue;
			}
			msgs = json_object_get(c, "messages");
			n = json_array_size(msgs);
			end = n > 0 ? json_object_get(json_array_get(msgs, n - 1),
			    "timestamp") : json_object_get(c, "startedAt");
			json_object_set(c, "endedAt", end);
			note(res->notes, "'%s': conversation '%s' was active; "
			    "ended it at %s, as the store has an active one",
			    s->file, json_str(c, "id", NULL),
			    json_string_value(end));
		}
	}
}

static void
record(struct store *st, struct migrate_result *res, json_t *imports)
{
	char ts[TS_LEN], real[PATH_MAX];
	json_t *rec, *ids, *c;
	struct mig_source *s;
	size_t k, i;

	ts_format(res->rq->now, ts);
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		if (s->status != SRC_NEW)
			continue;
		ids = json_array();
		json_array_foreach(s->convs, i, c)
			json_array_append(ids, json_object_get(c, "id"));
		rec = json_pack("{s:s, s:s, s:o, s:s, s:o}", "sha256", s->sha,
		    "format", migrate_format_name(s->format), "file",
		    clean_string(realpath(s->file, real) ? real : s->file),
		    "importedAt", ts, "conversations", ids);
		json_array_append_new(imports, rec);
	}
	json_object_set_new(store_root(st), "lastMigrated", json_string(ts));
}

int
migrate_run(struct store *st, const struct migrate_request *rq,
    struct migrate_result **out, struct error *e)
{
	struct migrate_result *res = xmalloc(sizeof(*res));
	char where[128];
	json_t *imports, *c;
	struct stat sb;
	size_t k, i;

	memset(res, 0, sizeof(*res));
	res->rq = rq;
	res->notes = json_array();
	res->imported = json_object();
	*out = res;
	imports = json_object_get(store_root(st), "imports");
	if (imports != NULL && !json_is_array(imports))
		return error_set(e, "'%s': imports: expected an array",
		    store_path(st));
	if (stat(rq->path, &sb) < 0)
		return error_errno(e, "cannot read '%s'", rq->path);
	if (S_ISDIR(sb.st_mode)) {
		if (collect_dir(res, rq->path, store_path(st), e) < 0)
			return -1;
	} else
		add_source(res, rq->path);
	for (k = 0; k < res->nsrc; k++) {
		if (read_source(res, k, imports, e) < 0)
			return -1;
		if (res->src[k].status == SRC_NEW)
			res->nnew++;
		if (res->nsrc > 1 && rq->progress != NULL)
			rq->progress(rq->progress_arg, rq->path, k + 1, res->nsrc);
	}
	if (res->nnew == 0)
		return 0;
	if (place_ids(st, res, e) < 0)
		return -1;
	one_active(st, res);
	/* the readers build valid conversations; this is the store's own check */
	for (k = 0; k < res->nsrc; k++)
		json_array_foreach(res->src[k].convs, i, c) {
			snprintf(where, sizeof(where), "'%s': conversation %zu",
			    res->src[k].file, i);
			if (conv_validate(c, where, e) < 0)
				return -1;
		}
	for (k = 0; k < res->nsrc; k++)
		json_array_foreach(res->src[k].convs, i, c) {
			if (store_append(st, json_incref(c), e) == NULL)
				return -1;
			/* a summary on a conversation the source did not name
			 * is one the reader wrote (SmartHole's flat history) */
			json_object_set_new(res->imported, json_str(c, "id", NULL),
			    json_boolean(!json_is_true(json_array_get(
			    res->src[k].own, i)) && json_is_string(
			    json_object_get(c, "summary"))));
			res->nconv++;
			res->nmsg += json_array_size(json_object_get(c,
			    "messages"));
		}
	if (imports == NULL) {
		imports = json_array();
		json_object_set_new(store_root(st), "imports", imports);
	}
	record(st, res, imports);
	return 0;
}

size_t
migrate_imported(const struct migrate_result *res)
{
	return res->nconv;
}

int
migrate_changed(const struct migrate_result *res)
{
	return res->nnew > 0;
}

int
migrate_was_imported(const struct migrate_result *res, const char *id)
{
	return json_object_get(res->imported, id) != NULL;
}

int
migrate_made_summary(const struct migrate_result *res, const char *id)
{
	return json_is_true(json_object_get(res->imported, id));
}

/*
 * The conversations the import added that are still in the store, ended, and
 * in want of a summary: those without one, and those with the summary migrate
 * wrote itself, which a model may better but the offline summarizer, saying
 * less, may not. A summary the source gave is kept.
 */
struct summary_job **
migrate_summary_jobs(struct store *st, const struct migrate_result *res,
    const struct summary_config *cf, char *const *pruned, size_t npruned,
    size_t *njobs)
{
	struct summary_job **jobs;
	struct conv **ended;
	const char *id;
	size_t n, i, k;
	int model = cf->kind == SUMMARY_OPENAI || cf->kind == SUMMARY_ANTHROPIC;

	ended = store_ended(st, &n);
	jobs = xmalloc((n + 1) * sizeof(*jobs));
	*njobs = 0;
	for (i = 0; i < n; i++) {
		id = conv_id(ended[i]);
		if (!migrate_was_imported(res, id))
			continue;
		/* --dry-run's rolling limit names what it would remove */
		for (k = 0; k < npruned && strcmp(pruned[k], id) != 0; k++)
			;
		if (k < npruned)
			continue;
		if (conv_summary(ended[i]) == NULL ||
		    (model && migrate_made_summary(res, id)))
			jobs[(*njobs)++] = summary_job_new(ended[i]);
	}
	free(ended);
	return jobs;
}

const char *
migrate_note(const struct migrate_result *res, size_t i)
{
	return json_string_value(json_array_get(res->notes, i));
}

/* the report */

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* how many of ids[0..n) this run imported */
static size_t
imported_among(const struct migrate_result *res, char *const *ids, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += migrate_was_imported(res, ids[i]);
	return k;
}

static const char *const status_names[] = { "imported", "already-imported",
    "duplicate" };

static json_t *
report_json(const struct migrate_result *res, int dry_run,
    char *const *pruned, size_t npruned)
{
	json_t *root, *sources, *src, *convs, *c, *ids;
	struct mig_source *s;
	size_t k, i;

	sources = json_array();
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		convs = json_array();
		json_array_foreach(s->convs, i, c) {
			json_t *o = json_pack("{s:O, s:I}", "id",
			    json_object_get(c, "id"), "messages",
			    (json_int_t)json_array_size(json_object_get(c,
			    "messages")));

			if (json_object_get(s->renamed, json_str(c, "id", NULL)))
				json_object_set(o, "renamedFrom", json_object_get(
				    s->renamed, json_str(c, "id", NULL)));
			json_array_append_new(convs, o);
		}
		src = json_pack("{s:s, s:s, s:s, s:s, s:o, s:I}", "file", s->name,
		    "format", migrate_format_name(s->format), "sha256", s->sha,
		    "status", status_names[s->status], "conversations", convs,
		    "messages", (json_int_t)s->messages);
		if (s->status == SRC_BEFORE)
			json_object_set_new(src, "importedAt", json_string(s->before));
		else if (s->status == SRC_DUPLICATE)
			json_object_set_new(src, "sameAs", clean_string(s->before));
		json_array_append_new(sources, src);
	}
	ids = json_array();
	for (i = 0; i < npruned; i++)
		json_array_append_new(ids, json_string(pruned[i]));
	root = json_pack("{s:o, s:b, s:I, s:I, s:o, s:O, s:o, s:I, s:I}", "path",
	    clean_string(res->rq->path), "dryRun", dry_run, "conversations",
	    (json_int_t)res->nconv, "messages", (json_int_t)res->nmsg,
	    "sources", sources, "notes", res->notes, "pruned", ids,
	    "prunedCount", (json_int_t)npruned, "prunedImported",
	    (json_int_t)imported_among(res, pruned, npruned));
	return root;
}

void
migrate_report(struct buf *out, const struct migrate_result *res, int dry_run,
    char *const *pruned, size_t npruned, int json)
{
	struct mig_source *s;
	json_t *c, *from, *root;
	size_t k, i, n;

	if (json) {
		root = report_json(res, dry_run, pruned, npruned);
		json_dump_buf(out, root);
		buf_addc(out, '\n');
		json_decref(root);
		return;
	}
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		if (s->status == SRC_BEFORE) {
			buf_addf(out, "%s: %s, imported before (%s); skipped\n",
			    s->file, migrate_format_name(s->format), s->before);
			continue;
		}
		if (s->status == SRC_DUPLICATE) {
			buf_addf(out, "%s: the same bytes as '%s'; skipped\n",
			    s->file, s->before);
			continue;
		}
		n = json_array_size(s->convs);
		buf_addf(out, "%s: %s, %zu %s, %zu %s\n", s->file,
		    migrate_format_name(s->format), n, plural(n, "conversation",
		    "conversations"), s->messages, plural(s->messages, "message",
		    "messages"));
		json_array_foreach(s->convs, i, c) {
			n = json_array_size(json_object_get(c, "messages"));
			buf_addf(out, "  %s: %zu %s", json_str(c, "id", NULL), n,
			    plural(n, "message", "messages"));
			from = json_object_get(s->renamed, json_str(c, "id", NULL));
			if (from != NULL)
				buf_addf(out, " (renamed from '%s')",
				    json_string_value(from));
			buf_addc(out, '\n');
		}
	}
	if (res->nnew == 0) {
		buf_addf(out, "nothing new to import from '%s'\n", res->rq->path);
		return;
	}
	buf_addf(out, "%s %zu %s (%zu %s) from %zu %s\n", dry_run ?
	    "would import" : "imported", res->nconv, plural(res->nconv,
	    "conversation", "conversations"), res->nmsg, plural(res->nmsg,
	    "message", "messages"), res->nnew, plural(res->nnew, "source",
	    "sources"));
	if (npruned > 0)
		buf_addf(out, "the rolling limit (max_conversations) %s %zu "
		    "oldest ended %s, %zu of them imported here\n", dry_run ?
		    "would remove" : "removed", npruned, plural(npruned,
		    "conversation", "conversations"), imported_among(res, pruned,
		    npruned));
}

void
migrate_free(struct migrate_result *res)
{
	size_t k;

	if (res == NULL)
		return;
	for (k = 0; k < res->nsrc; k++) {
		free(res->src[k].file);
		free(res->src[k].name);
		free(res->src[k].session);
		free(res->src[k].before);
		json_decref(res->src[k].convs);
		json_decref(res->src[k].own);
		json_decref(res->src[k].renamed);
	}
	free(res->src);
	json_decref(res->notes);
	json_decref(res->imported);
	free(res);
}
