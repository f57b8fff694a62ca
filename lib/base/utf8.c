/*
 * utf8.c - whole texts checked by lib/base/utf8.h's one rule: 16 bytes at a time
 * without a branch a character (SSSE3, when the CPU has it), and the first
 * bad byte's offset found by the rule itself, ASCII skipped 16 bytes at once.
 */
#include <string.h>
/* SCAN_SCALAR (as in plain.h) builds the plain C paths only, to test them */
#if defined(__SSE2__) && !defined(SCAN_SCALAR)
#include <emmintrin.h>
#define HAVE_SSE2_PATH 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SCAN_SCALAR)
#include <tmmintrin.h>
#define HAVE_SSSE3_PATH 1
#endif

#include "base.h"
#include "utf8.h"

/* the offset of the first byte utf8_seq() refuses, or -1 */
static long
first_bad(const unsigned char *s, const unsigned char *end)
{
	const unsigned char *p = s;
	size_t n;
#ifdef HAVE_SSE2_PATH
	unsigned m;

	for (;;) {
		while (end - p >= 16) {
			m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128(
			    (const __m128i *)(const void *)p));
			if (m != 0) {
				p += __builtin_ctz(m);
				break;
			}
			p += 16;
		}
		if (end - p < 16)
			break;
		/* text in another script: its characters come in runs */
		do {
			if ((n = utf8_seq(p, end)) == 0)
				return (long)(p - s);
			p += n;
		} while (p < end && *p >= 0x80);
	}
#endif
	while (p < end) {
		if (*p < 0x80) {
			p++;
			continue;
		}
		if ((n = utf8_seq(p, end)) == 0)
			return (long)(p - s);
		p += n;
	}
	return -1;
}

#ifdef HAVE_SSSE3_PATH
/*
 * The lookup method of Keiser and Lemire, "Validating UTF-8 in less than one
 * instruction per byte" (2021). Each byte's high nibble, its predecessor's
 * high and low nibbles index three tables of the errors each could be part
 * of; an error shows as a bit set in all three. Whether a byte must be the
 * third or fourth of a sequence comes from the bytes two and three before.
 */
enum {
	TOO_SHORT = 1, TOO_LONG = 2, OVERLONG_3 = 4, TOO_LARGE = 8,
	SURROGATE = 16, OVERLONG_2 = 32, TOO_LARGE_1000 = 64, OVERLONG_4 = 64,
	TWO_CONTS = 128, CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS
};

__attribute__((target("ssse3"))) static __m128i
utf8_block(__m128i in, __m128i prev)
{
	const __m128i nib = _mm_set1_epi8(0x0f);
	const __m128i t1h = _mm_setr_epi8(TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
	    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, (char)TWO_CONTS,
	    (char)TWO_CONTS, (char)TWO_CONTS, (char)TWO_CONTS,
	    TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
	    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
	const __m128i t1l = _mm_setr_epi8(
	    (char)(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4),
	    (char)(CARRY | OVERLONG_2), (char)CARRY, (char)CARRY,
	    (char)(CARRY | TOO_LARGE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
	    (char)(CARRY | TOO_LARGE | TOO_LARGE_1000));
	const __m128i t2h = _mm_setr_epi8(TOO_SHORT, TOO_SHORT, TOO_SHORT,
	    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
	    (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 |
	    TOO_LARGE_1000 | OVERLONG_4),
	    (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE),
	    (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE),
	    (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE),
	    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);
	__m128i p1 = _mm_alignr_epi8(in, prev, 15);
	__m128i p2 = _mm_alignr_epi8(in, prev, 14);
	__m128i p3 = _mm_alignr_epi8(in, prev, 13);
	__m128i sc, must23;

	sc = _mm_and_si128(_mm_and_si128(
	    _mm_shuffle_epi8(t1h, _mm_and_si128(_mm_srli_epi16(p1, 4), nib)),
	    _mm_shuffle_epi8(t1l, _mm_and_si128(p1, nib))),
	    _mm_shuffle_epi8(t2h, _mm_and_si128(_mm_srli_epi16(in, 4), nib)));
	must23 = _mm_or_si128(_mm_subs_epu8(p2, _mm_set1_epi8(0xe0 - 0x80)),
	    _mm_subs_epu8(p3, _mm_set1_epi8(0xf0 - 0x80)));
	return _mm_xor_si128(_mm_and_si128(must23, _mm_set1_epi8((char)0x80)), sc);
}

/* 0 when all of [p, end) is valid, else -1 */
__attribute__((target("ssse3"))) static int
valid_ssse3(const unsigned char *p, const unsigned char *end)
{
	__m128i in, prev = _mm_setzero_si128(), err = _mm_setzero_si128();
	unsigned char last[16];

	/* no branch on the data: text mixing scripts would mispredict it */
	for (; end - p >= 16; p += 16) {
		in = _mm_loadu_si128((const __m128i *)(const void *)p);
		err = _mm_or_si128(err, utf8_block(in, prev));
		prev = in;
	}
	/* the tail, then zeros: ASCII, so a sequence cut short shows */
	memset(last, 0, sizeof(last));
	memcpy(last, p, (size_t)(end - p));
	in = _mm_loadu_si128((const __m128i *)(const void *)last);
	err = _mm_or_si128(err, utf8_block(in, prev));
	if (end - p > 13) {
		prev = in;
		err = _mm_or_si128(err, utf8_block(_mm_setzero_si128(), prev));
	}
	return _mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) ==
	    0xffff ? 0 : -1;
}
#endif

/*
 * Strict UTF-8 as RFC 3629 defines it, the same rules jansson applies:
 * no overlong forms, no surrogates, nothing above U+10FFFF. Valid text, the
 * common case, is checked by blocks; only bad text is walked a character at
 * a time, to say where.
 */
long
utf8_invalid_at(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;

	if (len == 0)
		return -1;
#ifdef HAVE_SSSE3_PATH
	if (__builtin_cpu_supports("ssse3") && valid_ssse3(s, s + len) == 0)
		return -1;
#endif
	return first_bad(s, s + len);
}
