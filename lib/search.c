/*
 * search.c - lines of messages that match, across every conversation; reads
 * the loaded store only, never the file, and prints nothing.
 *
 * One matcher for both kinds of query: a plain query is escaped into a POSIX
 * extended regular expression, so case folding (REG_ICASE) works the same
 * for both, by the C library's rules for the current LC_CTYPE.
 *
 * Before a conversation is parsed, its bytes as the engine read them are
 * looked at (the prefilter): a run of characters every match must hold,
 * taken from the expression, not in them, nor in them with their JSON
 * escapes undone, means no line of it can match, and it is skipped unparsed.
 * The prefilter may only skip what cannot match; whatever it cannot be sure
 * of (an alternation, a character it does not know how case folds) it
 * leaves to the matcher.
 */
#include <langinfo.h>
#include <wchar.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "internal.h"

/* the characters a plain query's are escaped from */
#define ERE_SPECIAL "\\^$.[]|()*+?{}"

struct search {
	regex_t re;
	int compiled;
	/* the prefilter: ASCII bytes every match holds, in lower case when
	 * case is ignored; len 0: no prefilter */
	char *lit;
	size_t litlen;
	size_t anchor;		/* lit's rarest byte, looked for first */
	int icase;
	int any_escape;		/* lit holds a byte that JSON escapes other
				 * than \uXXXX stand for: " \ / or a control */
	/* UTF-8 of the characters beyond ASCII that fold to one of lit's
	 * letters (U+017F matches s): a conversation holding one is parsed */
	char (*fold)[5];
	size_t nfold;
};

static unsigned char
ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* ends the run in cur: the longest so far kept in best */
static void
run_end(struct buf *cur, struct buf *best)
{
	if (cur->len > best->len) {
		best->len = 0;
		buf_add(best, cur->data, cur->len);
	}
	cur->len = 0;
}

/* past the bracket expression at p ('['); the expression compiled, so it
 * is well formed */
static const char *
bracket_end(const char *p)
{
	const char *q = p + 1, *x;

	if (*q == '^')
		q++;
	if (*q == ']')		/* first, it is a member */
		q++;
	while (*q != '\0' && *q != ']') {
		if (q[0] == '[' && (q[1] == ':' || q[1] == '=' || q[1] == '.')) {
			char close[3] = { q[1], ']', '\0' };

			if ((x = strstr(q + 2, close)) == NULL)
				return q + strlen(q);
			q = x + 2;
		} else
			q++;
	}
	return *q == ']' ? q + 1 : q;
}

/*
 * The longest run of ASCII characters that every match of the extended
 * regular expression re holds, one after the other: of those outside any
 * group, each once, not under *, ? or {}. None (best empty) when re has an
 * alternation. What it does not know ends a run: it may find too little,
 * never a run some match lacks.
 */
static void
required_run(const char *re, struct buf *best)
{
	struct buf cur = { 0 };
	const char *p = re;
	int depth = 0;
	unsigned char c;

	buf_add(best, "", 0);
	buf_add(&cur, "", 0);
	while (*p != '\0') {
		c = (unsigned char)*p;
		switch (c) {
		case '|':	/* no run every match holds, not even this one */
			best->len = 0;
			cur.len = 0;
			goto out;
		case '\\':
			/* \. is a dot, as search_compile escapes a plain
			 * query; \w, \<, \` and the like are GNU operators,
			 * and \1 a back-reference */
			c = (unsigned char)p[1];
			if (c != '\0' && strchr(ERE_SPECIAL, c) != NULL) {
				if (depth == 0)
					buf_addc(&cur, (char)c);
			} else
				run_end(&cur, best);
			p += c != '\0' ? 2 : 1;
			continue;
		case '[':
			run_end(&cur, best);
			p = bracket_end(p);
			continue;
		case '(':
			depth++;
			run_end(&cur, best);
			break;
		case ')':
			if (depth > 0)
				depth--;
			run_end(&cur, best);
			break;
		case '*':
		case '?':
		case '{':
			/* the character before may be missing: not in the run */
			if (cur.len > 0)
				cur.len--;
			run_end(&cur, best);
			if (c == '{') {
				while (*p != '\0' && *p != '}')
					p++;
				if (*p == '\0')
					goto out;
			}
			break;
		case '+':	/* the character before is there, once or more */
		case '.':
		case '^':
		case '$':
			run_end(&cur, best);
			break;
		default:
			if (c >= 0x80 || depth > 0)
				run_end(&cur, best);
			else
				buf_addc(&cur, (char)c);
		}
		p++;
	}
out:
	run_end(&cur, best);
	buf_free(&cur);
}

