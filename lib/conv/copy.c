/*
 * copy.c - a whole store into another, whatever engines hold them: every
 * conversation, byte for byte as its JSON, and the top-level fields. The
 * rules of the lifecycle (one active conversation) hold in the result; the
 * rolling limit is not applied, so a copy never loses what it copies.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

/* the imports records of src that dst lacks, and the fields it lacks */
static void
copy_root(json_t *src, json_t *dst)
{
	json_t *v, *mine, *r;
	const char *key;
	size_t i, j, klen;

	json_object_keylen_foreach(src, key, klen, v) {
		mine = json_object_getn(dst, key, klen);
		if (mine == NULL)
			json_object_setn_new_nocheck(dst, key, klen,
			    json_clone(v));
		else if (strcmp(key, "imports") == 0 && json_is_array(v) &&
		    json_is_array(mine))
			json_array_foreach(v, i, r) {
				for (j = 0; j < json_array_size(mine); j++)
					if (json_same(r, json_array_get(mine, j)))
						break;
				if (j == json_array_size(mine))
					json_array_append_new(mine,
					    json_clone(r));
			}
	}
}

/* what store_copy() knows of dst as src's conversations go by */
struct copying {
	struct store *src, *dst;
	struct conv **ids;	/* dst's conversations before the copy, by id */
	size_t nids;
	char *active;		/* the id of dst's active one, or NULL */
	size_t pending, pending_msgs;	/* appended, not flushed */
	struct copy_result *res;
};

/*
 * Written into dst's transaction (store_flush_new()) every so often, so
 * that memory holds this many conversations or messages, not the store.
 */
#define FLUSH_CONVS	64
#define FLUSH_MSGS	1024

static int
by_id(const void *a, const void *b)
{
	return strcmp(conv_id(*(struct conv *const *)a),
	    conv_id(*(struct conv *const *)b));
}

static int
id_is(const void *id, const void *c)
{
	return strcmp(id, conv_id(*(struct conv *const *)c));
}

static int
copy_one(struct conv *c, void *arg, struct error *e)
{
	struct copying *cp = arg;
	struct conv **hit, *d;

	hit = cp->nids ? bsearch(conv_id(c), cp->ids, cp->nids,
	    sizeof(*cp->ids), id_is) : NULL;
	if (hit != NULL) {
		d = *hit;
		if (conv_load(cp->dst, d, e) < 0)
			return -1;
		if (!json_same(conv_json(c), conv_json(d)))
			return error_set(e, "conversation '%s' is in both '%s' "
			    "and '%s', and differs", conv_id(c),
			    store_path(cp->src), store_path(cp->dst));
		/* the same: not kept, so that memory holds a batch here too */
		conv_unload(cp->dst, d);
		cp->res->skipped++;
		return 0;
	}
	if (conv_ended(c) < 0 && cp->active != NULL)
		return error_set(e, "conversation '%s' is active in '%s', and "
		    "'%s' is active in '%s': end one of them first", conv_id(c),
		    store_path(cp->src), cp->active, store_path(cp->dst));
	if ((d = store_append(cp->dst, conv_json_copy(c), e)) == NULL)
		return -1;
	if (conv_ended(d) < 0)
		cp->active = xstrdup(conv_id(d));
	cp->res->copied++;
	cp->pending_msgs += conv_message_count(d);
	if (++cp->pending < FLUSH_CONVS && cp->pending_msgs < FLUSH_MSGS)
		return 0;
	cp->pending = cp->pending_msgs = 0;
	return store_flush_new(cp->dst, e);
}

int
store_copy(struct store *src, struct store *dst, struct copy_result *res,
    struct error *e)
{
	struct copying cp = { .src = src, .dst = dst, .res = res };
	struct conv *active;
	size_t i;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	/* what dst holds, without its conversations' messages where the
	 * engine can leave them out; those src also has are read whole */
	if (store_load_active(dst, e) < 0 ||
	    store_load_ended(dst, SIZE_MAX, 0, e) < 0)
		return -1;
	cp.nids = store_count(dst);
	cp.ids = xmalloc((cp.nids + 1) * sizeof(*cp.ids));
	for (i = 0; i < cp.nids; i++)
		cp.ids[i] = store_conv(dst, i);
	qsort(cp.ids, cp.nids, sizeof(*cp.ids), by_id);
	if ((active = store_active(dst)) != NULL)
		cp.active = xstrdup(conv_id(active));
	if (store_each(src, copy_one, &cp, e) < 0)
		goto out;
	copy_root(store_root(src), store_root(dst));
	rc = 0;
out:
	free(cp.ids);
	free(cp.active);
	return rc;
}
