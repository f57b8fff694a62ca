/*
 * file-search.c - the file engine's way to run a query (store_query()):
 * each conversation's bytes looked at before anything is decoded; those
 * that may hold the query's text checked by the scanner, which gives each
 * message to walk_message(), which applies the filters (query.c) and
 * decodes only a message whose content may hold it, for the sink to
 * match. With a -n, the conversations are searched newest first by their
 * newest message's time (the index's, else what their bytes say it can
 * be), and no further than one whose newest is older than the newest
 * hits found: with the index, the bytes of those older are never read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/lex.h"	/* lex_json() */
#include "../base/plain.h"	/* HAVE_SSE2_PATH */
#include "file.h"
#include "query.h"
#include "scan.h"

/*
 * With an index, the file mapped (file_map_leased()) and the index's spans;
 * loaded whole, the spans the scanner checked. None when the file cannot be
 * mapped, or once a conversation is loaded (st holds what is newer).
 */
int
file_spans(struct store *st, struct store_span **v, size_t *n,
    int *unchecked, struct error *e)
{
	struct file_state *fs = st->be;
	const struct index *ix = fs->ix;
	size_t i;

	if (ix == NULL) {
		for (i = 0; i < st->n; i++)
			if (st->conv[i]->raw == NULL)
				return 0;
		*v = xmalloc((st->n + 1) * sizeof(**v));
		for (i = 0; i < st->n; i++) {
			(*v)[i].p = st->conv[i]->raw;
			(*v)[i].len = st->conv[i]->rawlen;
			(*v)[i].canonical = st->conv[i]->canonical;
			(*v)[i].newest = st->conv[i]->newest;
		}
		*n = st->n;
		return 1;
	}
	if (st->n > 0 || fs->data != NULL ||
	    !file_map_leased(fs, fs->fd, &fs->sb))
		return 0;
	*v = xmalloc((ix->n + 1) * sizeof(**v));
	for (i = 0; i < ix->n; i++) {
		if (ix->rec[i].off > fs->len ||
		    ix->rec[i].len > fs->len - ix->rec[i].off) {
			free(*v);
			*v = NULL;
			return file_changed(st, e);
		}
		(*v)[i].p = fs->data + ix->rec[i].off;
		(*v)[i].len = ix->rec[i].len;
		(*v)[i].canonical = !!(ix->rec[i].flags & INDEX_CANONICAL);
		(*v)[i].newest = ix->rec[i].newest;
	}
	*n = ix->n;
	*unchecked = 1;
	return 1;
}

/* what a message given by the scanner needs */
struct walk {
	const struct query *q;
	const struct query_sink *sink;
	struct error *e;
	struct buf dec;		/* the id decoded */
	struct buf text;	/* the content decoded */
	int64_t pos;		/* the conversation's place */
	size_t seq;		/* the message's */
	int failed;		/* the sink said -1 */
};

/* t's value, decoded into b (t's own bytes when it has no escape) */
static const char *
walk_decode(struct buf *b, const struct scan_str *t, size_t *len)
{
	if (!t->esc) {
		*len = t->len;
		return t->p;
	}
	b->len = 0;
	buf_reserve(b, t->len + 1);
	*len = scan_unescape(t, b->data);
	return b->data;
}

/* scan_conv_each()'s callback: a message, checked; to the sink when the
 * filters take it and its content may hold the text */
static int
walk_message(void *arg, const struct scan_msg *m)
{
	struct walk *w = arg;
	const struct query *q = w->q;
	struct query_msg msg;
	char role_name_[64];	/* "assistant", each letter \\uXXXX: 54 */
	enum conv_role role;
	json_t *tools;
	int used;
	size_t seq = w->seq++;

	if (m->role.len >= sizeof(role_name_))
		return 0;	/* no role is so long: checked, cannot be */
	scan_unescape(&m->role, role_name_);
	if (role_parse(role_name_, &role) < 0 || !query_takes(q, role, m->time))
		return 0;
	if (q->tool != NULL) {
		tools = m->tools != NULL ? lex_json(m->tools, m->toolslen) : NULL;
		used = query_takes_tools(q, tools);
		json_decref(tools);
		if (!used)
			return 0;
	}
	/* the content's bytes, still escaped: none of what every match holds,
	 * nor an escape that could spell it, and no line of it can match */
	if (!query_str_may_hold(q, m->content.p, m->content.len,
	    m->content.esc))
		return 0;
	msg = (struct query_msg){ .conv_id = NULL, .pos = w->pos, .seq = seq,
	    .time = m->time, .role = role };
	if (m->id.p != NULL) {
		msg.id = walk_decode(&w->dec, &m->id, &msg.idlen);
		msg.idlen = strnlen(msg.id, msg.idlen);
	}
	msg.text = walk_decode(&w->text, &m->content, &msg.len);
	if (w->sink->message(w->sink->arg, &msg, w->e) < 0) {
		w->failed = 1;
		return -1;
	}
	return 0;
}

/*
 * The newest time a message of the conversation at v can have: the latest
 * of the times its bytes hold after "timestamp":", where each message's is
 * when the bytes are canonical (jansson's compact form: that key is never
 * escaped nor spaced, its value never escaped). The quote that ends the key
 * follows a p, so it is no quote inside a string; a member of an unknown
 * object with such a name can only raise the bound. INT64_MAX: not known.
 */
