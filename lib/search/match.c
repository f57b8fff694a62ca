/*
 * match.c - a compiled search run: its description (struct query) given
 * to the store's engine (store_query()), whose executor sends each message
 * that may match here, else every conversation parsed and each message
 * taken by the same filters (query_json_msg()); each message's lines
 * matched (a plain query character by character as glibc's regexec()
 * compares them, an expression by regexec()), the hits kept oldest first.
 * It prints nothing.
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

/*
 * The hits as they are found: offsets into r->text (ids and lines) and
 * r->matches, which grow; made into r->hits at the end.
 */
struct rec {
	int64_t time;
	size_t conv, seq;	/* found in the conv'th conversation, seq'th */
	size_t msgno;		/* in its msgno'th message */
	size_t id, msg, line, len, lineno, match, nmatch;
	enum conv_role role;
};
#define NO_MSG_ID SIZE_MAX

struct collect {
	const struct search *s;
	struct search_result *r;
	struct rec *rec;
	size_t n, cap, nmatch, capmatch;
	long max;		/* the newest max hits; <0: all */
	size_t first;		/* the first record of the conversation the
				 * file's executor gives (SIZE_MAX: none) */
	size_t id;		/* the id in r->text of the conversation at */
	int64_t id_pos;		/* id_pos (SIZE_MAX: none yet) */
};

/* s at r->text's end, NUL-terminated (as a C string: to its first NUL);
 * where */
static size_t
text_add(struct search_result *r, const char *s, size_t len)
{
	size_t at = r->text.len;

	buf_add(&r->text, s, len);
	buf_addc(&r->text, '\0');
	return at;
}

static void
match_add(struct collect *k, size_t start, size_t end)
{
	struct search_result *r = k->r;

	if (k->nmatch == k->capmatch) {
		k->capmatch = k->capmatch ? k->capmatch * 2 : 256;
		r->matches = xrealloc(r->matches,
		    k->capmatch * sizeof(*r->matches));
	}
	r->matches[k->nmatch].start = start;
	r->matches[k->nmatch].end = end;
	k->nmatch++;
}

/* the matches in line[0..len) by the regular expression, into k; how many */
static size_t
find_re(const struct search *s, const char *line, size_t len,
    struct collect *k)
{
	regmatch_t pm[1];
	size_t at = 0, found = 0;
	int flags = 0;

	while (at <= len) {
		/* REG_STARTEND: lines are not NUL-terminated and may hold NULs */
		pm[0].rm_so = (regoff_t)at;
		pm[0].rm_eo = (regoff_t)len;
		if (regexec(&s->re, line, 1, pm, flags | REG_STARTEND) != 0)
			break;
		match_add(k, (size_t)pm[0].rm_so, (size_t)pm[0].rm_eo);
		found++;
		/* an empty match must not match at the same place forever */
		at = (size_t)pm[0].rm_eo;
		if (pm[0].rm_eo == pm[0].rm_so)
			at++;
		flags = REG_NOTBOL;
	}
	return found;
}

/*
 * find_all() of a plain query (s->plain): every place its characters are,
 * leftmost first, one after the other, compared as the matcher compares
 * them (char_key()). Knuth-Morris-Pratt: each character of the line is
 * looked at once, whatever the query, and nothing is allocated.
 */
static size_t
find_plain(const struct search *s, const char *line, size_t len,
    struct collect *k)
{
	const unsigned char *p = (const unsigned char *)line, *end = p + len;
	const unsigned char *start;
	size_t j = 0, found = 0, i;
	uint32_t c;

	while (p < end) {
		c = char_key(char_next(&p, end), s->q.icase);
		while (j > 0 && c != s->wq[j])
			j = s->kmp[j - 1];
		if (c == s->wq[j])
			j++;
		if (j < s->wm)
			continue;
		/* back over the match's wm characters, each valid UTF-8 */
		for (start = p, i = 0; i < s->wm; i++)
			do
				start--;
			while (((unsigned char)*start & 0xc0) == 0x80);
		match_add(k, (size_t)(start - (const unsigned char *)line),
		    (size_t)(p - (const unsigned char *)line));
		found++;
		j = 0;
	}
	return found;
}

