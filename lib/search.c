/*
 * search.c - lines of messages that match, across every conversation; reads
 * the loaded store only, never the file, and prints nothing.
 *
 * One matcher for both kinds of query: a plain query is escaped into a POSIX
 * extended regular expression, so case folding (REG_ICASE) works the same
 * for both, by the C library's rules for the current LC_CTYPE.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct search {
	regex_t re;
	int compiled;
};

int
search_compile(struct search **out, const char *query, int regex,
    int match_case, struct error *e)
{
	struct search *s;
	struct buf pat = { 0 };
	char msg[256];
	const char *p;
	int rc, flags = REG_EXTENDED;

	*out = NULL;
	if (*query == '\0')
		return error_set(e, "empty query");
	if (!regex)
		for (p = query; *p; p++) {
			if (strchr("\\^$.[]|()*+?{}", *p) != NULL)
				buf_addc(&pat, '\\');
			buf_addc(&pat, *p);
		}
	else
		buf_adds(&pat, query);
	if (!match_case)
		flags |= REG_ICASE;
	s = xmalloc(sizeof(*s));
	memset(s, 0, sizeof(*s));
	if ((rc = regcomp(&s->re, pat.data, flags)) != 0) {
		regerror(rc, &s->re, msg, sizeof(msg));
		error_set(e, "invalid regular expression '%s': %s", query, msg);
		free(s);
		buf_free(&pat);
		return -1;
	}
	s->compiled = 1;
	buf_free(&pat);
	*out = s;
	return 0;
}

void
search_free(struct search *s)
{
	if (s == NULL)
		return;
	if (s->compiled)
		regfree(&s->re);
	free(s);
}

/* the matches in line[0..len), appended to *m; how many */
static size_t
find_all(const struct search *s, const char *line, size_t len,
    struct search_match **m, size_t *nm)
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
		*m = xrealloc(*m, (*nm + 1) * sizeof(**m));
		(*m)[*nm].start = (size_t)pm[0].rm_so;
		(*m)[*nm].end = (size_t)pm[0].rm_eo;
		(*nm)++;
		found++;
		/* an empty match must not match at the same place forever */
		at = (size_t)pm[0].rm_eo;
		if (pm[0].rm_eo == pm[0].rm_so)
			at++;
		flags = REG_NOTBOL;
	}
	return found;
}

static int
by_time(const void *a, const void *b)
{
	const struct search_hit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
hit_add(struct search_result *r, struct conv *c, json_t *m, int64_t time,
    enum conv_role role, const char *line, size_t len, size_t lineno,
    struct search_match *match, size_t nmatch)
{
	struct search_hit *h;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->hits = xrealloc(r->hits, r->cap * sizeof(*r->hits));
	}
	h = &r->hits[r->n];
	h->seq = r->n++;
	h->conv_id = conv_id(c);
	h->msg_id = json_str(m, "id", NULL);
	h->time = time;
	h->role = role;
	h->line = line;
	h->len = len;
	h->lineno = lineno;
	h->match = match;
	h->nmatch = nmatch;
}

/* m's toolsUsed names tool */
static int
used_tool(json_t *m, const char *tool)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(m, "toolsUsed"), i, t)
		if (json_is_text(t) && strcmp(json_string_value(t), tool) == 0)
			return 1;
	return 0;
}

int
search_run(struct store *st, const struct search *s,
    const struct search_request *rq, struct search_result *r, struct error *e)
{
	struct search_match *match;
	json_t *m;
	const char *text, *line, *nl;
	size_t i, k, len, llen, nmatch, lineno;
	enum conv_role role;
	int64_t t;

	memset(r, 0, sizeof(*r));
	if (store_load_all(st, e) < 0)
		return -1;
	for (i = 0; i < store_count(st); i++) {
		struct conv *c = store_conv(st, i);

		if (rq->tag != NULL && !conv_has_tag(c, rq->tag))
			continue;
		json_array_foreach(json_object_get(conv_json(c), "messages"),
		    k, m) {
			if (role_parse(json_str(m, "role", NULL), &role) < 0 ||
			    (rq->role >= 0 && (int)role != rq->role))
				continue;
			if (rq->tool != NULL && !used_tool(m, rq->tool))
				continue;
			if (ts_parse(json_str(m, "timestamp", NULL), &t) < 0)
				return error_set(e, "conversation '%s': message "
				    "%zu: bad timestamp", conv_id(c), k);
			if ((rq->since >= 0 && t < rq->since) ||
			    (rq->until >= 0 && t >= rq->until))
				continue;
			text = json_str(m, "content", &len);
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
				match = NULL;
				nmatch = 0;
				if (find_all(s, line, llen, &match, &nmatch) > 0)
					hit_add(r, c, m, t, role, line, llen,
					    lineno, match, nmatch);
			}
		}
	}
	/* oldest first, and of those the newest rq->max */
	if (r->n > 1)	/* qsort may not be given a NULL array, even empty */
		qsort(r->hits, r->n, sizeof(*r->hits), by_time);
	if (rq->max >= 0 && r->n > (size_t)rq->max) {
		size_t drop = r->n - (size_t)rq->max;

		for (i = 0; i < drop; i++)
			free(r->hits[i].match);
		memmove(r->hits, r->hits + drop,
		    (size_t)rq->max * sizeof(*r->hits));
		r->n = (size_t)rq->max;
	}
	return 0;
}

void
search_result_free(struct search_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->hits[i].match);
	free(r->hits);
	memset(r, 0, sizeof(*r));
}

static void
add_marked(struct buf *b, const struct search_hit *h, int colour)
{
	size_t at = 0, i;

	for (i = 0; i < h->nmatch; i++) {
		if (!colour || h->match[i].end == h->match[i].start)
			continue;
		buf_add(b, h->line + at, h->match[i].start - at);
		buf_adds(b, "\033[1;31m");
		buf_add(b, h->line + h->match[i].start,
		    h->match[i].end - h->match[i].start);
		buf_adds(b, "\033[m");
		at = h->match[i].end;
	}
	buf_add(b, h->line + at, h->len - at);
}

void
search_render(struct buf *b, const struct search_result *r, int json,
    int colour)
{
	char ts[TS_LEN];
	json_t *arr, *o, *marks, *mk;
	const struct search_hit *h;
	size_t i, j;

	if (!json) {
		for (i = 0; i < r->n; i++) {
			h = &r->hits[i];
			ts_format(h->time, ts);
			buf_addf(b, "%s\t%s\t%s\t", h->conv_id, ts,
			    role_name(h->role));
			add_marked(b, h, colour);
			buf_addc(b, '\n');
		}
		return;
	}
	arr = json_array();
	for (i = 0; i < r->n; i++) {
		h = &r->hits[i];
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
		json_array_append_new(arr, o);
	}
	json_dump_buf(b, arr);
	buf_addc(b, '\n');
	json_decref(arr);
}
