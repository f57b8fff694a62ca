/*
 * lex.h - the JSON lexer (lex.c): JSON's tokens read in place, by jansson
 * 2.14's rules with JSON_LOAD_FLAGS but two (see lex.c), and a value built
 * by them (lex_json()). It knows no store: lib/store/scan.c walks a store's
 * file with it, checking the store's shape as it goes.
 */
#ifndef CONVCTL_LEX_H
#define CONVCTL_LEX_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define LEX_MAX_DEPTH 2048	/* jansson's JSON_PARSER_MAX_DEPTH */

struct lex_str {		/* a string token */
	const unsigned char *p;	/* the body, between the quotes, still escaped */
	size_t len;
	int esc;		/* has a backslash */
	int nul;		/* decodes to a NUL byte somewhere */
};

struct lex {
	const unsigned char *base, *p, *end;
	int canon;		/* what was read since it was set is canonical:
				 * what json_dump_buf() writes */
	struct lex_str *keys;	/* the keys of the objects open now */
	size_t nkeys, capkeys;
};

/* l set to read p[0..len); lex_free() when done */
void lex_init(struct lex *l, const char *p, size_t len);
void lex_free(struct lex *l);
/* 0: all of l's bytes are UTF-8 (the string loop does not check again) */
int lex_utf8_check(const struct lex *l);

/* l->p at the opening quote; on success just past the closing one */
int lex_string(struct lex *l, struct lex_str *t);
/* the value of a string lex_string() accepted, NUL-terminated, into out,
 * which has room for t->len + 1 bytes (a value is never longer than its
 * text); its length (it may hold NUL bytes) */
size_t lex_decode_into(const struct lex_str *t, char *out);
/* the same, malloc'd */
char *lex_decode(const struct lex_str *t);
/* a number: any RFC 8259 allows; *iv (when iv is not NULL) its value, and
 * -1 when it is no whole number that fits int64_t */
int lex_number(struct lex *l, int64_t *iv);
/* the word (true, false, null) of n bytes */
int lex_literal(struct lex *l, const char *word, size_t n);
/* any value, at depth (the outermost is 1), read past */
int lex_value(struct lex *l, int depth);
/* a key of the object whose keys start at mark (l->nkeys when the object
 * began), not given before in it; then the ':' after it */
int lex_key(struct lex *l, size_t mark, struct lex_str *k);
/* the end of the object whose keys start at mark: its keys let go of, -1
 * when a long one (checked here, sorted) gave one twice */
int lex_end_keys(struct lex *l, size_t mark);

/*
 * The JSON value p[0..len) holds (whitespace around it allowed), built by
 * lex.c's rules: keys and strings may hold NUL, an integer that fits
 * int64_t is an integer, any other number is kept as its text
 * (json_number_text()). NULL when it is not JSON by those rules.
 */
json_t *lex_json(const char *p, size_t len);

/* past the whitespace at l->p */
static inline void
lex_ws(struct lex *l)
{
	const unsigned char *p = l->p;

	while (p < l->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	if (p != l->p)
		l->canon = 0;
	l->p = p;
}

/* the next byte is c */
static inline int
lex_at(const struct lex *l, int c)
{
	return l->p < l->end && *l->p == c;
}

/* after a member's value or an element, in an object or an array that
 * close ends: 1 at ',' (and past it), 0 at close (past it), -1 */
static inline int
lex_next_item(struct lex *l, char close)
{
	lex_ws(l);
	if (lex_at(l, ',')) {
		l->p++;
		lex_ws(l);
		return 1;
	}
	if (lex_at(l, close)) {
		l->p++;
		return 0;
	}
	return -1;
}
#define lex_next_member(l) lex_next_item((l), '}')
#define lex_next_element(l) lex_next_item((l), ']')

/* 1 past '[' with an element to read, 0 past an empty array's ']', -1 */
static inline int
lex_first_element(struct lex *l)
{
	if (!lex_at(l, '['))
		return -1;
	l->p++;
	lex_ws(l);
	if (lex_at(l, ']')) {
		l->p++;
		return 0;
	}
	return 1;
}

/*
 * Loops over the members of an object, l->p at its first key: each pass has
 * read key k and the ':' after it; the body reads the value and then calls
 * lex_next_member(). The keys seen from mark on are the object's, for the
 * duplicate check; the caller calls lex_end_keys(l, mark) after the loop.
 */
#define LEX_EACH_MEMBER(l, mark, k)					\
	for (mark = (l)->nkeys; lex_key((l), mark, &(k)) == 0;)

/*
 * Loops over the elements of an array, l->p at its '[': the body reads one
 * element, returning -1 when it is not what the caller allows. After the
 * loop, more is 0 when the array ended well (l->p past its ']'), -1 if not.
 */
#define LEX_EACH_ELEMENT(l, more)					\
	for (more = lex_first_element(l); more > 0; more = lex_next_element(l))

#endif
