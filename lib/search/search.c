/*
 * search.c - lines of messages that match, across every conversation; reads
 * the loaded store only, never the file, and prints nothing.
 *
 * One rule of case for both kinds of query, the C library's for the
 * current LC_CTYPE: an expression is compiled by regcomp() (REG_ICASE), a
 * plain query matched character by character as glibc's regexec() compares
 * them (towupper() of both), without regcomp()'s tree of some 200 bytes a
 * byte of the query (find_plain()); in a locale that is not UTF-8, or with
 * the prefilter off, it is escaped into an expression instead.
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
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "../internal.h"
#include "../base/plain.h"	/* HAVE_SSE2_PATH */
#include "../base/utf8.h"
#include "../store/scan.h"	/* scan_conv_each(): the messages of bytes */

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
	char *fold_of;		/* the letter (lower case) each folds to */
	size_t nfold;
	int literal;		/* the query is lit, ASCII text, whole */
	int prefilter;		/* 0: CONVCTL_SEARCH_NO_PREFILTER=1 */
	/* a plain query, matched by find_plain(), not compiled: regcomp()'s
	 * tree costs some 200 bytes a byte of the query */
	int plain;
	uint32_t *wq;		/* its characters, towupper()'d when icase */
	size_t *kmp;		/* wq's prefix function */
	size_t wm;		/* how many */
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
		case '|':
			best->len = cur.len = 0;
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
		s->fold_of = xrealloc(s->fold_of, s->nfold + 1);
		s->fold_of[s->nfold] = (char)ascii_lower((unsigned char)u);
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
	s->prefilter = 1;
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

/* the character at *pp, which it passes; a byte that starts no valid
 * UTF-8 sequence is a value no character has, passed alone */
