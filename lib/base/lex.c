/*
 * lex.c - JSON's tokens read in place, without building anything, and a
 * value built by the same rules when one is asked for (lex_json()).
 *
 * The rules are jansson 2.14's with JSON_LOAD_FLAGS, but two, where jansson
 * refuses valid JSON:
 *   - RFC 8259 syntax, whitespace only space, tab, newline and carriage
 *     return;
 *   - strict UTF-8 everywhere: no overlong forms, no surrogates, nothing
 *     past U+10FFFF;
 *   - escapes \" \\ \/ \b \f \n \r \t \uXXXX; a high surrogate escape only
 *     when a low one follows, no lone low one; \u0000 in a value and, unlike
 *     jansson, in a key;
 *   - any number RFC 8259 allows, unlike jansson (which refuses an integer
 *     past int64_t and a real past the double's range): a number is kept as
 *     the text it was written with (see json.c), so 1e400 and 0.1 stay so;
 *   - a value nested at most 2048 deep (scalars count);
 *   - no key twice in an object (JSON_REJECT_DUPLICATES);
 *   - and a quirk: one NUL byte right after a number, true, false or null is
 *     skipped (jansson's reader loses the byte it puts back when it is NUL).
 * lex_json() builds a value by these rules: jansson's json_loadb() would
 * refuse the two kinds and turn numbers into doubles. As it reads, the lexer
 * notes whether the bytes are what the one writer, json_dump_buf(), writes
 * (l->canon). lib/store/scan.c reads a store's file with it;
 * fuzz/fuzz_scan.c checks both against jansson.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "json.h"
#include "lex.h"
#include "plain.h"

#define MAX_KEYS 64		/* past this, an object's keys are checked sorted */

void
lex_init(struct lex *l, const char *p, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->base = l->p = (const unsigned char *)p;
	l->end = l->p + len;
}

void
lex_free(struct lex *l)
{
	free(l->keys);
	l->keys = NULL;
	l->nkeys = l->capkeys = 0;
}

/*
 * Every byte is UTF-8, as jansson's reader checks each byte it reads:
 * checked once (utf8.c), in blocks, so the string loop need not.
 */
int
lex_utf8_check(const struct lex *l)
{
	return utf8_invalid_at((const char *)l->base,
	    (size_t)(l->end - l->base)) < 0 ? 0 : -1;
}

static int
hex4(const unsigned char *p, unsigned *out)
{
	unsigned v = 0, c;
	int i;

	for (i = 0; i < 4; i++) {
		c = p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		v = v << 4 | c;
	}
	*out = v;
	return 0;
}

/*
 * jansson writes \uXXXX, upper case, only for control characters without a
 * short form; anything else escaped that way is valid but not canonical.
 */
static int
canonical_u(const unsigned char *p, unsigned u)
{
	static const char digits[] = "0123456789ABCDEF";

	if (u >= 0x20 || u == '\b' || u == '\t' || u == '\n' || u == '\f' ||
	    u == '\r')
		return 0;
	return p[0] == '0' && p[1] == '0' && p[2] == (unsigned char)digits[u >> 4] &&
	    p[3] == (unsigned char)digits[u & 15];
}

/* l->p at the opening quote; on success just past the closing one */
int
lex_string(struct lex *l, struct lex_str *t)
{
	const unsigned char *p = l->p + 1, *end = l->end;
	unsigned c, u, u2;

	t->p = p;
	t->esc = t->nul = 0;
	for (;;) {
		p = skip_plain(p, end);
		if (p >= end)
			return -1;
		c = *p;
		if (c == '"')
			break;
		if (c != '\\')
			return -1;	/* a control character */
		t->esc = 1;
		if (end - p < 2)
			return -1;
		switch (p[1]) {
		case '"': case '\\': case 'b': case 'f': case 'n': case 'r': case 't':
			p += 2;
			continue;
		case '/':
			l->canon = 0;
			p += 2;
			continue;
		case 'u':
			break;
		default:
			return -1;
		}
		if (end - p < 6 || hex4(p + 2, &u) < 0)
			return -1;
		if (!canonical_u(p + 2, u))
			l->canon = 0;
		p += 6;
		if (u >= 0xdc00 && u <= 0xdfff)
			return -1;
		if (u >= 0xd800 && u <= 0xdbff) {
			if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
			    hex4(p + 2, &u2) < 0 || u2 < 0xdc00 || u2 > 0xdfff)
				return -1;
			p += 6;
		}
		if (u == 0)
			t->nul = 1;
	}
	t->len = (size_t)(p - t->p);
	l->p = p + 1;
	return 0;
}

