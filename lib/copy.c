/*
 * copy.c - a whole store into another, whatever engines hold them: every
 * conversation, byte for byte as its JSON, and the top-level fields. The
 * rules of the lifecycle (one active conversation) hold in the result; the
 * rolling limit is not applied, so a copy never loses what it copies.
 */
#include <string.h>

#include "internal.h"

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

int
store_copy(struct store *src, struct store *dst, struct copy_result *res,
    struct error *e)
{
	struct conv *c, *d, *active;
	size_t i;

	memset(res, 0, sizeof(*res));
	/* one read of each, not one a conversation */
	if (store_load_all(src, e) < 0 || store_load_all(dst, e) < 0)
		return -1;
	active = store_active(dst);
	for (i = 0; i < store_count(src); i++) {
		c = store_conv(src, i);
		if ((d = store_find(dst, conv_id(c))) != NULL) {
			if (!json_same(conv_json(c), conv_json(d)))
				return error_set(e, "conversation '%s' is in both "
				    "'%s' and '%s', and differs", conv_id(c),
				    store_path(src), store_path(dst));
			res->skipped++;
			continue;
		}
		if (conv_ended(c) < 0 && active != NULL)
			return error_set(e, "conversation '%s' is active in '%s', "
			    "and '%s' is active in '%s': end one of them first",
			    conv_id(c), store_path(src), conv_id(active),
			    store_path(dst));
		if ((d = store_append(dst, json_clone(conv_json(c)), e)) ==
		    NULL)
			return -1;
		if (conv_ended(d) < 0)
			active = d;
		res->copied++;
	}
	copy_root(store_root(src), store_root(dst));
	return 0;
}
