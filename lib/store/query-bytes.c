/*
 * query-bytes.c - a query's text (struct query's lit and fold) looked for
 * in bytes, before anything is decoded: in a conversation's JSON text, a
 * string's body still escaped, or a line. Whatever spells lit (itself, in
 * either ASCII case when case is ignored; a character beyond ASCII that
 * the matcher takes for one of its letters; a JSON escape that may stand
 * for one of its bytes) is looked for here, and only here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/plain.h"	/* HAVE_SSE2_PATH */
#include "../base/utf8.h"
#include "query.h"

static unsigned char
ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* x[0..s->litlen) is s->lit, in ASCII case or not as s says */
static int
lit_at(const struct query *s, const char *x)
{
	size_t i;

	if (!s->icase)
		return memcmp(x, s->lit, s->litlen) == 0;
	for (i = 0; i < s->litlen; i++)
		if (ascii_lower((unsigned char)x[i]) != (unsigned char)s->lit[i])
			return 0;
	return 1;
}

/* query_find_lit() one place at a time, by the anchor byte */
static const char *
find_lit_memchr(const struct query *s, const char *p, size_t n)
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
lit_ends_make(const struct query *s, struct lit_ends *e)
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

const char *
query_find_lit(const struct query *s, const char *p, size_t n)
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
has_lit(const struct query *s, const char *p, size_t n)
{
	return query_find_lit(s, p, n) != NULL;
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
int
query_has_fold(const struct query *s, const char *p, size_t n)
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
has_escape(const struct query *s, const char *p, size_t n)
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
quick_may_match(const struct query *s, const char *p, size_t n)
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
	return query_has_fold(s, p, n) || has_escape(s, p, n) ? -1 : 0;
#else
	(void)s;
	(void)p;
	(void)n;
	return -1;
#endif
}

int
query_json_may_hold(const struct query *s, const char *p, size_t n,
    struct buf *tmp)
{
	int q;

	if (s->litlen == 0)
		return 1;
	if ((q = quick_may_match(s, p, n)) >= 0)
		return q;
	if (has_lit(s, p, n) || query_has_fold(s, p, n))
		return 1;
	/* an escape may spell what the bytes do not: \u0061 is an a */
	if (!has_escape(s, p, n))
		return 0;
	unescape(tmp, p, n);
	return has_lit(s, tmp->data, tmp->len) ||
	    query_has_fold(s, tmp->data, tmp->len);
}


int
query_str_may_hold(const struct query *s, const char *p, size_t n, int esc)
{
	int q;

	if (s->litlen == 0 || (q = quick_may_match(s, p, n)) == 1)
		return 1;
	return q != 0 && (has_lit(s, p, n) || query_has_fold(s, p, n) ||
	    (esc && has_escape(s, p, n)));
}