/* a character in UTF-8, into out[5] */
static void
utf8_put(char out[5], unsigned long cp)
{
	unsigned char *o = (unsigned char *)out;

	memset(out, 0, 5);
	if (cp < 0x80)
		o[0] = (unsigned char)cp;
	else if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
	} else {
		o[0] = (unsigned char)(0xF0 | cp >> 18);
		o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	}
}

/*
 * The characters beyond ASCII that REG_ICASE may match with one of s's
 * letters. glibc compares characters by towupper() in a multibyte locale:
 * U+0131 dotless i matches i and U+017F long s matches s, while U+212A
 * Kelvin sign (whose towlower() is k) does not match k (search-prefilter.t
 * proves both). Every character with a case mapping lies below U+20000;
 * asking them all takes half a millisecond.
 * 0: the locale is not UTF-8, whose folding is not known here.
 */
static int
find_folds(struct search *s)
{
	unsigned long cp;
	wint_t u;

	if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
		return 0;
	for (cp = 0x80; cp < 0x20000; cp++) {
		if (cp >= 0xD800 && cp < 0xE000)
			continue;
		u = towupper((wint_t)cp);
		if (u >= 0x80 || memchr(s->lit, ascii_lower((unsigned char)u),
		    s->litlen) == NULL)
			continue;
		s->fold = xrealloc(s->fold, (s->nfold + 1) * sizeof(*s->fold));
		utf8_put(s->fold[s->nfold++], cp);
	}
	return 1;
}

/* the position of lit's byte least likely in text, by English letter
 * frequencies: a rarer one stops the scan less often */
static size_t
rarest(const char *lit, size_t len)
{
	static const char common[] = " etaoinsrhldcumfpgwybvkxjqz";
	size_t i, best = 0;
	long rank, best_rank = -1;
	const char *at;

	for (i = 0; i < len; i++) {
		at = memchr(common, ascii_lower((unsigned char)lit[i]),
		    sizeof(common) - 1);
		rank = at != NULL ? (long)(at - common) : (long)sizeof(common);
		if (rank > best_rank) {
			best_rank = rank;
			best = i;
		}
	}
	return best;
}

/* the prefilter for pattern, the expression as compiled; none when
 * CONVCTL_SEARCH_NO_PREFILTER is 1 (a test compares both) */
static void
prefilter_make(struct search *s, const char *pattern, int icase)
{
	const char *off = getenv("CONVCTL_SEARCH_NO_PREFILTER");
	struct buf run = { 0 };
	size_t i;

	if (off != NULL && strcmp(off, "1") == 0)
		return;
	required_run(pattern, &run);
	if (run.len == 0) {
		buf_free(&run);
		return;
	}
	s->icase = icase;
	s->litlen = run.len;
	s->lit = buf_detach(&run);
	for (i = 0; i < s->litlen; i++) {
		if (icase)
			s->lit[i] = (char)ascii_lower((unsigned char)s->lit[i]);
		if (strchr("\"\\/", s->lit[i]) != NULL ||
		    (unsigned char)s->lit[i] < 0x20)
			s->any_escape = 1;
	}
	s->anchor = rarest(s->lit, s->litlen);
	if (icase && !find_folds(s)) {
		free(s->lit);
		s->lit = NULL;
		s->litlen = 0;
	}
}

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
			if (strchr(ERE_SPECIAL, *p) != NULL)
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
	prefilter_make(s, pat.data, !match_case);
	buf_free(&pat);
	*out = s;
	return 0;
}

