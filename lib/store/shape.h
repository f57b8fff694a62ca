/*
 * shape.h - the store's shape, declared once: the fields of the store, of a
 * conversation and of a message, what each must hold, and the checks of a
 * string's value (a time, a role). scan.c checks a file's bytes by these
 * rows on the fast path; shape.c checks a jansson tree by them and says
 * what is wrong and where. Neither files, nor locks, nor the scanner's
 * tokens are known here.
 */
#ifndef CONVCTL_SHAPE_H
#define CONVCTL_SHAPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

enum shape_type {
	SHAPE_STRING,		/* a string */
	SHAPE_TIME,		/* a string ts_parse() takes */
	SHAPE_ROLE,		/* a string role_parse() takes */
	SHAPE_STRINGS,		/* an array of strings */
	SHAPE_VERSION,		/* a whole number from 1 to STORE_VERSION */
	SHAPE_OBJECTS,		/* an array of objects of the shape in `of` */
};

enum {
	SHAPE_REQUIRED = 1,	/* missing is wrong */
	SHAPE_NULLABLE = 2,	/* null is as good as missing */
	SHAPE_NONEMPTY = 4,	/* a string, not "" */
};

struct shape;

struct shape_field {
	const char *name;
	size_t len;		/* of name */
	enum shape_type type;
	unsigned flags;		/* SHAPE_REQUIRED, ... */
	const struct shape *of;	/* SHAPE_OBJECTS: the elements' shape */
};

struct shape {
	const struct shape_field *field;
	size_t n;
};

/* the rows of each table, in the order the checks report what is wrong */
enum { TOP_VERSION, TOP_LAST_MIGRATED, TOP_CONVERSATIONS, TOP_FIELDS };
enum { CONV_ID, CONV_STARTED, CONV_ENDED, CONV_TITLE, CONV_SUMMARY,
	CONV_MESSAGES, CONV_FIELDS };
enum { MSG_ROLE, MSG_CONTENT, MSG_TIMESTAMP, MSG_ID, MSG_TOOLS, MSG_FIELDS };

extern const struct shape shape_store, shape_conv, shape_message;

/* the row of sh named by the n bytes of name, or -1: a field the store keeps
 * as it is */
static inline int
shape_field_find(const struct shape *sh, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sh->n; i++)
		if (sh->field[i].len == n && memcmp(sh->field[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

/*
 * 0: s, a string field's value as a C string, holds to f's rule: a
 * SHAPE_TIME one is a time (into *ms), a SHAPE_ROLE one a role; any other
 * string is good. -1: it does not. (Inline: the scanner calls it for every
 * message.)
 */
static inline int
shape_text(const struct shape_field *f, const char *s, int64_t *ms)
{
	enum conv_role r;

	if (f->type == SHAPE_TIME)
		return ts_parse(s, ms);
	if (f->type == SHAPE_ROLE)
		return role_parse(s, &r);
	return 0;
}

/*
 * Checks v against sh, and each element of its SHAPE_OBJECTS fields against
 * theirs when deep; -1 with the JSON path of what is wrong in e. where is
 * v's path, NULL for the store's top.
 */
int shape_check(const struct shape *sh, json_t *v, const char *where, int deep,
    struct error *);

#endif