/*
 * The matches in line[0..len), into k; how many. A line that lacks what
 * every match holds is not looked at further. Where the query is ASCII
 * text (s->literal) and the line holds no character the matcher folds to
 * one of its letters, they are where s->q.lit is: leftmost, one after the
 * other; else a plain query's are find_plain()'s, an expression's the
 * matcher's.
 */
static size_t
find_all(const struct search *s, const char *line, size_t len,
    struct collect *k)
{
	const char *at, *p = line, *end = line + len;
	size_t found = 0;
	int fold;

	if (s->q.litlen > 0) {
		fold = query_has_fold(&s->q, line, len);
		if (!fold && query_find_lit(&s->q, line, len) == NULL)
			return 0;
		if (s->literal && !fold) {
			while ((at = query_find_lit(&s->q, p, (size_t)(end - p))) != NULL) {
				match_add(k, (size_t)(at - line),
				    (size_t)(at - line) + s->q.litlen);
				found++;
				p = at + s->q.litlen;
			}
			return found;
		}
	}
	if (s->plain)
		return find_plain(s, line, len, k);
	return find_re(s, line, len, k);
}

/* each matching line of m's content into k; its ids into r->text at
 * the first (the conversation's later, by conv_end, when m has none) */
static void
search_text(const struct search *s, struct collect *k,
    const struct query_msg *m)
{
	const char *text = m->text, *line, *nl;
	size_t len = m->len, llen, lineno, first, n, at;
	size_t id = SIZE_MAX, msg = NO_MSG_ID;
	struct rec *h;

	for (line = text, lineno = 1; line <= text + len;
	    line = nl + 1, lineno++) {
		/* a final newline ends the last line, starts none */
		if (line == text + len && line != text)
			break;
		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (nl == NULL)
			nl = text + len;
		llen = (size_t)(nl - line);
		if (llen > 0 && line[llen - 1] == '\r')
			llen--;
		first = k->nmatch;
		if ((n = find_all(s, line, llen, k)) == 0)
			continue;
		if (id == SIZE_MAX) {
			if (m->conv_id != NULL && (k->id == SIZE_MAX ||
			    k->id_pos != m->pos)) {
				k->id = text_add(k->r, m->conv_id,
				    strlen(m->conv_id));
				k->id_pos = m->pos;
			}
			id = m->conv_id == NULL ? 0 : k->id;
			if (m->id != NULL)
				msg = text_add(k->r, m->id, m->idlen);
		}
		at = text_add(k->r, line, llen);
		if (k->n == k->cap) {
			k->cap = k->cap ? k->cap * 2 : 64;
			k->rec = xrealloc(k->rec, k->cap * sizeof(*k->rec));
		}
		h = &k->rec[k->n];
		h->seq = k->n++;
		h->conv = (size_t)m->pos;
		h->msgno = m->seq;
		h->id = id;
		h->msg = msg;
		h->time = m->time;
		h->role = m->role;
		h->line = at;
		h->len = llen;
		h->lineno = lineno;
		h->match = first;
		h->nmatch = n;
	}
}

static int
by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->conv != y->conv)
		return x->conv < y->conv ? -1 : 1;
	if (x->msgno != y->msgno)
		return x->msgno < y->msgno ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* k's records sorted, oldest first, unless they are already */
static void
collect_sort(struct collect *k)
{
	size_t i;

	for (i = 1; i < k->n; i++)	/* a store is mostly in time order */
		if (by_time(&k->rec[i - 1], &k->rec[i]) > 0) {
			qsort(k->rec, k->n, sizeof(*k->rec), by_time);
			break;
		}
}