static size_t
utf8_put(unsigned long cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The value of a string lex_string() accepted, NUL-terminated, into out, which
 * has room for t->len + 1 bytes (a value is never longer than its text).
 * Returns its length; it may hold NUL bytes.
 */
size_t
lex_decode_into(const struct lex_str *t, char *out)
{
	const unsigned char *p = t->p, *end = t->p + t->len;
	unsigned u, u2;
	size_t n = 0;

	if (!t->esc) {
		memcpy(out, p, t->len);
		out[t->len] = '\0';
		return t->len;
	}
	while (p < end) {
		if (*p != '\\') {
			out[n++] = (char)*p++;
			continue;
		}
		switch (p[1]) {
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u':
			hex4(p + 2, &u);
			if (u >= 0xd800 && u <= 0xdbff) {
				hex4(p + 8, &u2);
				u = 0x10000 + ((u - 0xd800) << 10) + (u2 - 0xdc00);
				p += 6;
			}
			n += utf8_put(u, out + n);
			p += 6;
			continue;
		default: out[n++] = (char)p[1]; break;	/* " \ / */
		}
		p += 2;
	}
	out[n] = '\0';
	return n;
}

char *
lex_decode(const struct lex_str *t)
{
	char *out = xmalloc(t->len + 1);

	lex_decode_into(t, out);
	return out;
}

static int
str_eq(const struct lex_str *a, const struct lex_str *b)
{
	char *x, *y;
	size_t nx, ny;
	int eq;

	if (!a->esc && !b->esc)
		return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
	x = xmalloc(a->len + 1);
	y = xmalloc(b->len + 1);
	nx = lex_decode_into(a, x);
	ny = lex_decode_into(b, y);
	eq = nx == ny && memcmp(x, y, nx) == 0;
	free(x);
	free(y);
	return eq;
}

/* the next byte is c: step over it and the whitespace after it */
static int
expect(struct lex *l, int c)
{
	if (l->p >= l->end || *l->p != c)
		return -1;
	l->p++;
	lex_ws(l);
	return 0;
}

/* a key of the object whose keys start at mark; then the ':' after it */
int
lex_key(struct lex *l, size_t mark, struct lex_str *k)
{
	size_t i;

	if (!lex_at(l, '"') || lex_string(l, k) < 0)
		return -1;
	/* a long object's keys are checked at its end (lex_end_keys) */
	for (i = mark; i < l->nkeys && l->nkeys - mark < MAX_KEYS; i++)
		if (str_eq(&l->keys[i], k))
			return -1;
	if (l->nkeys == l->capkeys) {
		l->capkeys = l->capkeys ? l->capkeys * 2 : 64;
		l->keys = xrealloc(l->keys, l->capkeys * sizeof(*l->keys));
	}
	l->keys[l->nkeys++] = *k;
	lex_ws(l);
	return expect(l, ':');
}

struct keyval {
	char *p;
	size_t len;
};

static int
by_key(const void *a, const void *b)
{
	const struct keyval *x = a, *y = b;
	int c = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);

	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

/*
 * The end of the object whose keys start at mark: an object with more than
 * MAX_KEYS keys has them sorted to find one given twice, in n log n, not n².
 */
int
lex_end_keys(struct lex *l, size_t mark)
{
	struct keyval *v;
	size_t i, n = l->nkeys - mark;
	int rc = 0;

	l->nkeys = mark;
	if (n <= MAX_KEYS)
		return 0;
	v = xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].p = xmalloc(l->keys[mark + i].len + 1);
		v[i].len = lex_decode_into(&l->keys[mark + i], v[i].p);
	}
	qsort(v, n, sizeof(*v), by_key);
	for (i = 1; i < n; i++)
		if (by_key(&v[i - 1], &v[i]) == 0)
			rc = -1;
	for (i = 0; i < n; i++)
		free(v[i].p);
	free(v);
	return rc;
}

