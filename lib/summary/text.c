/*
 * text.c - the text helpers the summarizers share (model.c, offline.c,
 * summary.c): below them all, knowing no job and no summarizer.
 */
#include <ctype.h>
#include <string.h>

#include "summary.h"

/* s[0..len) on one line: control characters (NUL too) and runs of white
 * space become one space; no space at either end */
void
summary_flatten(struct buf *out, const char *s, size_t len)
{
	size_t i;
	int space = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c == 0x7f) {
			space = 1;
			continue;
		}
		if (space && out->len > 0 && out->data[out->len - 1] != ' ')
			buf_addc(out, ' ');
		space = 0;
		buf_addc(out, (char)c);
	}
}

/* byte offset of code point n of s, or len */
size_t
summary_cp_offset(const char *s, size_t len, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n-- == 0)
			return i;
	return len;
}

/* cuts b to at most max code points, on a word boundary when one is near,
 * and marks the cut with an ellipsis */
void
summary_shorten(struct buf *b, size_t max)
{
	size_t at, sp;

	if (utf8_count(b->data, b->len) <= max)
		return;
	at = summary_cp_offset(b->data, b->len, max - 1);
	for (sp = at; sp > at / 2 && b->data[sp] != ' '; sp--)
		;
	if (sp > at / 2)
		at = sp;
	while (at > 0 && strchr(" ,;:", b->data[at - 1]) != NULL)
		at--;
	b->len = at;
	b->data[at] = '\0';
	buf_adds(b, "\xe2\x80\xa6");	/* … */
}

/* 1: s is empty or white space only */
int
summary_blank(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}