static uint32_t
char_next(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp;
	uint32_t cp;
	size_t n, i;

	if (*p < 0x80 || (n = utf8_seq(p, end)) == 0) {
		*pp = p + 1;
		return *p < 0x80 ? *p : 0x110000u + *p;
	}
	cp = *p & (0xffu >> (n + 1));
	for (i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	*pp = p + n;
	return cp;
}

/* c as the matcher compares it: towupper()'d when case is ignored */
static uint32_t
char_key(uint32_t c, int icase)
{
	return icase && c < 0x110000u ? (uint32_t)towupper((wint_t)c) : c;
}

/*
 * A plain query to be matched as the matcher would, without it: in a
 * UTF-8 locale (glibc compares characters, by towupper() when case is
 * ignored: U+017F long s matches s), of valid UTF-8, and not when the
 * prefilter is off (CONVCTL_SEARCH_NO_PREFILTER=1: the matcher answers
 * everything, for search-prefilter.t to compare with).
 */
static void
plain_make(struct search *s, const char *query, int icase)
{
	const unsigned char *p = (const unsigned char *)query, *end;
	size_t n = strlen(query), i, j;

	if (!s->prefilter || strcmp(nl_langinfo(CODESET), "UTF-8") != 0 ||
	    utf8_invalid_at(query, n) >= 0)
		return;
	end = p + n;
	s->wq = xmalloc(n * sizeof(*s->wq));
	while (p < end)
		s->wq[s->wm++] = char_key(char_next(&p, end), icase);
	s->kmp = xmalloc(s->wm * sizeof(*s->kmp));
	s->kmp[0] = 0;
	for (i = 1, j = 0; i < s->wm; i++) {
		while (j > 0 && s->wq[i] != s->wq[j])
			j = s->kmp[j - 1];
		if (s->wq[i] == s->wq[j])
			j++;
		s->kmp[i] = j;
	}
	s->plain = 1;
	s->icase = icase;
}

/* pattern compiled into s->re; for errors, query as the user wrote it */
static int
re_compile(struct search *s, const char *pattern, const char *query,
    int flags, struct error *e)
{
	char msg[256];
	int rc;

	if ((rc = regcomp(&s->re, pattern, flags)) != 0) {
		regerror(rc, &s->re, msg, sizeof(msg));
		return error_set(e, "invalid regular expression '%s': %s", query,
		    msg);
	}
	s->compiled = 1;
	return 0;
}

int
search_compile(struct search **out, const char *query, int regex,
    int match_case, struct error *e)
{
	struct search *s;
	struct buf pat = { 0 };
	size_t chars;
	const char *p;
	int flags = REG_EXTENDED;

	*out = NULL;
	if (*query == '\0')
		return error_set(e, "empty query");
	if ((chars = utf8_count(query, strlen(query))) > SEARCH_QUERY_MAX_CHARS)
		return error_set(e, "query is %zu characters long; at most %d "
		    "are taken", chars, SEARCH_QUERY_MAX_CHARS);
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
	/* the prefilter reads an expression known to be well formed */
	if (regex && re_compile(s, pat.data, query, flags, e) < 0)
		goto fail;
	prefilter_make(s, pat.data, !match_case);
	/* plain ASCII text: the run every match holds is the whole query,
	 * found by find_all() with no more than memchr() */
	s->literal = !regex && s->litlen == strlen(query);
	if (!regex)
		plain_make(s, query, !match_case);
	if (!regex && !s->plain &&
	    re_compile(s, pat.data, query, flags, e) < 0)
		goto fail;
	buf_free(&pat);
	*out = s;
	return 0;
fail:
	buf_free(&pat);
	search_free(s);
	return -1;
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

/* find_lit() one place at a time, by the anchor byte */
static const char *
find_lit_memchr(const struct search *s, const char *p, size_t n)
{
	const char *lo, *up, *at, *last, *first = NULL;
	unsigned char a;
	size_t j = s->anchor;

	if (n < s->litlen)
		return NULL;
	if (!s->icase)
		return memmem(p, n, s->lit, s->litlen);
	/* the anchor byte in either case, at each place it can start lit */
	a = (unsigned char)s->lit[j];
	last = p + n - (s->litlen - j);		/* its last possible place */
	lo = memchr(p + j, a, (size_t)(last - (p + j)) + 1);
	up = a >= 'a' && a <= 'z' ? memchr(p + j, a - ('a' - 'A'),
	    (size_t)(last - (p + j)) + 1) : NULL;
	while (lo != NULL || up != NULL) {
		at = up == NULL || (lo != NULL && lo < up) ? lo : up;
		if (lit_at(s, at - j)) {
			first = at - j;
			break;
		}
		if (at == lo)
			lo = at < last ? memchr(at + 1, a, (size_t)(last - at)) :
			    NULL;
		else
			up = at < last ? memchr(at + 1, a - ('a' - 'A'),
			    (size_t)(last - at)) : NULL;
	}
	return first;
}

/*
 * Where p[0..n) first holds s->lit, in ASCII case or not as s says; NULL.
 * With SSE2, 16 places at a time: those whose first and last bytes may be
 * lit's (a letter's two cases are the same byte but for 0x20) are compared
 * whole; two bytes leave far fewer places than the rarest one alone.
 */
#ifdef HAVE_SSE2_PATH
/* lit's first and last bytes, each in 16 lanes, with the bit that makes a
 * letter lower case where the case does not count */
struct lit_ends {
	__m128i fa, fb, ca, cb;
};

static void
lit_ends_make(const struct search *s, struct lit_ends *e)
{
	unsigned char a = (unsigned char)s->lit[0];
	unsigned char b = (unsigned char)s->lit[s->litlen - 1];

	e->fa = _mm_set1_epi8(s->icase && a >= 'a' && a <= 'z' ? 0x20 : 0);
	e->fb = _mm_set1_epi8(s->icase && b >= 'a' && b <= 'z' ? 0x20 : 0);
	e->ca = _mm_set1_epi8((char)a);
	e->cb = _mm_set1_epi8((char)b);
}

/* a bit for each of the 16 places from x (the bytes at p) and y (those at
 * p + litlen - 1) where lit may start: its first and last bytes are there */
static unsigned
lit_ends_at(const struct lit_ends *e, __m128i x, __m128i y)
{
	return (unsigned)_mm_movemask_epi8(_mm_and_si128(
	    _mm_cmpeq_epi8(_mm_or_si128(x, e->fa), e->ca),
	    _mm_cmpeq_epi8(_mm_or_si128(y, e->fb), e->cb)));
}
#endif

static const char *
find_lit(const struct search *s, const char *p, size_t n)
{
#ifdef HAVE_SSE2_PATH
	const char *last;
	struct lit_ends e;
	__m128i x, y;
	unsigned m;

	if (s->litlen >= 2 && n >= s->litlen + 15) {
		lit_ends_make(s, &e);
		last = p + n - s->litlen;	/* the last place it may start */
		while (last - p >= 15) {
			x = _mm_loadu_si128((const __m128i *)(const void *)p);
			y = _mm_loadu_si128((const __m128i *)(const void *)
			    (p + s->litlen - 1));
			m = lit_ends_at(&e, x, y);
			for (; m != 0; m &= m - 1)
				if (lit_at(s, p + __builtin_ctz(m)))
					return p + __builtin_ctz(m);
			p += 16;
		}
		n = (size_t)(last - p) + s->litlen;
	}
#endif
	return find_lit_memchr(s, p, n);
}

/* p[0..n) holds s->lit */
static int
has_lit(const struct search *s, const char *p, size_t n)
{
	return find_lit(s, p, n) != NULL;
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
 * The prefilter's three looks (lit, a character that folds to one of its
 * letters, an escape that may spell one of its bytes) in one pass, 16
 * places at a time: 1, lit is there; 0, none of the three is; -1, a fold
 * or an escape may be there (or no such pass here): look the careful way.
 * Each fold and the escape are known by their first two bytes (any
 * backslash when s->any_escape).
 */
static int
quick_may_match(const struct search *s, const char *p, size_t n)
{
#ifdef HAVE_SSE2_PATH
	const char *end = p + n, *last;
	struct lit_ends e;
	__m128i x, y, z, sp, bs, u;
	__m128i f0[4], f1[4];
	unsigned m, ms;
	size_t i, nf = s->nfold;

	if (s->litlen < 2 || nf > 4 || n < s->litlen + 16)
		return -1;
	lit_ends_make(s, &e);
	bs = _mm_set1_epi8('\\');
	u = _mm_set1_epi8('u');
	for (i = 0; i < nf; i++) {
		f0[i] = _mm_set1_epi8(s->fold[i][0]);
		f1[i] = _mm_set1_epi8(s->fold[i][1]);
	}
	last = end - s->litlen;
	while (last - p >= 15) {
		x = _mm_loadu_si128((const __m128i *)(const void *)p);
		y = _mm_loadu_si128((const __m128i *)(const void *)
		    (p + s->litlen - 1));
		z = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
		m = lit_ends_at(&e, x, y);
		sp = _mm_cmpeq_epi8(x, bs);
		if (!s->any_escape)
			sp = _mm_and_si128(sp, _mm_cmpeq_epi8(z, u));
		for (i = 0; i < nf; i++)
			sp = _mm_or_si128(sp, _mm_and_si128(
			    _mm_cmpeq_epi8(x, f0[i]), _mm_cmpeq_epi8(z, f1[i])));
		ms = (unsigned)_mm_movemask_epi8(sp);
		for (; m != 0; m &= m - 1)
			if (lit_at(s, p + __builtin_ctz(m)))
				return 1;	/* whatever else is there */
		if (ms != 0)
			return -1;
		p += 16;
	}
	/* the places left, the careful way */
	n = (size_t)(end - p);
	if (has_lit(s, p, n))
		return 1;
	return has_fold(s, p, n) || has_escape(s, p, n) ? -1 : 0;
#else
	(void)s;
	(void)p;
	(void)n;
	return -1;
#endif
}

/*
 * 0: the JSON text p[0..n) shows that no line of its messages can match (it
 * lacks the run of characters every match holds, escaped or not); 1: one
 * may, or there is no prefilter. tmp: scratch space.
 */
static int
text_may_match(const struct search *s, const char *p, size_t n,
    struct buf *tmp)
{
	int q;

	if (s->litlen == 0)
		return 1;
	if ((q = quick_may_match(s, p, n)) >= 0)
		return q;
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
	free(s->fold_of);
	free(s->wq);
	free(s->kmp);
	free(s);
}

/*
 * The hits as they are found: offsets into r->text (ids and lines) and
 * r->matches, which grow; made into r->hits at the end.
 */
struct rec {
	int64_t time;
	size_t conv, seq;	/* found in the conv'th conversation, seq'th */
	size_t msgno;		/* in its msgno'th message (0 where found in
				 * message order) */
	size_t id, msg, line, len, lineno, match, nmatch;
	enum conv_role role;
};
#define NO_MSG_ID SIZE_MAX

struct collect {
	struct search_result *r;
	struct rec *rec;
	size_t n, cap, nmatch, capmatch;
	size_t id;		/* the current conversation's id in r->text */
	size_t conv;		/* the current conversation's place */
	size_t msgno;		/* the current message's place, or 0 */
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
		c = char_key(char_next(&p, end), s->icase);
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
 * one of its letters, they are where s->lit is: leftmost, one after the
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

	if (s->litlen > 0) {
		fold = has_fold(s, line, len);
		if (!fold && !has_lit(s, line, len))
			return 0;
		if (s->literal && !fold) {
			while ((at = find_lit(s, p, (size_t)(end - p))) != NULL) {
				match_add(k, (size_t)(at - line),
				    (size_t)(at - line) + s->litlen);
				found++;
				p = at + s->litlen;
			}
			return found;
		}
	}
	if (s->plain)
		return find_plain(s, line, len, k);
	return find_re(s, line, len, k);
}

/* each matching line of text[0..len), a message's content, into k */
static void
search_text(const struct search *s, struct collect *k, int64_t time,
    enum conv_role role, size_t msg, const char *text, size_t len)
{
	const char *line, *nl;
	size_t llen, lineno, first, n, at;
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
		at = text_add(k->r, line, llen);
		if (k->n == k->cap) {
			k->cap = k->cap ? k->cap * 2 : 64;
			k->rec = xrealloc(k->rec, k->cap * sizeof(*k->rec));
		}
		h = &k->rec[k->n];
		h->seq = k->n++;
		h->conv = k->conv;
		h->msgno = k->msgno;
		h->id = k->id;
		h->msg = msg;
		h->time = time;
		h->role = role;
		h->line = at;
		h->len = llen;
		h->lineno = lineno;
		h->match = first;
		h->nmatch = n;
	}
}

/* the text of a message's toolsUsed (an array of strings, or null) names
 * tool */
static int
tools_name(json_t *tools, const char *tool)
{
	json_t *t;
	size_t i;

	json_array_foreach(tools, i, t)
		if (json_is_text(t) && strcmp(json_string_value(t), tool) == 0)
			return 1;
	return 0;
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

/* k's records, oldest first, the newest rq->max of them, into r->hits */
static void
collect_end(struct collect *k, const struct search_request *rq)
{
	struct search_result *r = k->r;
	struct rec *h;
	size_t i, from = 0;

	collect_sort(k);
	if (rq->max >= 0 && k->n > (size_t)rq->max)
		from = k->n - (size_t)rq->max;
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

/* message m, the j'th of conversation conv (its id at k->id, SIZE_MAX:
 * not yet in r->text), its lines that match into k, unless rq filters it
 * out; -1 when its time is no time */
static int
search_message(const struct search *s, const struct search_request *rq,
    struct collect *k, const char *conv, size_t j, json_t *m,
    struct error *e)
{
	const char *text, *mid;
	size_t len;
	enum conv_role role;
	int64_t t;

	if (role_parse(json_str(m, "role", NULL), &role) < 0 ||
	    (rq->role >= 0 && (int)role != rq->role))
		return 0;
	if (rq->tool != NULL && !tools_name(json_object_get(m, "toolsUsed"),
	    rq->tool))
		return 0;
	if (ts_parse(json_str(m, "timestamp", NULL), &t) < 0)
		return error_set(e, "conversation '%s': message %zu: bad "
		    "timestamp", conv, j);
	if ((rq->since >= 0 && t < rq->since) ||
	    (rq->until >= 0 && t >= rq->until))
		return 0;
	text = json_str(m, "content", &len);
	if (k->id == SIZE_MAX)
		k->id = text_add(k->r, conv, strlen(conv));
	mid = json_str(m, "id", NULL);
	search_text(s, k, t, role, mid == NULL ? NO_MSG_ID :
	    text_add(k->r, mid, strlen(mid)), text, len);
	return 0;
}

/*
 * Every conversation parsed (jansson): the way for an engine that gives no
 * bytes to look at, and with CONVCTL_SEARCH_NO_PREFILTER=1, the one the
 * tests compare the file's fast path with.
 */
static int
search_parsed(struct store *st, const struct search *s,
    const struct search_request *rq, struct collect *k, struct error *e)
{
	json_t *m;
	size_t i, j;

	if (store_load_all(st, e) < 0)
		return -1;
	for (i = 0; i < store_count(st); i++) {
		struct conv *c = store_conv(st, i);

		if (rq->tag != NULL && !conv_has_tag(c, rq->tag))
			continue;
		k->id = SIZE_MAX;
		k->conv = i;
		json_array_foreach(json_object_get(conv_json(c), "messages"),
		    j, m)
			if (search_message(s, rq, k, conv_id(c), j, m, e) < 0)
				return -1;
	}
	return 0;
}

/* a search the engine answers (store_search()): each message it sends,
 * its hits into k, in the order a scan of the store finds them (stored
 * order, then message order), which breaks ties of time */
struct sent {
	const struct search *s;
	const struct search_request *rq;
	struct collect *k;
};

static int
sent_message(void *arg, const char *conv, int64_t pos, size_t seq,
    json_t *m, struct error *e)
{
	struct sent *x = arg;
	int rc;

	x->k->id = SIZE_MAX;
	x->k->conv = (size_t)pos;
	x->k->msgno = seq;
	rc = search_message(x->s, x->rq, x->k, conv, seq, m, e);
	json_decref(m);
	if (rc < 0)
		return -1;
	return x->rq->max >= 0 && x->k->n >= (size_t)x->rq->max;
}

/* asks the engine for the messages that may match: 1 done, 0 the engine
 * cannot (scan), -1 */
static int
search_engine(struct store *st, const struct search *s,
    const struct search_request *rq, struct collect *k, struct error *e)
{
	struct store_search q = { .lit = s->lit, .litlen = s->litlen,
	    .icase = s->icase, .fold = (const char (*)[5])s->fold,
	    .nfold = s->nfold, .role = rq->role, .since = rq->since,
	    .until = rq->until, .tag = rq->tag, .tool = rq->tool,
	    .newest = rq->max >= 0 };
	struct sent x = { s, rq, k };
	int rc;

	q.fold_of = s->fold_of;
	rc = store_search(st, &q, sent_message, &x, e);
	k->msgno = 0;
	return rc;
}

/* the file engine's fast path: what a message given by the scanner needs */
struct walk {
	const struct search *s;
	const struct search_request *rq;
	struct collect *k;
	struct buf dec;		/* a string decoded */
	size_t first;		/* the conversation's first record */
};

/* t's value, decoded into w->dec (t's own bytes when it has no escape) */
static const char *
walk_decode(struct walk *w, const struct scan_str *t, size_t *len)
{
	if (!t->esc) {
		*len = t->len;
		return t->p;
	}
	w->dec.len = 0;
	buf_reserve(&w->dec, t->len + 1);
	*len = scan_unescape(t, w->dec.data);
	return w->dec.data;
}

/* scan_conv_each()'s callback: a message, checked; its matching lines */
static int
walk_message(void *arg, const struct scan_msg *m)
{
	struct walk *w = arg;
	const struct search *s = w->s;
	const struct search_request *rq = w->rq;
	const char *text;
	char role_name_[64];	/* "assistant", each letter \\uXXXX: 54 */
	enum conv_role role;
	size_t len, msg;
	json_t *tools;
	int used, q;

	{
		if (m->role.len >= sizeof(role_name_))
			return 0;	/* no role is so long: checked, cannot be */
		scan_unescape(&m->role, role_name_);
		if (role_parse(role_name_, &role) < 0 ||
		    (rq->role >= 0 && (int)role != rq->role))
			return 0;
	}
	if ((rq->since >= 0 && m->time < rq->since) ||
	    (rq->until >= 0 && m->time >= rq->until))
		return 0;
	if (rq->tool != NULL) {
		tools = m->tools != NULL ? scan_json(m->tools, m->toolslen) : NULL;
		used = tools_name(tools, rq->tool);
		json_decref(tools);
		if (!used)
			return 0;
	}
	/* the content's bytes, still escaped: none of what every match holds,
	 * nor an escape that could spell it, and no line of it can match */
	text = m->content.p;
	len = m->content.len;
	if (s->litlen > 0 && (q = quick_may_match(s, text, len)) != 1 &&
	    (q == 0 || (!has_lit(s, text, len) && !has_fold(s, text, len) &&
	    (!m->content.esc || !has_escape(s, text, len)))))
		return 0;
	if (w->k->id == SIZE_MAX)	/* the id, set when the scan ends */
		w->k->id = 0;
	msg = NO_MSG_ID;
	if (m->id.p != NULL) {
		const char *id = walk_decode(w, &m->id, &len);

		msg = text_add(w->k->r, id, strnlen(id, len));
	}
	text = walk_decode(w, &m->content, &len);
	search_text(s, w->k, m->time, role, msg, text, len);
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

/* the conversation at v[i], which may hold a match: its hits into k */
static int
search_span(struct store *st, const struct store_span *v, size_t i,
    struct walk *w, struct error *e)
{
	struct collect *k = w->k;
	struct scan_conv sc;
	size_t j;

	w->first = k->n;
	k->id = SIZE_MAX;
	k->conv = i;
	/* UTF-8 it is: the store was checked whole, or its index vouches */
	if (scan_conv_each(v[i].p, v[i].len, &sc, 1, walk_message, w) < 0)
		return store_span_refused(st, e);
	if (k->n > w->first && w->rq->tag != NULL &&
	    !store_span_tagged(&v[i], w->rq->tag))
		k->n = w->first;
	if (k->n > w->first) {
		k->id = text_add(k->r, sc.id, strlen(sc.id));
		for (j = w->first; j < k->n; j++)
			k->rec[j].id = k->id;
	}
	scan_conv_clear(&sc);
	return 0;
}

/* with -n max: only the newest max records kept, now and then; when they
 * are, the oldest one's time, else INT64_MIN */
static int64_t
keep_newest(struct collect *k, size_t max)
{
	if (k->n < max || (max > 1024 && k->n < 2 * max))
		return INT64_MIN;
	collect_sort(k);
	memmove(k->rec, k->rec + (k->n - max), max * sizeof(*k->rec));
	k->n = max;
	return max > 0 ? k->rec[0].time : INT64_MAX;
}

struct later {
	int64_t bound;
	size_t i;
	int unfiltered;		/* the prefilter has not looked at it yet */
};

static int
by_bound(const void *a, const void *b)
{
	const struct later *x = a, *y = b;

	if (x->bound != y->bound)
		return x->bound > y->bound ? -1 : 1;
	return x->i > y->i ? -1 : x->i < y->i;
}

/*
 * The file engine's way: each conversation's bytes looked at before
 * anything is decoded; those that may hold a match checked by the scanner,
 * which gives each message to walk_message(), which decodes only those that
 * may. With -n N, the conversations are searched newest first by their
 * newest message's time (the index's, else what their bytes say it can
 * be), and no further than one whose newest is older than the N newest
 * lines found: with the index, the bytes of those older are never read.
 */
static int
search_spans(struct store *st, const struct store_span *v, size_t n,
    const struct search *s, const struct search_request *rq,
    struct collect *k, struct error *e)
{
	struct walk w = { s, rq, k, { 0 }, 0 };
	struct buf tmp = { 0 };
	struct later *order = NULL;
	size_t i, m = 0, max = (size_t)rq->max;
	int64_t oldest = INT64_MIN, t;	/* of the newest max lines found */
	int rc = 0;

	if (rq->max >= 0)
		order = xmalloc((n + 1) * sizeof(*order));
	for (i = 0; i < n && rc == 0; i++) {
		if (order != NULL && v[i].newest != INT64_MAX) {
			order[m++] = (struct later){ v[i].newest, i, 1 };
			continue;	/* its bytes looked at when its turn comes */
		}
		if (s->litlen > 0 && !text_may_match(s, v[i].p, v[i].len, &tmp))
			continue;
		if (order == NULL)
			rc = search_span(st, v, i, &w, e);
		else
			order[m++] = (struct later){ newest_bound(&v[i]), i, 0 };
	}
	if (order != NULL && m > 1)
		qsort(order, m, sizeof(*order), by_bound);
	for (i = 0; order != NULL && i < m && rc == 0; i++) {
		if (max == 0 || order[i].bound < oldest)
			break;	/* none of its lines is among the newest */
		if (order[i].unfiltered && s->litlen > 0 &&
		    !text_may_match(s, v[order[i].i].p, v[order[i].i].len, &tmp))
			continue;
		rc = search_span(st, v, order[i].i, &w, e);
		if ((t = keep_newest(k, max)) > oldest)
			oldest = t;
	}
	free(order);
	buf_free(&w.dec);
	buf_free(&tmp);
	return rc;
}

int
search_run(struct store *st, const struct search *s,
    const struct search_request *rq, struct search_result *r, struct error *e)
{
	struct collect k = { r, NULL, 0, 0, 0, 0, 0, 0, 0 };
	struct store_span *v = NULL;
	size_t n;
	int rc, unchecked;

	memset(r, 0, sizeof(*r));
	/* a database finds what may match itself; a file gives its bytes */
	if ((rc = search_engine(st, s, rq, &k, e)) == 0) {
		rc = s->prefilter ? store_spans(st, &v, &n, &unchecked, e) : 0;
		if (rc > 0)
			rc = search_spans(st, v, n, s, rq, &k, e);
		else if (rc == 0)
			rc = search_parsed(st, s, rq, &k, e);
	}
	free(v);
	if (rc < 0) {
		free(k.rec);
		search_result_free(r);
		return -1;
	}
	collect_end(&k, rq);
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

/* one hit as a JSON object */
static void
add_json(struct buf *b, const struct search_hit *h)
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
