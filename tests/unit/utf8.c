/*
 * utf8.c - utf8_invalid_at, utf8_count and tokens_estimate: strict UTF-8 as
 * RFC 3629 has it, the same rules jansson applies when it reads the store.
 * utf8_invalid_at's block paths are checked against lib/base/utf8.h's rule walked
 * a character at a time, on every alignment in a 16-byte block.
 */
#include <stdint.h>
#include <stdlib.h>

#include "convctl.h"
#include "tap.h"
#include "utf8-walk.h"

#define AT(s, want, name) is_int(utf8_invalid_at((s), sizeof(s) - 1), (want), (name))

/* bytes at the edges of the rule's ranges */
static const unsigned char edge[] = { 0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90,
	0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed,
	0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff };
#define NEDGE (sizeof(edge) / sizeof(edge[0]))

/* 1 when utf8_invalid_at agrees with the rule on s[0..len); the first
 * disagreement is printed */
static int
agrees(const char *s, size_t len, int *said)
{
	long got = utf8_invalid_at(s, len), want = utf8_walk(s, len);
	size_t i;

	if (got == want)
		return 1;
	if (!(*said)++) {
		printf("#   got %ld, want %ld for", got, want);
		for (i = 0; i < len; i++)
			printf(" %02x", (unsigned char)s[i]);
		printf("\n");
	}
	return 0;
}

/* every sequence of up to three edge bytes, then a fourth byte of each
 * kind, at each offset of a block, in valid text of each kind */
static void
every_short_sequence(void)
{
	static const char *const fill[] = { "abcdefghijklmnopqrstuvwxyz0123456789"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ!?", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" };
	char b[64];
	size_t f, a, i, j, k, l, len, n = 0, bad = 0;
	int said = 0;

	for (f = 0; f < 2; f++)
		for (a = 0; a < 18; a++)
			for (i = 0; i < NEDGE; i++)
				for (j = 0; j <= NEDGE; j++)
					for (k = 0; k <= NEDGE; k++)
						for (l = 0; l < 4; l++) {
		/* prefix a bytes of fill cut at a character, the edge bytes,
		 * a fourth (none, ASCII, continuation, lead) and fill again */
		static const unsigned char fourth[] = { 0, 'x', 0x80, 0xe0 };

		len = a - (f == 1 && a % 2 == 1);
		memcpy(b, fill[f], len);
		b[len++] = (char)edge[i];
		if (j < NEDGE)
			b[len++] = (char)edge[j];
		if (j < NEDGE && k < NEDGE)
			b[len++] = (char)edge[k];
		if (l > 0)
			b[len++] = (char)fourth[l];
		memcpy(b + len, fill[f], 20);
		n++;
		bad += !agrees(b, len + 20 * (a % 3 != 2), &said);
	}
	printf("# %zu texts\n", n);
	ok(bad == 0, "every edge sequence, at every offset in a block, as the "
	    "rule says");
}

/* valid mixed text with one byte changed at each place */
static void
one_byte_changed(void)
{
	static const char text[] = "Streamed: caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c"
	    "\xac\xe8\xaa\x9e \xf0\x9f\x99\x82 \"quoted\" \\ end\n";
	char b[4 * sizeof(text)];
	size_t len = 0, i, e, bad = 0;
	int said = 0;

	while (len + sizeof(text) - 1 <= sizeof(b)) {
		memcpy(b + len, text, sizeof(text) - 1);
		len += sizeof(text) - 1;
	}
	ok(utf8_invalid_at(b, len) == -1, "the mixed text is valid");
	for (i = 0; i < len; i++) {
		char keep = b[i];

		for (e = 0; e < NEDGE; e++) {
			b[i] = (char)edge[e];
			bad += !agrees(b, len, &said);
			bad += !agrees(b, i + 1, &said);
		}
		b[i] = keep;
	}
	ok(bad == 0, "one byte changed anywhere in mixed text: the same "
	    "offset as the rule");
}