/* after a number or a word jansson puts a byte back; a NUL it loses */
static void
nul_quirk(struct lex *l)
{
	if (l->p < l->end && *l->p == '\0') {
		l->p++;
		l->canon = 0;
	}
}

static int
isdigit_(int c)
{
	return c >= '0' && c <= '9';
}

/* past the digits at p */
static const unsigned char *
digits(const unsigned char *p, const unsigned char *end)
{
	while (p < end && isdigit_(*p))
		p++;
	return p;
}

/*
 * The end of the number at p by RFC 8259's grammar, or NULL when there is
 * none: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?. *real: it has a
 * fraction or an exponent.
 */
static const unsigned char *
number_end(const unsigned char *p, const unsigned char *end, int *real)
{
	*real = 0;
	if (p < end && *p == '-')
		p++;
	if (p >= end || !isdigit_(*p))
		return NULL;
	if (*p == '0' && ++p < end && isdigit_(*p))
		return NULL;	/* no leading zero */
	p = digits(p, end);
	if (p < end && *p == '.') {
		*real = 1;
		if (++p >= end || !isdigit_(*p))
			return NULL;
		p = digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		*real = 1;
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || !isdigit_(*p))
			return NULL;
		p = digits(p, end);
	}
	return p;
}

/* the n bytes at p, a number, as a whole number that fits int64_t, or -1 */
static int
whole_number(const unsigned char *p, size_t n, int real, int64_t *iv)
{
	char tmp[64], *buf = n < sizeof(tmp) ? tmp : xmalloc(n + 1);
	long long v;
	int rc = 0;

	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoll(buf, NULL, 10);
	if (real || errno == ERANGE)
		rc = -1;
	*iv = v;
	if (buf != tmp)
		free(buf);
	return rc;
}

int
lex_number(struct lex *l, int64_t *iv)
{
	const unsigned char *p;
	int real, rc = 0;

	if ((p = number_end(l->p, l->end, &real)) == NULL)
		return -1;
	/* any number is kept as its text; only one the caller reads is valued */
	if (iv != NULL)
		rc = whole_number(l->p, (size_t)(p - l->p), real, iv);
	l->p = p;
	nul_quirk(l);
	return rc;
}

int
lex_literal(struct lex *l, const char *word, size_t n)
{
	if ((size_t)(l->end - l->p) < n || memcmp(l->p, word, n) != 0)
		return -1;
	l->p += n;
	/* jansson reads a run of letters as one word */
	if (l->p < l->end && ((*l->p | 0x20) >= 'a' && (*l->p | 0x20) <= 'z'))
		return -1;
	nul_quirk(l);
	return 0;
}

static int
object(struct lex *l, int depth)
{
	struct lex_str k;
	size_t mark;
	int more = -1;

	l->p++;
	lex_ws(l);
	if (lex_at(l, '}')) {
		l->p++;
		return 0;
	}
	LEX_EACH_MEMBER(l, mark, k)
		if (lex_value(l, depth + 1) < 0 || (more = lex_next_member(l)) <= 0)
			break;
	if (lex_end_keys(l, mark) < 0)
		return -1;
	return more == 0 ? 0 : -1;
}

static int
array(struct lex *l, int depth)
{
	int more;

	LEX_EACH_ELEMENT(l, more)
		if (lex_value(l, depth + 1) < 0)
			return -1;
	return more;
}

/* any value, at depth (the outermost is 1) */
int
lex_value(struct lex *l, int depth)
{
	struct lex_str t;

	if (depth > LEX_MAX_DEPTH || l->p >= l->end)
		return -1;
	switch (*l->p) {
	case '{':
		return object(l, depth);
	case '[':
		return array(l, depth);
	case '"':
		return lex_string(l, &t);
	case 't':
		return lex_literal(l, "true", 4);
	case 'f':
		return lex_literal(l, "false", 5);
	case 'n':
		return lex_literal(l, "null", 4);
	default:
		return lex_number(l, NULL);
	}
}

