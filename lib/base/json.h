/*
 * json.h - the one JSON writer (json.c) and the jansson helpers every module
 * that reads or writes JSON shares: numbers kept as their text, deep copies
 * and comparisons that keep keys holding NUL bytes, where a parse error is.
 */
#ifndef CONVCTL_JSON_H
#define CONVCTL_JSON_H

#include <jansson.h>

#include "base.h"

/* json.c: the one JSON writer: compact, UTF-8, keys in their order, a
 * number text as the number it was */
void json_dump_buf(struct buf *, const json_t *);
/* s[0..len) as the inside of a JSON string (no quotes) appended to b, as
 * json_dump_buf() writes it; a text escaped in parts comes out the same */
void json_escape(struct buf *, const char *s, size_t len);
/* json_dump_buf(), but each of the strings want[0..n) (those very values;
 * NULL: none) that v holds written as "": at[] says, in the order they are
 * written, which one (its index in want) and its offset in b between the
 * quotes; returns how many were met */
struct json_hole {
	size_t which, at;
};
size_t json_dump_holes(struct buf *, const json_t *v,
    const json_t *const *want, size_t n, struct json_hole *at);
/* a deep copy of v; jansson's json_deep_copy() and json_copy() cut a key
 * at a NUL byte, which a store's keys may hold */
json_t *json_clone(const json_t *v);
/* a and b are the same JSON text: number texts, key order and keys with a
 * NUL count (jansson's json_equal() takes keys as C strings) */
int json_same(const json_t *a, const json_t *b);
/* a number as the text it was written with (see json.c) */
json_t *json_number_text(const char *text, size_t len);
/* v's number text and its length when v is one, else NULL */
const char *json_number_text_of(const json_t *v, size_t *len);
/* v is a string, not a number text */
int json_is_text(const json_t *v);
/* v's text when v is a string (not a number text) without a NUL byte, else
 * NULL: a name or a word to compare whole, which a C string comparison
 * would cut at the NUL */
const char *json_name(const json_t *v);
/* where jansson's error je in text[0..len) is: the 1-based line and byte
 * column of the offending byte (past the last one at the end of the file) */
void json_error_place(const char *text, size_t len, const json_error_t *je,
    int *line, int *column);

#endif
