/*
 * store.c - the store in memory, whatever engine holds it: opening it,
 * its conversations and what the rest of lib/ asks of them (find, active,
 * ended, remove, append), and the store_load_*() calls through which a
 * command says what it will read, so that an engine that does not hold all
 * of it in memory (PostgreSQL) reads only that.
 *
 * Each conversation caches the few fields commands list (id, title, times,
 * message count); its JSON is parsed when conv_json() is first asked for.
 * It knows no engine's insides: each is an ops table (engine.h).
 */
#include <stdlib.h>
#include <string.h>

#include "scan.h"
#include "engine.h"

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
 * on could write a store without this conversation. lex_json(), not
 * jansson: numbers keep their text, keys may hold NUL.
 */
json_t *
conv_json(struct conv *c)
{
	if (c->obj == NULL) {
		if (c->raw == NULL)	/* loaded without its body: a bug */
			abort();
		c->obj = lex_json(c->raw, c->rawlen);
		if (c->obj == NULL)
			abort();
		c->raw = NULL;	/* the caller may change it: dump it when saving */
		free(c->text);
		c->text = NULL;
	}
	return c->obj;
}

int
conv_may_hold(const struct conv *c, const char *s)
{
	return c->raw == NULL || memmem(c->raw, c->rawlen, s, strlen(s)) != NULL;
}

json_t *
conv_head(struct conv *c)
{
	return c->obj == NULL && c->head != NULL ? c->head : conv_json(c);
}

json_t *
conv_tags(struct conv *c)
{
	json_t *t;

	if (!conv_may_hold(c, "\"" F_TAGS "\""))
		return NULL;
	t = json_object_get(conv_head(c), F_TAGS);
	return json_is_array(t) ? t : NULL;
}

/* a mark that is true; the quick look first, for a store's thousands */
int
conv_mark(struct conv *c, const char *name, const char *quoted)
{
	if (!conv_may_hold(c, quoted))
		return 0;
	return json_is_true(json_object_get(conv_head(c), name));
}

/* the store's stats count the pinned ones, the rolling limit skips them */
int
conv_pinned(struct conv *c)
{
	return conv_mark(c, F_PINNED, "\"" F_PINNED "\"");
}

const char *conv_id(const struct conv *c) { return c->id; }
int64_t conv_started(const struct conv *c) { return c->started; }
int64_t conv_ended(const struct conv *c) { return c->ended; }
const char *conv_title(const struct conv *c) { return c->title; }
const char *conv_summary(const struct conv *c) { return c->summary; }
size_t conv_message_count(const struct conv *c) { return c->nmsg; }
int64_t conv_last_activity(const struct conv *c) { return c->last; }

struct conv *
conv_new(void)
{
	struct conv *c = xmalloc(sizeof(*c));

	memset(c, 0, sizeof(*c));
	c->newest = INT64_MAX;
	return c;
}

struct conv *
conv_of_scan(struct scan_conv *sc, const char *raw, size_t len)
{
	struct conv *c = conv_new();

	c->raw = raw;
	c->rawlen = len;
	c->canonical = sc->canonical;
	c->id = c->own[0] = sc->id;
	c->title = c->own[1] = sc->title;
	c->summary = c->own[2] = sc->summary;
	sc->id = sc->title = sc->summary = NULL;
	c->started = sc->started;
	c->ended = sc->ended;
	c->last = sc->last;
	c->newest = sc->newest;
	c->nmsg = sc->nmsg;
	return c;
}

void
conv_free(struct conv *c)
{
	if (c == NULL)
		return;
	json_decref(c->obj);
	json_decref(c->head);
	free(c->text);
	free(c->own[0]);
	free(c->own[1]);
	free(c->own[2]);
	free(c->be);
	free(c);
}

