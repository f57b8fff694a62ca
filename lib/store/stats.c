/*
 * stats.c - store_stats(): what a store holds at a glance. The rules (which
 * conversations count, the weeks of the chart, the oldest and newest, the
 * busiest tags and tools and their order) live here, once; an engine only
 * brings each conversation and its messages' roles and tools here, as
 * cheaply as it can (its stats op: the file's bytes by the scanner, SQL on
 * a database), and says the store's size. An engine that cannot, or a store
 * with conversations loaded already, is counted from every conversation
 * loaded whole.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* name[0..len) used n times more, into map (name -> count) */
static void
name_add(json_t *map, const char *name, size_t len, uint64_t n)
{
	json_t *v = json_object_getn(map, name, len);

	if (v != NULL)
		json_integer_set(v, json_integer_value(v) + (json_int_t)n);
	else
		json_object_setn_new(map, name, len, json_integer((json_int_t)n));
}

int
stats_conv(struct store_stats *s, const struct stats_request *rq,
    struct conv *c)
{
	json_t *tags, *t;
	int64_t d;
	size_t i;

	if ((rq->since >= 0 && c->started < rq->since) ||
	    (rq->tag != NULL && !conv_has_tag(c, rq->tag)))
		return 0;
	if (c->ended >= 0)
		s->ended++;
	else
		s->active++;
	if (conv_pinned(c))
		s->pinned++;
	if ((tags = conv_tags(c)) != NULL)
		json_array_foreach(tags, i, t)
			if (json_is_text(t))
				name_add(s->tags, json_string_value(t),
				    json_string_length(t), 1);
	d = rq->now - c->started;
	if (d >= 0 && d < STATS_WEEKS * STATS_WEEK_MS)
		s->week[STATS_WEEKS - 1 - d / STATS_WEEK_MS]++;
	/* ties: the smaller id is the oldest, the larger the newest */
	if (s->oldest == NULL || c->started < s->oldest_at ||
	    (c->started == s->oldest_at && strcmp(c->id, s->oldest) < 0)) {
		free(s->oldest);
		s->oldest = xstrdup(c->id);
		s->oldest_at = c->started;
	}
	if (s->newest == NULL || c->started > s->newest_at ||
	    (c->started == s->newest_at && strcmp(c->id, s->newest) > 0)) {
		free(s->newest);
		s->newest = xstrdup(c->id);
		s->newest_at = c->started;
	}
	return 1;
}

void
stats_role(struct store_stats *s, enum conv_role role, uint64_t n)
{
	s->role[role] += n;
}

void
stats_tool(struct store_stats *s, const char *name, size_t len, uint64_t n)
{
	name_add(s->tools, name, len, n);
}

void
stats_tools(struct store_stats *s, json_t *tools)
{
	json_t *t;
	size_t i;

	if (json_is_array(tools))
		json_array_foreach(tools, i, t)
			if (json_is_text(t))
				stats_tool(s, json_string_value(t),
				    json_string_length(t), 1);
}

struct whole {
	struct store_stats *s;
	const struct stats_request *rq;
};

/* store_each()'s: a conversation loaded whole */
static int
count_whole(struct conv *c, void *arg, struct error *e)
{
	struct whole *w = arg;
	json_t *msgs, *m;
	enum conv_role role;
	size_t i;

	(void)e;
	if (!stats_conv(w->s, w->rq, c))
		return 0;
	msgs = json_object_get(conv_json(c), "messages");
	json_array_foreach(msgs, i, m) {
		if (role_parse(json_str(m, "role", NULL), &role) == 0)
			stats_role(w->s, role, 1);
		stats_tools(w->s, json_object_get(m, "toolsUsed"));
	}
	return 0;
}

/* the busiest: most used first, then by name as bytes */
static int
by_use(const void *a, const void *b)
{
	const struct stats_name *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if ((c = memcmp(x->name, y->name, n)) != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* the STATS_TOP busiest of map into top; *n of them */
static void
top(json_t *map, struct stats_name *out, size_t *n)
{
	struct stats_name *all;
	const char *key;
	size_t i = 0, k;
	json_t *v;

	all = xmalloc((json_object_size(map) + 1) * sizeof(*all));
	json_object_foreach(map, key, v) {
		all[i].name = (char *)key;
		all[i].len = json_object_iter_key_len(json_object_key_to_iter(key));
		all[i].n = (uint64_t)json_integer_value(v);
		i++;
	}
	qsort(all, i, sizeof(*all), by_use);
	*n = i < STATS_TOP ? i : STATS_TOP;
	for (k = 0; k < *n; k++) {
		out[k] = all[k];
		out[k].name = xmalloc(all[k].len + 1);
		memcpy(out[k].name, all[k].name, all[k].len);
		out[k].name[all[k].len] = '\0';
	}
	free(all);
}

int
store_stats(struct store *st, const struct stats_request *rq,
    struct store_stats *s, struct error *e)
{
	struct whole w = { s, rq };
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->bytes = -1;
	s->tags = json_object();
	s->tools = json_object();
	if (st->engine->stats != NULL && st->nremoved == 0)
		rc = st->engine->stats(st, rq, s, e);
	if (rc == 0)
		rc = store_each(st, count_whole, &w, e);
	if (rc >= 0) {
		top(s->tags, s->tag, &s->ntag);
		top(s->tools, s->tool, &s->ntool);
	}
	json_decref(s->tags);
	json_decref(s->tools);
	s->tags = s->tools = NULL;
	if (rc < 0) {
		store_stats_free(s);
		return -1;
	}
	return 0;
}

void
store_stats_free(struct store_stats *s)
{
	size_t i;

	for (i = 0; i < s->ntag; i++)
		free(s->tag[i].name);
	for (i = 0; i < s->ntool; i++)
		free(s->tool[i].name);
	free(s->oldest);
	free(s->newest);
	json_decref(s->tags);
	json_decref(s->tools);
	memset(s, 0, sizeof(*s));
}
