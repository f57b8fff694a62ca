/*
 * utf8.h - one UTF-8 sequence checked as RFC 3629 and jansson say (no
 * overlong forms, no surrogates, nothing above U+10FFFF): the one rule that
 * utf8_invalid_at() (utf8.c), which the scanner checks a store with, applies;
 * and a character written in UTF-8.
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

/* the character cp in UTF-8, into out[5], NUL-terminated */
static inline void
utf8_put(char out[5], unsigned long cp)
{
	unsigned char *o = (unsigned char *)out;

	o[0] = o[1] = o[2] = o[3] = o[4] = 0;
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

#endif
