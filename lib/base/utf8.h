/*
 * utf8.h - one UTF-8 sequence checked as RFC 3629 and jansson say (no
 * overlong forms, no surrogates, nothing above U+10FFFF): the one rule that
 * utf8_invalid_at() (utf8.c), which the scanner checks a store with, applies.
 */
#ifndef CONVCTL_UTF8_H
#define CONVCTL_UTF8_H

#include <stddef.h>

/* length of the valid UTF-8 sequence at p (p[0] >= 0x80), or 0 */
static inline size_t
utf8_seq(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0];
	unsigned long cp;
	size_t n, k;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (k = 1; k < n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[k] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

#endif
