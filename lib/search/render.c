/*
 * render.c - a search's hits laid out: the lines, tab-separated, their
 * matches coloured when asked; or JSON. The matcher knows none of it.
 */
#include <string.h>

#include "../internal.h"
#include "search.h"

static void
add_marked(struct buf *b, const struct search_hit *h, int colour,
    int terminal)
{
	size_t at = 0, i;

	for (i = 0; i < h->nmatch; i++) {
		if (!colour || h->match[i].end == h->match[i].start)
			continue;
		buf_add_text(b, h->line + at, h->match[i].start - at, terminal);
		buf_adds(b, "\033[1;31m");
		buf_add_text(b, h->line + h->match[i].start,
		    h->match[i].end - h->match[i].start, terminal);
		buf_adds(b, "\033[m");
		at = h->match[i].end;
	}
	buf_add_text(b, h->line + at, h->len - at, terminal);
}

json_t *
search_hit_json(const struct search_hit *h)
{
	char ts[TS_LEN];
	json_t *o, *marks, *mk;
	size_t j;

	ts_format(h->time, ts);
	marks = json_array();
	for (j = 0; j < h->nmatch; j++) {
		mk = json_pack("[I, I]", (json_int_t)h->match[j].start,
		    (json_int_t)h->match[j].end);
		json_array_append_new(marks, mk);
	}
	o = json_pack("{s:s, s:s?, s:s, s:s, s:I, s:s%, s:s%, s:o}",
	    "id", h->conv_id, "messageId", h->msg_id, "timestamp", ts,
	    "role", role_name(h->role), "lineNumber", (json_int_t)h->lineno,
	    "line", h->line, h->len,
	    "match", h->line + h->match[0].start,
	    h->match[0].end - h->match[0].start, "matches", marks);
	return o;
}

json_t *
search_json(const struct search_result *r)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < r->n; i++)
		json_array_append_new(list, search_hit_json(&r->hits[i]));
	return list;
}

/* one hit as a JSON object, written to b as json_dump_buf() writes it in
 * search_json()'s array */
static void
add_json(struct buf *b, const struct search_hit *h)
{
	json_t *o = search_hit_json(h);

	json_dump_buf(b, o);
	json_decref(o);
}

#define RENDER_CHUNK (64u << 10)

int
search_render(struct buf *b, const struct search_result *r, int json,
    int colour, int terminal, int (*flush)(void *, const char *, size_t),
    void *arg)
{
	char ts[TS_LEN];
	const struct search_hit *h;
	const char *role;
	size_t i, n;
	int rc;

	if (json)
		buf_addc(b, '[');
	for (i = 0; i < r->n; i++) {
		h = &r->hits[i];
		if (json) {
			if (i > 0)
				buf_addc(b, ',');
			add_json(b, h);
		} else {
			ts_format(h->time, ts);
			role = role_name(h->role);
			n = strlen(h->conv_id);
			buf_reserve(b, n + TS_LEN + 16 + h->len);
			buf_add_printable_n(b, h->conv_id, n);
			buf_addc(b, '\t');
			buf_adds(b, ts);
			buf_addc(b, '\t');
			buf_adds(b, role);
			buf_addc(b, '\t');
			add_marked(b, h, colour, terminal);
			buf_addc(b, '\n');
		}
		if (b->len >= RENDER_CHUNK) {
			if ((rc = flush(arg, b->data, b->len)) != 0)
				return rc;
			b->len = 0;
		}
	}
	if (json)
		buf_add(b, "]\n", 2);
	rc = b->len > 0 ? flush(arg, b->data, b->len) : 0;
	b->len = 0;
	return rc;
}

