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