/* x[0..s->litlen) is s->lit, in ASCII case or not as s says */
static int
lit_at(const struct search *s, const char *x)
{
	size_t i;

	if (!s->icase)
		return memcmp(x, s->lit, s->litlen) == 0;
	for (i = 0; i < s->litlen; i++)
		if (ascii_lower((unsigned char)x[i]) != (unsigned char)s->lit[i])
			return 0;
	return 1;
}

/* p[0..n) holds s->lit, in ASCII case or not as s says */
static int
has_lit(const struct search *s, const char *p, size_t n)
{
	const char *lo, *up, *at, *last;
	unsigned char a;
	size_t j = s->anchor;

	if (n < s->litlen)
		return 0;
	if (!s->icase)
		return memmem(p, n, s->lit, s->litlen) != NULL;
	/* the anchor byte in either case, at each place it can start lit */
	a = (unsigned char)s->lit[j];
	last = p + n - (s->litlen - j);		/* its last possible place */
	lo = memchr(p + j, a, (size_t)(last - (p + j)) + 1);
	up = a >= 'a' && a <= 'z' ? memchr(p + j, a - ('a' - 'A'),
	    (size_t)(last - (p + j)) + 1) : NULL;
	while (lo != NULL || up != NULL) {
		at = up == NULL || (lo != NULL && lo < up) ? lo : up;
		if (lit_at(s, at - j))
			return 1;
		if (at == lo)
			lo = at < last ? memchr(at + 1, a, (size_t)(last - at)) :
			    NULL;
		else
			up = at < last ? memchr(at + 1, a - ('a' - 'A'),
			    (size_t)(last - at)) : NULL;
	}
	return 0;
}

/* p[0..n) holds the bytes f[0..len) (a short sequence whose first byte is
 * rare: memchr runs faster than memmem) */
static int
has_seq(const char *p, size_t n, const char *f, size_t len)
{
	const char *end = p + n, *at;

	while ((at = memchr(p, f[0], (size_t)(end - p))) != NULL) {
		if ((size_t)(end - at) >= len && memcmp(at, f, len) == 0)
			return 1;
		p = at + 1;
	}
	return 0;
}

/* p[0..n) holds a character that folds to one of s->lit's letters */
static int
has_fold(const struct search *s, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < s->nfold; i++)
		if (has_seq(p, n, s->fold[i], strlen(s->fold[i])))
			return 1;
	return 0;
}

/* p[0..n) has an escape that may stand for one of s->lit's bytes: \uXXXX
 * may be any, the others only " \\ / and controls */
static int
has_escape(const struct search *s, const char *p, size_t n)
{
	if (s->any_escape)
		return memchr(p, '\\', n) != NULL;
	return has_seq(p, n, "\\u", 2);
}

static int
hex4(const char *p, unsigned long *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		int c = (unsigned char)p[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		*v = *v << 4 | (unsigned long)d;
	}
	return 0;
}

/* p[0..n), JSON text, with every string escape undone, into out: each
 * string's decoded text is in it whole */
static void
unescape(struct buf *out, const char *p, size_t n)
{
	const char *end = p + n, *bs;
	unsigned long cp, lo;
	char u[5];

	out->len = 0;
	while (p < end) {
		if ((bs = memchr(p, '\\', (size_t)(end - p))) == NULL) {
			buf_add(out, p, (size_t)(end - p));
			break;
		}
		buf_add(out, p, (size_t)(bs - p));
		p = bs;
		if (end - p < 2) {
			buf_add(out, p, (size_t)(end - p));
			break;
		}
		switch (p[1]) {
		case 'b': buf_addc(out, '\b'); break;
		case 'f': buf_addc(out, '\f'); break;
		case 'n': buf_addc(out, '\n'); break;
		case 'r': buf_addc(out, '\r'); break;
		case 't': buf_addc(out, '\t'); break;
		case 'u':
			if (end - p < 6 || hex4(p + 2, &cp) < 0)
				break;	/* the scanner let none through */
			p += 4;
			if (cp >= 0xD800 && cp < 0xDC00 && end - p >= 8 &&
			    p[2] == '\\' && p[3] == 'u' && hex4(p + 4, &lo) == 0 &&
			    lo >= 0xDC00 && lo < 0xE000) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				p += 6;
			}
			utf8_put(u, cp);
			buf_add(out, u, cp == 0 ? 1 : strlen(u));
			break;
		default:	/* " \ / */
			buf_addc(out, p[1]);
		}
		p += 2;
	}
}

