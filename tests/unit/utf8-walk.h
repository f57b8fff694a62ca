/*
 * utf8-walk.h - lib/base/utf8.h's rule walked one character at a time, nothing
 * skipped: the oracle utf8_invalid_at()'s fast paths are checked against, by
 * tests/unit/utf8.c and fuzz/fuzz_utf8.c.
 */
#ifndef CONVCTL_UTF8_WALK_H
#define CONVCTL_UTF8_WALK_H

#include "../../lib/base/utf8.h"

/* the offset of the first byte the rule refuses in s[0..len), or -1 */
static inline long
utf8_walk(const void *str, size_t len)
{
	const unsigned char *s = str;
	size_t i = 0, n;

	while (i < len) {
		if (s[i] < 0x80)
			n = 1;
		else if ((n = utf8_seq(s + i, s + len)) == 0)
			return (long)i;
		i += n;
	}
	return -1;
}

#endif
