/*
 * match.h - what lib/search's files share: a search compiled (compile.c)
 * and matched (match.c). Theirs alone.
 */
#ifndef CONVCTL_SEARCH_MATCH_H
#define CONVCTL_SEARCH_MATCH_H

#include <regex.h>
#include <stdint.h>
#include <wctype.h>

#include "../base/utf8.h"
#include "../store/query.h"
#include "search.h"

struct search {
	/* the description every executor takes: the text every match holds
	 * (the prefilter), the filters set by each search_run() */
	struct query q;
	regex_t re;
	int compiled;
	int literal;		/* the query is q.lit, ASCII text, whole */
	/* a plain query, matched by find_plain(), not compiled: regcomp()'s
	 * tree costs some 200 bytes a byte of the query */
	int plain;
	uint32_t *wq;		/* its characters, towupper()'d when icase */
	size_t *kmp;		/* wq's prefix function */
	size_t wm;		/* how many */
};

/* the character at *pp, which it passes; a byte that starts no valid
 * UTF-8 sequence is a value no character has, passed alone */
static inline uint32_t
char_next(const unsigned char **pp, const unsigned char *end)
{
	const unsigned char *p = *pp;
	uint32_t cp;
	size_t n, i;

	if (*p < 0x80 || (n = utf8_seq(p, end)) == 0) {
		*pp = p + 1;
		return *p < 0x80 ? *p : 0x110000u + *p;
	}
	cp = *p & (0xffu >> (n + 1));
	for (i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	*pp = p + n;
	return cp;
}

/* c as the matcher compares it: towupper()'d when case is ignored */
static inline uint32_t
char_key(uint32_t c, int icase)
{
	return icase && c < 0x110000u ? (uint32_t)towupper((wint_t)c) : c;
}

#endif