/*
 * 0: c's bytes show that no line of its messages can match (they lack the
 * run of characters every match holds, escaped or not); 1: one may, or
 * there is no prefilter, or no bytes to look at. tmp: scratch space.
 */
static int
may_match(const struct search *s, const struct conv *c, struct buf *tmp)
{
	const char *p;
	size_t n;

	if (s->litlen == 0 || !conv_bytes(c, &p, &n))
		return 1;
	if (has_lit(s, p, n) || has_fold(s, p, n))
		return 1;
	/* an escape may spell what the bytes do not: \u0061 is an a */
	if (!has_escape(s, p, n))
		return 0;
	unescape(tmp, p, n);
	return has_lit(s, tmp->data, tmp->len) ||
	    has_fold(s, tmp->data, tmp->len);
}

void
search_free(struct search *s)
{
	if (s == NULL)
		return;
	if (s->compiled)
		regfree(&s->re);
	free(s->lit);
	free(s->fold);
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
hit_add(struct search_result *r, const char *conv, json_t *m, int64_t time,
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
	h->conv_id = conv;
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

/* the lines of message m (the k-th of conversation conv) that match,
 * added to r; how many, or -1 */
static long
message_hits(const struct search *s, const struct search_request *rq,
    const char *conv, json_t *m, size_t k, struct search_result *r,
    struct error *e)
{
	struct search_match *match;
	const char *text, *line, *nl;
	size_t len, llen, nmatch, lineno, before = r->n;
	enum conv_role role;
	int64_t t;

	if (role_parse(json_str(m, "role", NULL), &role) < 0 ||
	    (rq->role >= 0 && (int)role != rq->role))
		return 0;
	if (rq->tool != NULL && !used_tool(m, rq->tool))
		return 0;
	if (ts_parse(json_str(m, "timestamp", NULL), &t) < 0)
		return error_set(e, "conversation '%s': message %zu: bad "
		    "timestamp", conv, k);
	if ((rq->since >= 0 && t < rq->since) ||
	    (rq->until >= 0 && t >= rq->until))
		return 0;
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
			hit_add(r, conv, m, t, role, line, llen, lineno, match,
			    nmatch);
	}
	return (long)(r->n - before);
}

/* oldest first, and of those the newest max (<0: all) */
static void
keep_newest(struct search_result *r, long max)
{
	size_t i, drop;

	if (r->n > 1)	/* qsort may not be given a NULL array, even empty */
		qsort(r->hits, r->n, sizeof(*r->hits), by_time);
	if (max < 0 || r->n <= (size_t)max)
		return;
	drop = r->n - (size_t)max;
	for (i = 0; i < drop; i++)
		free(r->hits[i].match);
	memmove(r->hits, r->hits + drop, (size_t)max * sizeof(*r->hits));
	r->n = (size_t)max;
}

/* a search the engine answers (store_search()): the messages it sends,
 * each with its hits in r */
struct sent {
	const struct search *s;
	const struct search_request *rq;
	struct search_result *r;
	struct sent_msg {
		int64_t pos;
		size_t seq, first, n;
	} *msg;
	size_t nmsg;
};

static int
sent_message(void *arg, const char *conv, int64_t pos, size_t seq,
    json_t *m, struct error *e)
{
	struct sent *x = arg;
	json_t *id;
	size_t first = x->r->n;

	/* what the hits point into, kept as long as they are */
	id = json_stringn_nocheck(conv, strlen(conv));
	json_array_append_new(x->r->held, id);
	json_array_append_new(x->r->held, m);
	if (message_hits(x->s, x->rq, json_string_value(id), m, seq, x->r,
	    e) < 0)
		return -1;
	if (x->r->n == first)
		return 0;	/* the engine's superset: not a match */
	x->msg = xrealloc(x->msg, (x->nmsg + 1) * sizeof(*x->msg));
	x->msg[x->nmsg++] = (struct sent_msg){ pos, seq, first,
	    x->r->n - first };
	return x->rq->max >= 0 && x->r->n >= (size_t)x->rq->max;
}

static int
by_stored(const void *a, const void *b)
{
	const struct sent_msg *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* the lower-case letter each of s's fold characters folds to */
static char *
fold_letters(const struct search *s)
{
	char *of = xmalloc(s->nfold + 1);
	mbstate_t ps;
	wchar_t w;
	size_t i;

	for (i = 0; i < s->nfold; i++) {
		memset(&ps, 0, sizeof(ps));
		w = 0;
		mbrtowc(&w, s->fold[i], strlen(s->fold[i]), &ps);
		of[i] = (char)ascii_lower((unsigned char)towupper((wint_t)w));
	}
	return of;
}

/*
 * Asks the engine for the messages that may match (1), and puts their hits
 * in the order a scan of the store finds them (stored order, then message
 * order), which breaks ties of time; 0: the engine cannot, scan.
 */
static int
engine_search(struct store *st, const struct search *s,
    const struct search_request *rq, struct search_result *r,
    struct error *e)
{
	struct store_search q = { .lit = s->lit, .litlen = s->litlen,
	    .icase = s->icase, .fold = (const char (*)[5])s->fold,
	    .nfold = s->nfold, .role = rq->role, .since = rq->since,
	    .until = rq->until, .tag = rq->tag, .tool = rq->tool,
	    .newest = rq->max >= 0 };
	struct sent x = { s, rq, r, NULL, 0 };
	struct search_hit *hits;
	char *of = fold_letters(s);
	size_t i, j, n = 0;
	int rc;

	q.fold_of = of;
	r->held = json_array();
	if ((rc = store_search(st, &q, sent_message, &x, e)) == 1 && r->n > 0) {
		qsort(x.msg, x.nmsg, sizeof(*x.msg), by_stored);
		hits = xmalloc(r->n * sizeof(*hits));
		for (i = 0; i < x.nmsg; i++)
			for (j = 0; j < x.msg[i].n; j++) {
				hits[n] = r->hits[x.msg[i].first + j];
				hits[n].seq = n;
				n++;
			}
		free(r->hits);
		r->hits = hits;
		r->cap = r->n;
	}
	free(x.msg);
	free(of);
	return rc;
}

int
search_run(struct store *st, const struct search *s,
    const struct search_request *rq, struct search_result *r, struct error *e)
{
	struct buf tmp = { 0 };
	json_t *m;
	size_t i, k;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = engine_search(st, s, rq, r, e)) != 0) {
		if (rc > 0)
			keep_newest(r, rq->max);
		return rc < 0 ? -1 : 0;
	}
	if (store_load_all(st, e) < 0)
		return -1;
	for (i = 0; i < store_count(st); i++) {
		struct conv *c = store_conv(st, i);

		if (!may_match(s, c, &tmp))
			continue;
		if (rq->tag != NULL && !conv_has_tag(c, rq->tag))
			continue;
		json_array_foreach(json_object_get(conv_json(c), "messages"),
		    k, m)
			if (message_hits(s, rq, conv_id(c), m, k, r, e) < 0) {
				buf_free(&tmp);
				return -1;
			}
	}
	buf_free(&tmp);
	keep_newest(r, rq->max);
	return 0;
}

void
search_result_free(struct search_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->hits[i].match);
	free(r->hits);
	json_decref(r->held);
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
