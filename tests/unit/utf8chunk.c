/*
 * utf8chunk.c - convctl run's UTF-8 check a chunk at a time (utf8_chunk) says
 * what utf8_invalid_at says of the whole text, wherever the chunks are cut.
 */
#include <stdio.h>
#include <string.h>

#include "convctl.h"
#include "tap.h"

/* texts with characters of 1 to 4 bytes, and ones cut short, overlong,
 * surrogates, stray continuations and bytes never UTF-8 */
static const char *const texts[] = {
	"a\303\251\346\227\245\360\237\231\202z",
	"\346\227\245\346\234\254\350\252\236",
	"ab\346\227",
	"ab\346\227x\346\227\245",
	"\360\237\231",
	"x\200y",
	"\300\257",
	"\355\240\200",
	"ok \377",
	"\364\220\200\200",
	"\303\251\303",
	"",
};

/* the text fed in chunks cut at c1 and c2 (c1 <= c2 <= n) */
static long
chunked(const char *s, size_t n, size_t c1, size_t c2)
{
	char scratch[UTF8_CARRY + 32], *p = scratch + UTF8_CARRY;
	struct utf8_chunks u = { 0, 0, -1 };
	size_t cuts[3] = { c1, c2, n }, from = 0, i;

	for (i = 0; i < 3; from = cuts[i++]) {
		memcpy(p, s + from, cuts[i] - from);
		utf8_chunk(&u, p, cuts[i] - from, 0);
	}
	utf8_chunk(&u, p, 0, 1);
	return u.bad;
}

int
main(void)
{
	size_t t, n, c1, c2, tried = 0, bad = 0;
	long want, got;

	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		n = strlen(texts[t]);
		want = utf8_invalid_at(texts[t], n);
		for (c1 = 0; c1 <= n; c1++)
			for (c2 = c1; c2 <= n; c2++, tried++)
				if ((got = chunked(texts[t], n, c1, c2)) != want &&
				    !bad++)
					printf("#   text %zu cut at %zu and %zu: "
					    "%ld, utf8_invalid_at says %ld\n", t,
					    c1, c2, got, want);
	}
	printf("# %zu texts and cuts\n", tried);
	ok(bad == 0, "checked in chunks, the first bad byte is the whole "
	    "text's, wherever it is cut");
	ok(chunked("ab\346\227", 4, 4, 4) == 2,
	    "a character cut short at the very end is bad at its first byte");
	return done();
}