int
conv_by_pos(const void *a, const void *b)
{
	const struct conv *x = *(struct conv *const *)a;
	const struct conv *y = *(struct conv *const *)b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Which loaded conversation has an id: st->byid holds st->conv's entries by
 * the hash of their ids (open addressing), made on the first look-up in a
 * store of more than a few, kept as conversations are pushed, dropped when
 * some are taken out. Loading n conversations from PostgreSQL looks each
 * up, and a scan would make that n * n / 2 comparisons.
 */
enum { BYID_MIN = 16 };

static size_t
id_hash(const char *id)
{
	uint64_t h = 14695981039346656037u;	/* FNV-1a */

	while (*id != '\0')
		h = (h ^ (unsigned char)*id++) * 1099511628211u;
	return (size_t)h;
}

static void
byid_put(struct store *st, struct conv *c)
{
	size_t mask = st->byidcap - 1, i = id_hash(c->id) & mask;

	while (st->byid[i] != NULL)
		i = (i + 1) & mask;
	st->byid[i] = c;
}

static void
byid_drop(struct store *st)
{
	free(st->byid);
	st->byid = NULL;
	st->byidcap = 0;
}

static void
byid_make(struct store *st)
{
	size_t i;

	byid_drop(st);
	for (st->byidcap = 2 * BYID_MIN; st->byidcap < 2 * st->n;)
		st->byidcap *= 2;
	st->byid = xmalloc(st->byidcap * sizeof(*st->byid));
	memset(st->byid, 0, st->byidcap * sizeof(*st->byid));
	for (i = 0; i < st->n; i++)
		byid_put(st, st->conv[i]);
}

void
store_push(struct store *st, struct conv *c)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->conv = xrealloc(st->conv, st->cap * sizeof(*st->conv));
	}
	st->conv[st->n++] = c;
	if (st->byid != NULL) {
		if (2 * st->n > st->byidcap)
			byid_make(st);	/* half full at most */
		else
			byid_put(st, c);
	}
}

struct conv *
store_append(struct store *st, json_t *obj, struct error *e)
{
	struct conv *c = conv_new();

	c->obj = obj;
	if (conv_refresh(c, e) < 0) {
		conv_free(c);
		return NULL;
	}
	c->pos = st->next_pos++;
	store_push(st, c);
	return c;
}

struct conv *
store_append_text(struct store *st, char *text, size_t len, struct error *e)
{
	struct conv *c;
	struct scan_conv sc;

	if (scan_conv(text, len, &sc) < 0) {	/* json_dump_buf()'s: a bug */
		free(text);
		error_set(e, "a new conversation is not as the store writes one");
		return NULL;
	}
	c = conv_of_scan(&sc, text, len);
	c->text = text;
	if (!st->engine->writes_text && conv_refresh(c, e) < 0) {
		conv_free(c);	/* conv_refresh() parsed it: as store_append() */
		return NULL;
	}
	c->pos = st->next_pos++;
	store_push(st, c);
	return c;
}

size_t store_count(const struct store *st) { return st->n; }
struct conv *store_conv(struct store *st, size_t i) { return i < st->n ? st->conv[i] : NULL; }
const char *store_path(const struct store *st) { return st->path; }

/* asked for in a write, the top-level fields may be changed: written back */
json_t *
store_root(struct store *st)
{
	if (st->mode == STORE_WRITE)
		st->root_dirty = 1;
	return st->root;
}

struct conv *
store_find(struct store *st, const char *id)
{
	return store_loaded(st, id);
}

struct conv *
store_loaded(struct store *st, const char *id)
{
	size_t i, mask;

	if (st->n < BYID_MIN) {
		for (i = 0; i < st->n; i++)
			if (strcmp(st->conv[i]->id, id) == 0)
				return st->conv[i];
		return NULL;
	}
	if (st->byid == NULL)
		byid_make(st);
	mask = st->byidcap - 1;
	for (i = id_hash(id) & mask; st->byid[i] != NULL; i = (i + 1) & mask)
		if (strcmp(st->byid[i]->id, id) == 0)
			return st->byid[i];
	return NULL;
}

/*
 * The writers' lock not had within the wait, on any engine: the one
 * message, and exit 75, as the lock is another writer's and passes
 */
int
store_locked(const char *name, double wait, struct error *e)
{
	error_set(e, "store '%s' is locked by another convctl; gave up after "
	    "%g seconds (nothing was written; try again, or raise --wait)",
	    name, wait);
	e->kind = ERROR_TEMPORARY;
	return -1;
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
	size_t i;

	st->removed = xrealloc(st->removed, (st->nremoved + n + 1) *
	    sizeof(*st->removed));
	for (i = 0; i < n; i++) {
		v[i]->doomed = 1;
		st->removed[st->nremoved++] = xstrdup(v[i]->id);
	}
	store_sweep(st);
}

void
store_sweep(struct store *st)
{
	size_t i, k = 0;

	for (i = 0; i < st->n; i++)
		if (st->conv[i]->doomed)
			conv_free(st->conv[i]);
		else
			st->conv[k++] = st->conv[i];
	st->n = k;
	byid_drop(st);
}

/* newest endedAt first; of equal times, the later stored first */
static int
by_ended_desc(const void *a, const void *b)
{
	const struct conv *x = *(struct conv *const *)a;
	const struct conv *y = *(struct conv *const *)b;

	if (x->ended != y->ended)
		return x->ended < y->ended ? 1 : -1;
	return x->pos < y->pos ? 1 : x->pos > y->pos ? -1 : 0;
}