/* building a value: what lex_json() gives in place of json_loadb() */

static json_t *build(struct lex *, int depth);

static json_t *
build_string(struct lex_str *t)
{
	char tmp[256], *buf;
	size_t n;
	json_t *v;

	if (!t->esc)
		return json_stringn_nocheck((const char *)t->p, t->len);
	buf = t->len < sizeof(tmp) ? tmp : xmalloc(t->len + 1);
	n = lex_decode_into(t, buf);
	v = json_stringn_nocheck(buf, n);
	if (buf != tmp)
		free(buf);
	return v;
}

/* an integer jansson writes back as it was is one; any other, its text */
static json_t *
build_number(const unsigned char *p, size_t n)
{
	char tmp[24];
	long long v;

	if (n < sizeof(tmp) && memchr(p, '.', n) == NULL &&
	    memchr(p, 'e', n) == NULL && memchr(p, 'E', n) == NULL &&
	    !(n == 2 && p[0] == '-' && p[1] == '0')) {
		memcpy(tmp, p, n);
		tmp[n] = '\0';
		errno = 0;
		v = strtoll(tmp, NULL, 10);
		if (errno == 0)
			return json_integer(v);
	}
	return json_number_text((const char *)p, n);
}

static json_t *
build_object(struct lex *l, int depth)
{
	json_t *obj = json_object(), *v;
	struct lex_str k;
	char tmp[256], *name;
	size_t mark, n;
	int more = -1;

	l->p++;
	lex_ws(l);
	if (lex_at(l, '}')) {
		l->p++;
		return obj;
	}
	LEX_EACH_MEMBER(l, mark, k) {
		if ((v = build(l, depth + 1)) == NULL)
			break;
		name = k.len < sizeof(tmp) ? tmp : xmalloc(k.len + 1);
		n = lex_decode_into(&k, name);
		json_object_setn_new_nocheck(obj, name, n, v);
		if (name != tmp)
			free(name);
		if ((more = lex_next_member(l)) <= 0)
			break;
	}
	if (lex_end_keys(l, mark) < 0 || more != 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *
build_array(struct lex *l, int depth)
{
	json_t *arr = json_array(), *v;
	int more;

	LEX_EACH_ELEMENT(l, more) {
		if ((v = build(l, depth + 1)) == NULL) {
			more = -1;
			break;
		}
		json_array_append_new(arr, v);
	}
	if (more != 0) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *
build(struct lex *l, int depth)
{
	const unsigned char *start = l->p, *p;
	struct lex_str t;

	if (depth > LEX_MAX_DEPTH || l->p >= l->end)
		return NULL;
	switch (*l->p) {
	case '{':
		return build_object(l, depth);
	case '[':
		return build_array(l, depth);
	case '"':
		return lex_string(l, &t) < 0 ? NULL : build_string(&t);
	case 't':
		return lex_literal(l, "true", 4) < 0 ? NULL : json_true();
	case 'f':
		return lex_literal(l, "false", 5) < 0 ? NULL : json_false();
	case 'n':
		return lex_literal(l, "null", 4) < 0 ? NULL : json_null();
	default:
		if (lex_number(l, NULL) < 0)
			return NULL;
		for (p = start; p < l->p && *p != '\0'; p++)
			;	/* the token, without the NUL nul_quirk() skipped */
		return build_number(start, (size_t)(p - start));
	}
}

json_t *
lex_json(const char *p, size_t len)
{
	struct lex l;
	json_t *v = NULL;

	lex_init(&l, p, len);
	if (lex_utf8_check(&l) == 0) {
		lex_ws(&l);
		v = build(&l, 1);
		lex_ws(&l);
		if (v != NULL && l.p != l.end) {
			json_decref(v);
			v = NULL;
		}
	}
	lex_free(&l);
	return v;
}