/* random texts of edge bytes and whole characters */
static void
random_texts(void)
{
	static const char *const piece[] = { "a", "\xc3\xa9", "\xe6\x97\xa5",
	    "\xf0\x9f\x99\x82", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf" };
	uint64_t x = 42;
	char b[96];
	size_t round, len, bad = 0;
	int said = 0;

	for (round = 0; round < 300000; round++) {
		size_t want = (size_t)(x >> 33) % 80;

		for (len = 0; len < want;) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			if ((x >> 60) == 0)	/* one in 16: an edge byte */
				b[len++] = (char)edge[(x >> 40) % NEDGE];
			else {
				const char *p = piece[(x >> 40) % 6];
				size_t n = strlen(p);

				memcpy(b + len, p, n);
				len += n;
			}
		}
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		bad += !agrees(b, len, &said);
	}
	ok(bad == 0, "300000 random texts: the same offset as the rule");
}

int
main(void)
{
	AT("", -1, "the empty string is valid");
	AT("plain ascii", -1, "ASCII is valid");
	AT("a\0b", -1, "a NUL byte is valid");
	AT("caf\xc3\xa9", -1, "two-byte sequences are valid");
	AT("\xe6\xbc\xa2\xe5\xad\x97", -1, "three-byte CJK is valid");
	AT("\xf0\x9f\x98\x80", -1, "a four-byte emoji is valid");
	AT("\xf4\x8f\xbf\xbf", -1, "U+10FFFF is valid");
	AT("\xef\xbf\xbf", -1, "U+FFFF is valid");
	AT("\xee\x80\x80", -1, "U+E000, just past the surrogates, is valid");
	AT("\xed\x9f\xbf", -1, "U+D7FF, just before the surrogates, is valid");

	AT("caf\xe9 au lait", 3, "a Latin-1 byte is named by its offset");
	AT("\x80", 0, "a lone continuation byte");
	AT("ab\xbf", 2, "a continuation byte after ASCII");
	AT("\xc0\x80", 0, "overlong NUL (C0 80)");
	AT("\xc1\xbf", 0, "overlong two-byte form (C1)");
	AT("x\xe0\x80\xaf", 1, "overlong three-byte form");
	AT("x\xf0\x8f\xbf\xbf", 1, "overlong four-byte form");
	AT("ok \xed\xa0\x80", 3, "a high surrogate (U+D800)");
	AT("ok \xed\xbf\xbf", 3, "a low surrogate (U+DFFF)");
	AT("\xf4\x90\x80\x80", 0, "above U+10FFFF");
	AT("\xf5\x80\x80\x80", 0, "F5 never starts a sequence");
	AT("\xff", 0, "FF never appears");
	AT("\xfe", 0, "FE never appears");
	AT("ab\xe6\xbc", 2, "a sequence cut short by the end");
	AT("ab\xe6\xbcx", 2, "a sequence cut short by ASCII");
	AT("\xf0\x9f\x98", 0, "a four-byte sequence missing its last byte");
	AT("\xe6\xbc\xa2\xe5\xad\x97\xff", 6, "the offset counts bytes, not characters");
	AT("\xf0\x9f\x98\x80\xc3", 4, "a lead byte at the very end");
	is_int(utf8_invalid_at("\xc3\xa9", 1), 0,
	    "only len bytes are looked at: a sequence cut by len");

	is_int(utf8_count("", 0), 0, "no code points in nothing");
	is_int(utf8_count("abc", 3), 3, "ASCII counts bytes");
	is_int(utf8_count("\xe6\xbc\xa2\xe5\xad\x97", 6), 2, "CJK counts characters");
	is_int(utf8_count("\xf0\x9f\x98\x80!", 5), 2, "an emoji is one");
	is_int(utf8_count("a\0b", 3), 3, "a NUL byte is one");

	/* a token for every 4 code points, rounded up */
	is_int(tokens_estimate("", 0), 0, "nothing costs no tokens");
	is_int(tokens_estimate("a", 1), 1, "1 code point is 1 token");
	is_int(tokens_estimate("abcd", 4), 1, "4 code points are 1 token");
	is_int(tokens_estimate("abcde", 5), 2, "5 code points are 2 tokens");
	is_int(tokens_estimate("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97"
	    "\xe6\xbc\xa2", 15), 2, "5 CJK characters are 2 tokens, not 4");

	every_short_sequence();
	one_byte_changed();
	random_texts();
	return done();
}