/* k's records, oldest first, the newest k->max of them, into r->hits */
static void
collect_end(struct collect *k)
{
	struct search_result *r = k->r;
	struct rec *h;
	size_t i, from = 0;

	collect_sort(k);
	if (k->max >= 0 && k->n > (size_t)k->max)
		from = k->n - (size_t)k->max;
	r->n = r->cap = k->n - from;
	r->hits = xmalloc((r->n + 1) * sizeof(*r->hits));
	for (i = 0; i < r->n; i++) {
		h = &k->rec[from + i];
		r->hits[i] = (struct search_hit){
			.conv_id = r->text.data + h->id,
			.msg_id = h->msg == NO_MSG_ID ? NULL : r->text.data + h->msg,
			.time = h->time,
			.role = h->role,
			.line = r->text.data + h->line,
			.len = h->len,
			.lineno = h->lineno,
			.match = r->matches + h->match,
			.nmatch = h->nmatch,
			.seq = i,
		};
	}
	free(k->rec);
	k->rec = NULL;
}

/* with -n max: only the newest max records kept, now and then; when they
 * are, the oldest one's time, else INT64_MIN */
static int64_t
keep_newest(void *arg, size_t max)
{
	struct collect *k = arg;

	if (k->n < max || (max > 1024 && k->n < 2 * max))
		return INT64_MIN;
	collect_sort(k);
	memmove(k->rec, k->rec + (k->n - max), max * sizeof(*k->rec));
	k->n = max;
	return max > 0 ? k->rec[0].time : INT64_MAX;
}

/* the sink's: a message an executor found may match */
static int
sent_message(void *arg, const struct query_msg *m, struct error *e)
{
	struct collect *k = arg;

	(void)e;
	if (k->first == SIZE_MAX)
		k->first = k->n;
	search_text(k->s, k, m);
	return k->max >= 0 && k->n >= (size_t)k->max;
}

static int
sent_hits(void *arg)
{
	struct collect *k = arg;

	return k->first != SIZE_MAX && k->n > k->first;
}

static void
sent_end(void *arg, const char *conv_id)
{
	struct collect *k = arg;
	size_t j, id;

	if (k->first == SIZE_MAX)
		return;
	if (conv_id == NULL)
		k->n = k->first;
	else if (k->n > k->first) {
		id = text_add(k->r, conv_id, strlen(conv_id));
		for (j = k->first; j < k->n; j++)
			k->rec[j].id = id;
	}
	k->first = SIZE_MAX;
}

/*
 * Every conversation parsed (jansson), each message the filters take
 * matched: the way for an engine that cannot run q now, and with
 * CONVCTL_SEARCH_NO_PREFILTER=1 (q->parsed), the one the tests compare the
 * others with.
 */
static int
search_parsed(struct store *st, const struct query *q, struct collect *k,
    struct error *e)
{
	struct query_msg m;
	json_t *msg;
	size_t i, j;
	int rc;

	if (store_load_all(st, e) < 0)
		return -1;
	for (i = 0; i < store_count(st); i++) {
		struct conv *c = store_conv(st, i);

		if (q->tag != NULL && !conv_has_tag(c, q->tag))
			continue;
		json_array_foreach(json_object_get(conv_json(c), "messages"),
		    j, msg) {
			if ((rc = query_json_msg(q, msg, conv_id(c), (int64_t)i,
			    j, &m, e)) < 0)
				return -1;
			if (rc > 0)
				search_text(k->s, k, &m);
		}
	}
	return 0;
}

int
search_run(struct store *st, const struct search *s,
    const struct search_request *rq, struct search_result *r, struct error *e)
{
	struct collect k = { s, r, NULL, 0, 0, 0, 0, rq->max, SIZE_MAX,
	    SIZE_MAX, 0 };
	struct query_sink sink = { sent_message, sent_hits, sent_end,
	    keep_newest, &k };
	struct query q = s->q;
	int rc;

	memset(r, 0, sizeof(*r));
	/* the description whole: the text compiled, the filters asked for */
	q.role = rq->role;
	q.since = rq->since;
	q.until = rq->until;
	q.tag = rq->tag;
	q.tool = rq->tool;
	q.max = rq->max;
	if ((rc = store_query(st, &q, &sink, e)) == 0)
		rc = search_parsed(st, &q, &k, e);
	if (rc < 0) {
		free(k.rec);
		search_result_free(r);
		return -1;
	}
	collect_end(&k);
	return 0;
}

void
search_result_free(struct search_result *r)
{
	free(r->hits);
	free(r->matches);
	buf_free(&r->text);
	memset(r, 0, sizeof(*r));
}
