/*
 * names.c - an enum's names read and written through its one table
 * (formats, summarizers, setting sources, ...); knows no enum itself.
 */
#include <string.h>

#include "base.h"

int
enum_parse(const struct name_table *t, const char *name, int *value)
{
	for (; t->name != NULL; t++)
		if (strcmp(t->name, name) == 0) {
			*value = t->value;
			return 0;
		}
	return -1;
}

const char *
enum_name(const struct name_table *t, int value)
{
	for (; t->name != NULL; t++)
		if (t->value == value)
			return t->name;
	return "?";
}

void
enum_list(struct buf *b, const struct name_table *t)
{
	const struct name_table *p;

	for (p = t; p->name != NULL; p++)
		buf_addf(b, "%s%s", p == t ? "" : p[1].name == NULL ? " or " :
		    ", ", p->name);
}

/*
 * The distance between a and b in edits of one byte (insert, delete,
 * replace, or swap two that are side by side), as git's help.c counts a
 * typo; capped at SUGGEST_FAR, past which nothing is close.
 */
#define SUGGEST_FAR 64
static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	size_t row[3][SUGGEST_FAR + 1];	/* rows i-2, i-1 and i */

	if (la > SUGGEST_FAR || lb > SUGGEST_FAR)
		return SUGGEST_FAR;
	for (j = 0; j <= lb; j++)
		row[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *prev2 = row[(i + 1) % 3], *prev = row[(i - 1) % 3],
		    *cur = row[i % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			d = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return row[la % 3][lb];
}

void
suggest_start(struct suggest *s, const char *word)
{
	size_t len = strlen(word);

	s->word = word;
	s->best = NULL;
	/* a third of the word may be wrong, one edit at least: "ad" is
	 * "add", but "x" is not "end" */
	s->dist = len / 3 > 0 ? len / 3 + 1 : 2;
}

void
suggest_try(struct suggest *s, const char *candidate)
{
	size_t d;

	if (candidate == NULL || *candidate == '\0')
		return;
	if ((d = edit_distance(s->word, candidate)) < s->dist) {
		s->dist = d;
		s->best = candidate;
	}
}
