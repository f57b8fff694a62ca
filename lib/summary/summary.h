/*
 * summary.h - what the summary-*.c files share and nothing else sees: the
 * job (a deep copy of one conversation) and the text helpers.
 */
#ifndef CONVCTL_SUMMARY_H
#define CONVCTL_SUMMARY_H

#include "../internal.h"

#define TITLE_MAX 100		/* code points kept of any title */

struct summary_job {
	char *id;
	json_t *conv;		/* a deep copy */
	int keep_title;		/* its title was set by hand: stored as it is */
};

/* text.c: s[0..len) on one line: control characters (NUL too) and runs of white
 * space become one space; no space at either end */
void summary_flatten(struct buf *out, const char *s, size_t len);
/* byte offset of code point n of s, or len */
size_t summary_cp_offset(const char *s, size_t len, size_t n);
/* cuts b to at most max code points, on a word boundary when one is near,
 * and marks the cut with an ellipsis */
void summary_shorten(struct buf *, size_t max);
/* 1: s is empty or white space only */
int summary_blank(const char *s);

#endif