struct conv **
store_ended(struct store *st, size_t *n)
{
	struct conv **v = xmalloc((st->n + 1) * sizeof(*v));
	size_t i, k = 0;

	for (i = 0; i < st->n; i++)
		if (st->conv[i]->ended >= 0)
			v[k++] = st->conv[i];
	if (k > 1)
		qsort(v, k, sizeof(*v), by_ended_desc);
	v[k] = NULL;
	*n = k;
	return v;
}

/* opening, loading, saving: through the engine */

static int
load(struct store *st, const struct store_query *q, struct error *e)
{
	if (st->loaded & LOADED_ALL)
		return 0;
	return st->engine->load(st, q, e);
}

int
store_load_active(struct store *st, struct error *e)
{
	struct store_query q = { .what = LOAD_ACTIVE };

	if (st->loaded & LOADED_ACTIVE)
		return 0;
	if (load(st, &q, e) < 0)
		return -1;
	st->loaded |= LOADED_ACTIVE;
	return 0;
}

int
store_load_id(struct store *st, const char *id, struct error *e)
{
	struct store_query q = { .what = LOAD_ID, .id = id };

	if (store_loaded(st, id) != NULL)
		return 0;
	return load(st, &q, e);
}

int
store_load_ended(struct store *st, size_t limit, int bodies, struct error *e)
{
	struct store_query q = { .what = LOAD_ENDED, .limit = limit,
	    .bodies = bodies };

	return load(st, &q, e);
}

int
store_load_all(struct store *st, struct error *e)
{
	struct store_query q = { .what = LOAD_ALL };

	if (load(st, &q, e) < 0)
		return -1;
	st->loaded |= LOADED_ALL | LOADED_ACTIVE;
	return 0;
}

int
store_query(struct store *st, const struct query *q,
    const struct query_sink *sink, struct error *e)
{
	if (st->engine->search == NULL || q->parsed)
		return 0;
	return st->engine->search(st, q, sink, e);
}

int
store_each(struct store *st, store_each_fn fn, void *arg, struct error *e)
{
	size_t i;

	if (st->engine->each != NULL && st->n == 0 && st->nremoved == 0 &&
	    !(st->loaded & LOADED_ALL))
		return st->engine->each(st, fn, arg, e);
	if (store_load_all(st, e) < 0)
		return -1;
	for (i = 0; i < st->n; i++)
		if (fn(st->conv[i], arg, e) < 0)
			return -1;
	return 0;
}

json_t *
conv_json_copy(struct conv *c)
{
	json_t *obj;

	if (c->obj == NULL && c->raw != NULL &&
	    (obj = lex_json(c->raw, c->rawlen)) != NULL)
		return obj;
	return json_clone(conv_json(c));
}

int
store_flush_new(struct store *st, struct error *e)
{
	if (st->engine->flush_new == NULL || st->mode != STORE_WRITE)
		return 0;
	return st->engine->flush_new(st, e);
}

int
conv_load(struct store *st, struct conv *c, struct error *e)
{
	if (c->obj != NULL || c->raw != NULL)
		return 0;
	return st->engine->load_body(st, c, e);
}

void
conv_unload(struct store *st, struct conv *c)
{
	if (c->obj == NULL || c->head == NULL || st->engine->load_body == NULL)
		return;
	json_decref(c->obj);
	c->obj = NULL;
	c->id = c->own[0];
	c->title = c->own[1];
	c->summary = c->own[2];
}

struct conv *
store_get(struct store *st, const char *id, struct error *e)
{
	struct conv *c;

	if (store_load_id(st, id, e) < 0)
		return NULL;
	if ((c = store_find(st, id)) == NULL)
		error_set(e, "no conversation '%s' in '%s'", id, store_path(st));
	return c;
}

int
store_count_ended(struct store *st, size_t *n, struct error *e)
{
	size_t i;

	if (!(st->loaded & LOADED_ALL))
		return st->engine->count_ended(st, n, e);
	for (*n = 0, i = 0; i < st->n; i++)
		if (st->conv[i]->ended >= 0)
			++*n;
	return 0;
}

int
store_save(struct store *st, struct error *e)
{
	if (st->mode != STORE_WRITE)
		return error_set(e, "store '%s' was opened for reading", st->path);
	return st->engine->commit(st, e);
}

void
store_close(struct store *st)
{
	size_t i;

	if (st == NULL)
		return;
	st->engine->close(st);
	for (i = 0; i < st->n; i++)
		conv_free(st->conv[i]);
	free(st->conv);
	free(st->byid);
	for (i = 0; i < st->nremoved; i++)
		free(st->removed[i]);
	free(st->removed);
	json_decref(st->root);
	free(st->path);
	free(st);
}
