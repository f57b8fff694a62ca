/*
 * rows.c - what the row engines (pg.c, sqlite.c) share: a conversation's
 * row doc, and the record of what the database holds of it, to write only
 * what changed (rows.h).
 */
#include <stdlib.h>
#include <string.h>

#include "rows.h"

void
row_doc_text(struct conv *c, struct buf *doc)
{
	json_t *msgs = json_incref(json_object_get(c->obj, "messages"));

	json_object_set_new(c->obj, "messages", json_array());	/* in place */
	json_dump_buf(doc, c->obj);
	json_object_set_new(c->obj, "messages", msgs);
}

struct row_conv *
row_conv_new(const struct buf *doc, size_t n)
{
	struct row_conv *rc;

	rc = xmalloc(sizeof(*rc) + (n + 1) * sizeof(rc->hash[0]));
	rc->nmsg = n;
	sha256(doc->data, doc->len, rc->doc);
	return rc;
}

void
row_remember(struct conv *c, const struct buf *doc)
{
	json_t *msgs = json_object_get(c->obj, "messages"), *m;
	struct row_conv *rc = row_conv_new(doc, json_array_size(msgs));
	struct buf b = { 0 };
	size_t i;

	json_array_foreach(msgs, i, m) {
		b.len = 0;
		json_dump_buf(&b, m);
		sha256(b.data, b.len, rc->hash[i]);
	}
	buf_free(&b);
	free(c->be);
	c->be = rc;
}

void
row_loaded(const struct store *st, struct conv *c)
{
	struct buf doc = { 0 };

	if (st->mode != STORE_WRITE)	/* never written back */
		return;
	row_doc_text(c, &doc);
	row_remember(c, &doc);
	buf_free(&doc);
}

/* the first message of c that is not as the database holds it */
static size_t
first_changed(struct conv *c)
{
	json_t *msgs = json_object_get(c->obj, "messages");
	struct row_conv *rc = c->be;
	unsigned char h[32];
	struct buf b = { 0 };
	size_t i;

	for (i = 0; i < rc->nmsg && i < json_array_size(msgs); i++) {
		b.len = 0;
		json_dump_buf(&b, json_array_get(msgs, i));
		sha256(b.data, b.len, h);
		if (memcmp(h, rc->hash[i], sizeof(h)) != 0)
			break;
	}
	buf_free(&b);
	return i;
}

int
row_changed(struct conv *c, const struct buf *doc, size_t *from)
{
	struct row_conv *rc = c->be;
	unsigned char h[32];

	*from = 0;
	if (rc == NULL)		/* no row yet */
		return 1;
	sha256(doc->data, doc->len, h);
	*from = first_changed(c);
	return memcmp(h, rc->doc, sizeof(h)) != 0 || *from != rc->nmsg ||
	    *from != c->nmsg;
}

int
row_refresh(struct store *st, struct error *e)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->conv[i]->obj != NULL && conv_refresh(st->conv[i], e) < 0)
			return -1;
	return 0;
}

int
row_is_new(const struct conv *c)
{
	return c->obj != NULL && c->be == NULL;
}

int
row_flush_new(struct store *st, int (*flush)(struct store *, struct error *),
    struct error *e)
{
	unsigned char *fresh = xmalloc(st->n + 1);
	size_t i;

	for (i = 0; i < st->n; i++)
		fresh[i] = row_is_new(st->conv[i]);
	if (flush(st, e) < 0) {
		free(fresh);
		return -1;
	}
	for (i = 0; i < st->n; i++)
		st->conv[i]->doomed = fresh[i];
	store_sweep(st);
	free(fresh);
	return 0;
}

const char *
row_json_param(struct buf *b, const char *s)
{
	json_t *v;

	if (s == NULL)
		return NULL;
	v = json_string(s);
	json_dump_buf(b, v);
	json_decref(v);
	return b->data;
}