static const char time_key[] = "timestamp\":\"";

/* where p[0..n) first holds time_key; NULL. With SSE2, 16 places at a time
 * by its bytes p and :, which few other places hold 2 apart */
static const char *
find_time_key(const char *p, size_t n)
{
	const size_t len = sizeof(time_key) - 1;
#ifdef HAVE_SSE2_PATH
	const char *last = p + n - len;
	const __m128i cp = _mm_set1_epi8('p'), cc = _mm_set1_epi8(':');
	__m128i x, y;
	unsigned m;

	if (n >= len + 16) {
		while (last - p >= 15) {
			x = _mm_loadu_si128((const __m128i *)(const void *)(p + 8));
			y = _mm_loadu_si128((const __m128i *)(const void *)(p + 10));
			m = (unsigned)_mm_movemask_epi8(_mm_and_si128(
			    _mm_cmpeq_epi8(x, cp), _mm_cmpeq_epi8(y, cc)));
			for (; m != 0; m &= m - 1)
				if (memcmp(p + __builtin_ctz(m), time_key, len) == 0)
					return p + __builtin_ctz(m);
			p += 16;
		}
		n = (size_t)(last - p) + len;
	}
#endif
	return memmem(p, n, time_key, len);
}

static int64_t
newest_bound(const struct store_span *v)
{
	const char *p = v->p, *end = v->p + v->len, *at, *q;
	int64_t best = INT64_MIN, t;
	char tmp[40];

	if (!v->canonical)
		return INT64_MAX;
	while ((at = find_time_key(p, (size_t)(end - p))) != NULL) {
		p = at + sizeof(time_key) - 1;
		q = memchr(p, '"', (size_t)(end - p) < sizeof(tmp) ?
		    (size_t)(end - p) : sizeof(tmp));
		if (q == NULL)
			continue;	/* too long for a time: no message's */
		memcpy(tmp, p, (size_t)(q - p));
		tmp[q - p] = '\0';
		if (ts_parse(tmp, &t) == 0 && t > best)
			best = t;
		p = q;
	}
	return best;
}

/* the conversation at v[i], which may hold a match: its messages to the
 * sink */
static int
search_span(struct store *st, const struct store_span *v, size_t i,
    struct walk *w)
{
	const struct query_sink *sink = w->sink;
	struct scan_conv sc;
	int hits;

	w->pos = (int64_t)i;
	w->seq = 0;
	/* UTF-8 it is: the store was checked whole, or its index vouches */
	if (scan_conv_each(v[i].p, v[i].len, &sc, 1, walk_message, w) < 0) {
		sink->conv_end(sink->arg, NULL);
		return w->failed ? -1 : file_changed(st, w->e);
	}
	/* the tag, looked at only when it has hits */
	hits = sink->conv_hits(sink->arg);
	sink->conv_end(sink->arg, hits && query_tagged(w->q, v[i].p, v[i].len) ?
	    sc.id : NULL);
	scan_conv_clear(&sc);
	return 0;
}

struct later {
	int64_t bound;
	size_t i;
	int unfiltered;		/* its bytes not looked at yet */
};

static int
by_bound(const void *a, const void *b)
{
	const struct later *x = a, *y = b;

	if (x->bound != y->bound)
		return x->bound > y->bound ? -1 : 1;
	return x->i > y->i ? -1 : x->i < y->i;
}

int
file_search(struct store *st, const struct query *q,
    const struct query_sink *sink, struct error *e)
{
	struct walk w = { q, sink, e, { 0 }, { 0 }, 0, 0, 0 };
	struct store_span *v = NULL;
	struct buf tmp = { 0 };
	struct later *order = NULL;
	size_t i, n, m = 0, max = (size_t)q->max;
	int64_t oldest = INT64_MIN, t;	/* of the newest max hits found */
	int rc, unchecked;

	if ((rc = file_spans(st, &v, &n, &unchecked, e)) <= 0)
		return rc;
	rc = 0;
	if (q->max >= 0)
		order = xmalloc((n + 1) * sizeof(*order));
	for (i = 0; i < n && rc == 0; i++) {
		if (order != NULL && v[i].newest != INT64_MAX) {
			order[m++] = (struct later){ v[i].newest, i, 1 };
			continue;	/* its bytes looked at when its turn comes */
		}
		if (!query_json_may_hold(q, v[i].p, v[i].len, &tmp))
			continue;
		if (order == NULL)
			rc = search_span(st, v, i, &w);
		else
			order[m++] = (struct later){ newest_bound(&v[i]), i, 0 };
	}
	if (order != NULL && m > 1)
		qsort(order, m, sizeof(*order), by_bound);
	for (i = 0; order != NULL && i < m && rc == 0; i++) {
		if (max == 0 || order[i].bound < oldest)
			break;	/* none of its lines is among the newest */
		if (order[i].unfiltered &&
		    !query_json_may_hold(q, v[order[i].i].p, v[order[i].i].len,
		    &tmp))
			continue;
		rc = search_span(st, v, order[i].i, &w);
		if ((t = sink->keep_newest(sink->arg, max)) > oldest)
			oldest = t;
	}
	free(order);
	free(v);
	buf_free(&w.dec);
	buf_free(&w.text);
	buf_free(&tmp);
	return rc < 0 ? -1 : 1;
}
