/*
 * plain.h - the bytes a JSON string holds as they are, neither escaped nor
 * ending it: what the lexer (lex.c) reads past and the writer (json.c)
 * copies, found 32 bytes at a time.
 */
#ifndef CONVCTL_PLAIN_H
#define CONVCTL_PLAIN_H

/* SCAN_SCALAR builds the plain C paths only, to test them on x86 */
#if defined(__SSE2__) && !defined(SCAN_SCALAR)
#include <emmintrin.h>
#define HAVE_SSE2_PATH 1
#endif

/* bytes a string may hold as they are (UTF-8 is checked beforehand) */
static inline int
plain(unsigned c)
{
	return c >= 0x20 && c != '"' && c != '\\';
}

/* the first byte at or after p that is not plain, or end */
static inline const unsigned char *
skip_plain(const unsigned char *p, const unsigned char *end)
{
#ifdef HAVE_SSE2_PATH
	const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);
	__m128i v, w;
	unsigned m;

	/* a byte below 0x20 is its own unsigned minimum with 0x1f */
#define SPECIAL(v) _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8((v), quote),	\
	_mm_cmpeq_epi8((v), bs)), _mm_cmpeq_epi8(_mm_min_epu8((v), ctl), (v)))
	while (end - p >= 32) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		w = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
		m = (unsigned)_mm_movemask_epi8(SPECIAL(v)) |
		    (unsigned)_mm_movemask_epi8(SPECIAL(w)) << 16;
		if (m != 0)
			return p + __builtin_ctz(m);
		p += 32;
	}
	if (end - p >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		m = (unsigned)_mm_movemask_epi8(SPECIAL(v));
		if (m != 0)
			return p + __builtin_ctz(m);
		p += 16;
	}
#undef SPECIAL
#endif
	while (p < end && plain(*p))
		p++;
	return p;
}

#endif
