/*
 * known.c - what of a source migrate imported before, told by content rather
 * than by the file's bytes: a conversation whose messages hash to one the
 * imports ledger holds is left out, and one of the source's own ids that an
 * earlier import brought in, changed since, is made what a fresh import
 * gives: its new messages appended, or, where the source's branch parts from
 * the stored one (an answer regenerated), the stored messages from there on
 * replaced. So a live file (SmartHole's data.json, a session still being
 * written) changed elsewhere imports nothing twice and fails on nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate.h"

void
mig_conv_hash(json_t *conv, char out[SHA256_HEX_LEN])
{
	struct buf b = { 0 };

	json_dump_buf(&b, json_object_get(conv, "messages"));
	sha256_hex(b.data ? b.data : "", b.len, out);
	buf_free(&b);
}

/* the ledger's conversation hashes (hash -> importedAt) and ids (id -> 1) */
static void
ledger_sets(json_t *imports, json_t *hashes, json_t *ids)
{
	json_t *rec, *v;
	size_t i, k;

	json_array_foreach(imports, i, rec) {
		json_array_foreach(json_object_get(rec, "hashes"), k, v)
			if (json_is_string(v))
				json_object_set(hashes, json_string_value(v),
				    json_object_get(rec, "importedAt"));
		json_array_foreach(json_object_get(rec, "conversations"), k, v)
			if (json_is_string(v))
				json_object_set_new(ids, json_string_value(v),
				    json_true());
	}
}

/* a and b are the same message, their times aside: a source of messages
 * without a time of their own gives them the time of each import. As JSON
 * text: a number the store read back is its text, not jansson's real */
static int
same_message(json_t *a, json_t *b)
{
	json_t *x = json_clone(a), *y = json_clone(b);
	int same;

	json_object_del(x, "timestamp");
	json_object_del(y, "timestamp");
	same = json_same(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

/*
 * c, of the source's own id, imported before: how its messages differ from
 * the stored conversation's, position by position (ids alone may repeat):
 * *from is where they part; NULL when c has nothing past the stored ones
 * and nothing different, else c's messages from *from on
 */
static json_t *
new_messages(struct conv *cv, json_t *c, size_t *from)
{
	json_t *stored = json_object_get(conv_json(cv), "messages");
	json_t *msgs = json_object_get(c, "messages"), *add;
	size_t i, n = json_array_size(msgs), have = json_array_size(stored);

	for (i = 0; i < n && i < have && same_message(json_array_get(stored, i),
	    json_array_get(msgs, i)); i++)
		;
	*from = i;
	if (i == n)	/* an older copy of what is stored: nothing new */
		return NULL;
	add = json_array();
	for (; i < n; i++)
		json_array_append(add, json_array_get(msgs, i));
	return add;
}

/*
 * c, of the source's own id, imported before: what it has that the stored
 * conversation has not into res->grown, and 2 (the stored messages from
 * where the two part are replaced by the source's, so the conversation is
 * what a fresh import would give); 1 when it has nothing new; 0 when it was
 * not imported; -1 when the stored one cannot be read (e says why)
 */
static int
grown(struct store *st, struct migrate_result *res, struct mig_source *s,
    json_t *c, json_t *ids, struct error *e)
{
	const char *id = json_str(c, "id", NULL);
	struct conv *cv = store_find(st, id);
	json_t *add;
	size_t from;

	if (cv == NULL || json_object_get(ids, id) == NULL)
		return 0;
	if (conv_load(st, cv, e) < 0)
		return -1;
	add = new_messages(cv, c, &from);
	/* compared: let go of, unless it grows (mig_grow() changes it) */
	if (add == NULL) {
		conv_unload(st, cv);
		return 1;
	}
	json_array_append_new(res->grown, json_pack("{s:s, s:o, s:I, s:O?, "
	    "s:s}", "id", id, "messages", add, "from", (json_int_t)from,
	    "endedAt", json_object_get(c, "endedAt"), "file", s->name));
	s->messages += json_array_size(add);
	return 2;
}

int
mig_known(struct store *st, struct migrate_result *res, json_t *imports,
    struct error *e)
{
	json_t *hashes = json_object(), *ids = json_object(), *c, *when;
	char h[SHA256_HEX_LEN];
	struct mig_source *s;
	size_t k, i, before;
	int g, rc = -1;

	ledger_sets(imports, hashes, ids);
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		if (s->status != SRC_NEW)
			continue;
		before = json_array_size(res->grown);
		for (i = json_array_size(s->convs); i-- > 0;) {
			c = json_array_get(s->convs, i);
			mig_conv_hash(c, h);
			json_array_insert_new(s->hashes, 0, json_string(h));
			when = json_object_get(hashes, h);
			g = when == NULL && json_is_true(json_array_get(s->own,
			    i)) ? grown(st, res, s, c, ids, e) : 0;
			if (g < 0)
				goto out;
			if (when == NULL && g == 0)
				continue;
			if (json_is_string(when) && s->before == NULL)
				s->before = xstrdup(json_string_value(when));
			s->messages -= json_array_size(json_object_get(c,
			    "messages"));
			s->known += g != 2;
			json_array_remove(s->convs, i);
			json_array_remove(s->own, i);
		}
		/* nothing new in it: as if its bytes were seen, and not recorded */
		if (json_array_size(s->convs) == 0 &&
		    json_array_size(res->grown) == before) {
			s->status = SRC_BEFORE;
			if (s->before == NULL)
				s->before = xstrdup("the same conversations");
		}
	}
	rc = 0;
out:
	json_decref(hashes);
	json_decref(ids);
	return rc;
}

int
mig_grow(struct store *st, struct migrate_result *res, struct error *e)
{
	json_t *g, *conv, *msgs, *m;
	struct conv *cv;
	size_t i, k, from, cut;

	json_array_foreach(res->grown, i, g) {
		cv = store_find(st, json_str(g, "id", NULL));
		conv = conv_json(cv);
		msgs = json_object_get(conv, "messages");
		from = (size_t)json_integer_value(json_object_get(g, "from"));
		if ((cut = json_array_size(msgs) - from) > 0) {
			mig_notes_add(res->notes, "'%s': conversation '%s': %zu "
			    "message%s replaced by the source's current branch",
			    json_str(g, "file", NULL), json_str(g, "id", NULL),
			    cut, cut == 1 ? "" : "s");
			while (json_array_size(msgs) > from)
				json_array_remove(msgs, from);
		}
		json_array_foreach(json_object_get(g, "messages"), k, m)
			json_array_append(msgs, m);
		/* an ended conversation ends where its source now does */
		if (!json_is_null(json_object_get(conv, "endedAt")) &&
		    json_is_string(json_object_get(g, "endedAt")))
			json_object_set(conv, "endedAt", json_object_get(g,
			    "endedAt"));
		if (conv_validate(conv, json_str(g, "id", NULL), e) < 0 ||
		    conv_refresh(cv, e) < 0)
			return -1;
		res->ngrown += json_array_size(json_object_get(g, "messages"));
	}
	return 0;
}
