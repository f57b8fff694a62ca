/*
 * scan.c - checks a store in one pass without building it, and builds the
 * parts that are asked for.
 *
 * Building every conversation with jansson only to write most of them back
 * unchanged costs ten times what reading and writing the file does. This
 * scanner walks the bytes once, applies the rules of JSON below and the
 * store's shape, read from shape.c's tables (the ones conv_validate() and
 * adopt() check a jansson tree by), and keeps each conversation as its byte
 * range and the few fields the store caches. The
 * rules are jansson 2.14's with JSON_LOAD_FLAGS, but two, where jansson
 * refuses valid JSON:
 *   - RFC 8259 syntax with an object or array at the top (the store wants an
 *     object), whitespace only space, tab, newline and carriage return;
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
 * scan_json() builds a value by these rules: jansson's json_loadb() would
 * refuse the two kinds and turn numbers into doubles. Whatever the scanner
 * refuses goes to scan_json() and adopt() (shape_check()), whose error names
 * the JSON path, or, when it is not JSON, to jansson, which names the line
 * and column.
 * fuzz/fuzz_scan.c checks the scanner against jansson on all the rest.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../base/plain.h"
#include "scan.h"
#include "shape.h"

#define MAX_DEPTH 2048		/* jansson's JSON_PARSER_MAX_DEPTH */
#define MAX_KEYS 64		/* past this, an object's keys are checked sorted */

/* depths of the store's known values: the top object is 1 */
#define D_TOP		1
#define D_CONVS		2
#define D_CONV		3
#define D_CONV_FIELD	4
#define D_MESSAGE	5
#define D_MSG_FIELD	6
#define D_TOOL		7

struct str {			/* a string token */
	const unsigned char *p;	/* the body, between the quotes, still escaped */
	size_t len;
	int esc;		/* has a backslash */
	int nul;		/* decodes to a NUL byte somewhere */
};

struct scanner {
	const unsigned char *base, *p, *end;
	int canon;		/* what was scanned since it was set is canonical */
	struct str *keys;	/* the keys of the objects open now */
	size_t nkeys, capkeys;
	unsigned conv_needs, msg_needs;	/* required(): the rows that must be */
	/* scan_conv_each(): told of each message once it is checked */
	int (*each)(void *, const struct scan_msg *);
	void *arg;
};

/*
 * Every byte of the file is UTF-8, as jansson's reader checks each byte it
 * reads: checked once (utf8.c), in blocks, so the string loop need not.
 */
static int
utf8_check(const unsigned char *p, const unsigned char *end)
{
	return utf8_invalid_at((const char *)p, (size_t)(end - p)) < 0 ? 0 : -1;
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

/* s->p at the opening quote; on success just past the closing one */
static int
string(struct scanner *s, struct str *t)
{
	const unsigned char *p = s->p + 1, *end = s->end;
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
			s->canon = 0;
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
			s->canon = 0;
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
	s->p = p + 1;
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
 * The value of a string string() accepted, NUL-terminated, into out, which
 * has room for t->len + 1 bytes (a value is never longer than its text).
 * Returns its length; it may hold NUL bytes.
 */
static size_t
decode_into(const struct str *t, char *out)
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

size_t
scan_unescape(const struct scan_str *t, char *out)
{
	struct str x = { (const unsigned char *)t->p, t->len, t->esc, 0 };

	return decode_into(&x, out);
}

static char *
decode(const struct str *t)
{
	char *out = xmalloc(t->len + 1);

	decode_into(t, out);
	return out;
}

/* the row of sh that key t names (decoded), or -1: a field kept as it is */
static inline __attribute__((always_inline)) int
field_of(const struct shape *sh, const struct str *t)
{
	char tmp[128];
	size_t n;

	if (!t->esc)
		return shape_field_find(sh, (const char *)t->p, t->len);
	/* a value is at least a sixth of its escaped text: longer than any name */
	if (t->len >= sizeof(tmp))
		return -1;
	n = decode_into(t, tmp);
	return shape_field_find(sh, tmp, n);
}

static int
str_eq(const struct str *a, const struct str *b)
{
	char *x, *y;
	size_t nx, ny;
	int eq;

	if (!a->esc && !b->esc)
		return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
	x = xmalloc(a->len + 1);
	y = xmalloc(b->len + 1);
	nx = decode_into(a, x);
	ny = decode_into(b, y);
	eq = nx == ny && memcmp(x, y, nx) == 0;
	free(x);
	free(y);
	return eq;
}

/* shape_text() of a string's value, as a C string as jansson's path gives it */
static int
str_rule(const struct str *t, const struct shape_field *f, int64_t *ms)
{
	char tmp[64], *buf = t->len < sizeof(tmp) ? tmp : xmalloc(t->len + 1);
	int rc;

	decode_into(t, buf);
	rc = shape_text(f, buf, ms);
	if (buf != tmp)
		free(buf);
	return rc;
}

static void
ws(struct scanner *s)
{
	const unsigned char *p = s->p;

	while (p < s->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	if (p != s->p)
		s->canon = 0;
	s->p = p;
}

/* the next byte is c: step over it and the whitespace after it */
static int
expect(struct scanner *s, int c)
{
	if (s->p >= s->end || *s->p != c)
		return -1;
	s->p++;
	ws(s);
	return 0;
}

static int
at(const struct scanner *s, int c)
{
	return s->p < s->end && *s->p == c;
}

/* a key of the object whose keys start at mark; then the ':' after it */
static int
key(struct scanner *s, size_t mark, struct str *k)
{
	size_t i;

	if (!at(s, '"') || string(s, k) < 0)
		return -1;
	/* a long object's keys are checked at its end (end_keys) */
	for (i = mark; i < s->nkeys && s->nkeys - mark < MAX_KEYS; i++)
		if (str_eq(&s->keys[i], k))
			return -1;
	if (s->nkeys == s->capkeys) {
		s->capkeys = s->capkeys ? s->capkeys * 2 : 64;
		s->keys = xrealloc(s->keys, s->capkeys * sizeof(*s->keys));
	}
	s->keys[s->nkeys++] = *k;
	ws(s);
	return expect(s, ':');
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
static int
end_keys(struct scanner *s, size_t mark)
{
	struct keyval *v;
	size_t i, n = s->nkeys - mark;
	int rc = 0;

	s->nkeys = mark;
	if (n <= MAX_KEYS)
		return 0;
	v = xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].p = xmalloc(s->keys[mark + i].len + 1);
		v[i].len = decode_into(&s->keys[mark + i], v[i].p);
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
nul_quirk(struct scanner *s)
{
	if (s->p < s->end && *s->p == '\0') {
		s->p++;
		s->canon = 0;
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

static int
number(struct scanner *s, int64_t *iv)
{
	const unsigned char *p;
	int real, rc = 0;

	if ((p = number_end(s->p, s->end, &real)) == NULL)
		return -1;
	/* any number is kept as its text; only one the store reads is valued */
	if (iv != NULL)
		rc = whole_number(s->p, (size_t)(p - s->p), real, iv);
	s->p = p;
	nul_quirk(s);
	return rc;
}

static int
literal(struct scanner *s, const char *word, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return -1;
	s->p += n;
	/* jansson reads a run of letters as one word */
	if (s->p < s->end && ((*s->p | 0x20) >= 'a' && (*s->p | 0x20) <= 'z'))
		return -1;
	nul_quirk(s);
	return 0;
}

/*
 * Loops over the members of an object, s->p at its first key: each pass has
 * read key k and the ':' after it; the body reads the value and then calls
 * next_member(). The keys seen from mark on are the object's, for the
 * duplicate check; the caller sets s->nkeys back to mark after the loop.
 */
#define EACH_MEMBER(s, mark, k)						\
	for (mark = (s)->nkeys; key((s), mark, &(k)) == 0;)

/* after a member's value or an element, in an object or an array that
 * close ends: 1 at ',' (and past it), 0 at close (past it), -1 */
static int
next_item(struct scanner *s, char close)
{
	ws(s);
	if (at(s, ',')) {
		s->p++;
		ws(s);
		return 1;
	}
	if (at(s, close)) {
		s->p++;
		return 0;
	}
	return -1;
}
#define next_member(s) next_item((s), '}')
#define next_element(s) next_item((s), ']')

/*
 * Loops over the elements of an array, s->p at its '[': the body reads one
 * element, returning -1 when it is not what the store allows. After the
 * loop, more is 0 when the array ended well (s->p past its ']'), -1 if not.
 */
#define EACH_ELEMENT(s, more)						\
	for (more = first_element(s); more > 0; more = next_element(s))

/* 1 past '[' with an element to read, 0 past an empty array's ']', -1 */
static int
first_element(struct scanner *s)
{
	if (!at(s, '['))
		return -1;
	s->p++;
	ws(s);
	if (at(s, ']')) {
		s->p++;
		return 0;
	}
	return 1;
}

static int value(struct scanner *, int depth);

static int
object(struct scanner *s, int depth)
{
	struct str k;
	size_t mark;
	int more = -1;

	s->p++;
	ws(s);
	if (at(s, '}')) {
		s->p++;
		return 0;
	}
	EACH_MEMBER(s, mark, k)
		if (value(s, depth + 1) < 0 || (more = next_member(s)) <= 0)
			break;
	if (end_keys(s, mark) < 0)
		return -1;
	return more == 0 ? 0 : -1;
}

static int
array(struct scanner *s, int depth)
{
	int more;

	EACH_ELEMENT(s, more)
		if (value(s, depth + 1) < 0)
			return -1;
	return more;
}

/* any value, at depth (the top object is 1) */
static int
value(struct scanner *s, int depth)
{
	struct str t;

	if (depth > MAX_DEPTH || s->p >= s->end)
		return -1;
	switch (*s->p) {
	case '{':
		return object(s, depth);
	case '[':
		return array(s, depth);
	case '"':
		return string(s, &t);
	case 't':
		return literal(s, "true", 4);
	case 'f':
		return literal(s, "false", 5);
	case 'n':
		return literal(s, "null", 4);
	default:
		return number(s, NULL);
	}
}

/* a string, or null when nullable; t->p is NULL for null */
static int
string_or_null(struct scanner *s, struct str *t, int nullable)
{
	if (at(s, '"'))
		return string(s, t);
	if (nullable && at(s, 'n') && literal(s, "null", 4) == 0) {
		t->p = NULL;
		return 0;
	}
	return -1;	/* valid JSON perhaps, but not the store's shape */
}

/* an array of strings, or null when nullable */
static int
strings(struct scanner *s, int nullable)
{
	struct str t;
	int more;

	if (nullable && at(s, 'n'))
		return literal(s, "null", 4);
	EACH_ELEMENT(s, more)
		if (!at(s, '"') || string(s, &t) < 0)
			return -1;
	return more;
}

/*
 * The value of row f at s->p, checked by the row's rule, but for
 * SHAPE_OBJECTS, which the caller reads: a string's token into *t (t->p
 * NULL: null), a time into *ms (-1: null).
 */
static int
field_value(struct scanner *s, const struct shape_field *f, struct str *t,
    int64_t *ms)
{
	int64_t v;

	switch (f->type) {
	case SHAPE_STRING:
	case SHAPE_TIME:
	case SHAPE_ROLE:
		*ms = -1;
		if (string_or_null(s, t, f->flags & SHAPE_NULLABLE) < 0)
			return -1;
		if (t->p == NULL || f->type == SHAPE_STRING)
			return f->flags & SHAPE_NONEMPTY && t->p != NULL &&
			    t->len == 0 ? -1 : 0;
		return str_rule(t, f, ms);
	case SHAPE_STRINGS:
		return strings(s, f->flags & SHAPE_NULLABLE);
	case SHAPE_VERSION:
		return number(s, &v) < 0 || v < 1 || v > STORE_VERSION ? -1 : 0;
	case SHAPE_OBJECTS:
		break;
	}
	return -1;
}

/* the rows of sh that must be there, a bit each */
static unsigned
required(const struct shape *sh)
{
	unsigned m = 0;
	size_t i;

	for (i = 0; i < sh->n; i++)
		if (sh->field[i].flags & SHAPE_REQUIRED)
			m |= 1u << i;
	return m;
}

/* a string token as scan_msg gives it; NULL p: null or missing */
static void
msg_str(struct scan_str *to, const struct str *t, unsigned seen, int i)
{
	if (!(seen >> i & 1) || t->p == NULL) {
		to->p = NULL;
		to->len = 0;
		to->esc = 0;
		return;
	}
	to->p = (const char *)t->p;
	to->len = t->len;
	to->esc = t->esc;
}

static int
message(struct scanner *s, int64_t *ms)
{
	struct str k, t, tok[MSG_FIELDS];
	int64_t times[MSG_FIELDS];
	const unsigned char *tools = NULL, *tools_end = NULL;
	unsigned seen = 0;
	size_t mark;
	int more = -1, i;

	/* "{}" ends the loop at once, refused: a message has required
	 * fields (were it not so, jansson's path would still take it) */
	s->p++;
	ws(s);
	EACH_MEMBER(s, mark, k) {
		if ((i = field_of(&shape_message, &k)) < 0)
			more = value(s, D_MSG_FIELD);
		else {
			if (i == MSG_TOOLS)
				tools = s->p;
			more = field_value(s, &shape_message.field[i], &t,
			    &times[i]);
			if (i == MSG_TOOLS)
				tools_end = s->p;
			tok[i] = t;
			seen |= 1u << i;
		}
		if (more < 0 || (more = next_member(s)) <= 0)
			break;
	}
	if (end_keys(s, mark) < 0)
		more = -1;
	if (more != 0 || (seen & s->msg_needs) != s->msg_needs)
		return -1;
	*ms = times[MSG_TIMESTAMP];
	if (s->each != NULL) {
		struct scan_msg m;

		msg_str(&m.id, &tok[MSG_ID], seen, MSG_ID);
		msg_str(&m.role, &tok[MSG_ROLE], seen, MSG_ROLE);
		msg_str(&m.content, &tok[MSG_CONTENT], seen, MSG_CONTENT);
		m.time = times[MSG_TIMESTAMP];
		m.tools = (const char *)tools;
		m.toolslen = tools != NULL ? (size_t)(tools_end - tools) : 0;
		if (s->each(s->arg, &m) < 0)
			return -1;
	}
	return 0;
}

/* messages: their count, the last one's time and the latest time */
static int
messages(struct scanner *s, size_t *n, int64_t *last, int64_t *newest)
{
	int more;

	*n = 0;
	*newest = INT64_MIN;
	EACH_ELEMENT(s, more) {
		if (!at(s, '{') || message(s, last) < 0)
			return -1;
		if (*last > *newest)
			*newest = *last;
		(*n)++;
	}
	return more;
}

static void
scan_conv_free(struct scan_conv *c)
{
	free(c->id);
	free(c->title);
	free(c->summary);
}

static int
conv(struct scanner *s, struct scan *out, int *active)
{
	struct str k, v[CONV_FIELDS];
	int64_t times[CONV_FIELDS];
	struct scan_conv c;
	const unsigned char *start = s->p;
	unsigned seen = 0;
	size_t mark;
	int more = -1, i;

	memset(&c, 0, sizeof(c));
	s->canon = 1;
	s->p++;
	ws(s);
	EACH_MEMBER(s, mark, k) {	/* "{}": refused, as in message() */
		if ((i = field_of(&shape_conv, &k)) < 0)
			more = value(s, D_CONV_FIELD);
		else if (i == CONV_MESSAGES) {
			c.last = -1;
			more = messages(s, &c.nmsg, &c.last, &c.newest);
		} else
			more = field_value(s, &shape_conv.field[i], &v[i],
			    &times[i]);
		if (i >= 0)
			seen |= 1u << i;
		if (more < 0 || (more = next_member(s)) <= 0)
			break;
	}
	if (end_keys(s, mark) < 0)
		more = -1;
	if (more != 0 || (seen & s->conv_needs) != s->conv_needs)
		return -1;
	c.off = (size_t)(start - s->base);
	c.len = (size_t)(s->p - start);
	c.canonical = s->canon;
	c.started = times[CONV_STARTED];
	c.ended = seen >> CONV_ENDED & 1 ? times[CONV_ENDED] : -1;
	if (c.nmsg == 0) {
		c.last = c.started;
		c.newest = INT64_MIN;
	}
	if (c.ended < 0 && (*active)++ > 0)
		return -1;	/* two active conversations */
	c.id = decode(&v[CONV_ID]);
	if (seen >> CONV_TITLE & 1 && v[CONV_TITLE].p != NULL)
		c.title = decode(&v[CONV_TITLE]);
	if (seen >> CONV_SUMMARY & 1 && v[CONV_SUMMARY].p != NULL)
		c.summary = decode(&v[CONV_SUMMARY]);
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 64;
		out->conv = xrealloc(out->conv, out->cap * sizeof(*out->conv));
	}
	out->conv[out->n++] = c;
	return 0;
}

static int
conversations(struct scanner *s, struct scan *out)
{
	int active = 0, more;

	EACH_ELEMENT(s, more)
		if (!at(s, '{') || conv(s, out, &active) < 0)
			return -1;
	return more;
}

static int
by_id(const void *a, const void *b)
{
	return strcmp((*(struct scan_conv *const *)a)->id,
	    (*(struct scan_conv *const *)b)->id);
}

/* ids compare as C strings, as store_find() does */
static int
ids_unique(struct scan *out)
{
	struct scan_conv **v;
	size_t i;
	int rc = 0;

	if (out->n < 2)
		return 0;
	v = xmalloc(out->n * sizeof(*v));
	for (i = 0; i < out->n; i++)
		v[i] = &out->conv[i];
	qsort(v, out->n, sizeof(*v), by_id);
	for (i = 1; i < out->n; i++)
		if (strcmp(v[i - 1]->id, v[i]->id) == 0)
			rc = -1;
	free(v);
	return rc;
}

/* a top-level member but "conversations", its value at s->p */
static int
member(struct scanner *s, struct scan *out, const struct str *k, int i)
{
	struct scan_member m;
	struct str t;
	int64_t ms;

	m.off = (size_t)(s->p - s->base);
	if ((i < 0 ? value(s, D_CONVS) :
	    field_value(s, &shape_store.field[i], &t, &ms)) < 0)
		return -1;
	m.len = (size_t)(s->p - s->base) - m.off;
	m.key = xmalloc(k->len + 1);
	m.klen = decode_into(k, m.key);
	if (out->nmember == out->capmember) {
		out->capmember = out->capmember ? out->capmember * 2 : 8;
		out->member = xrealloc(out->member,
		    out->capmember * sizeof(*out->member));
	}
	out->member[out->nmember++] = m;
	return 0;
}

static int
top(struct scanner *s, struct scan *out)
{
	struct str k;
	unsigned seen = 0;
	size_t mark;
	int more = -1, i;

	ws(s);
	if (!at(s, '{'))
		return -1;
	s->p++;
	ws(s);
	if (at(s, '}')) {
		s->p++;
		more = 0;
	} else {
		EACH_MEMBER(s, mark, k) {
			if ((i = field_of(&shape_store, &k)) == TOP_CONVERSATIONS)
				more = conversations(s, out);
			else
				more = member(s, out, &k, i);
			if (i >= 0)
				seen |= 1u << i;
			if (more < 0 || (more = next_member(s)) <= 0)
				break;
		}
		if (end_keys(s, mark) < 0)
			more = -1;
	}
	if (more != 0 || (seen & required(&shape_store)) != required(&shape_store))
		return -1;
	ws(s);
	if (s->p != s->end)
		return -1;
	return ids_unique(out);
}

int
scan_store(const char *p, size_t len, struct scan *out)
{
	struct scanner s;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.base = s.p = (const unsigned char *)p;
	s.end = s.p + len;
	s.conv_needs = required(&shape_conv);
	s.msg_needs = required(&shape_message);
	rc = utf8_check(s.p, s.end);
	if (rc == 0)
		rc = top(&s, out);
	free(s.keys);
	if (rc < 0) {
		scan_free(out);
		return SCAN_INVALID;
	}
	return 0;
}

/*
 * One conversation's bytes, p[0..len) exactly, checked by the rules the
 * whole store's scan applies to each element of "conversations" (the file
 * engine reads a conversation where its index says it is, and checks it
 * here, with the same code).
 */
int
scan_conv(const char *p, size_t len, struct scan_conv *out)
{
	return scan_conv_each(p, len, out, 0, NULL, NULL);
}

int
scan_conv_each(const char *p, size_t len, struct scan_conv *out, int utf8,
    int (*each)(void *, const struct scan_msg *), void *arg)
{
	struct scanner s;
	struct scan one;
	int active = 0, rc = -1;

	memset(&one, 0, sizeof(one));
	memset(&s, 0, sizeof(s));
	s.base = s.p = (const unsigned char *)p;
	s.end = s.p + len;
	s.conv_needs = required(&shape_conv);
	s.msg_needs = required(&shape_message);
	s.each = each;
	s.arg = arg;
	if (len > 0 && *p == '{' && (utf8 || utf8_check(s.p, s.end) == 0) &&
	    conv(&s, &one, &active) == 0 && s.p == s.end) {
		*out = one.conv[0];
		one.n = 0;
		rc = 0;
	}
	free(s.keys);
	scan_free(&one);
	return rc;
}

void
scan_conv_clear(struct scan_conv *c)
{
	scan_conv_free(c);
	c->id = c->title = c->summary = NULL;
}

/* building a value: what scan_json() gives in place of json_loadb() */

static json_t *build(struct scanner *, int depth);

static json_t *
build_string(struct str *t)
{
	char tmp[256], *buf;
	size_t n;
	json_t *v;

	if (!t->esc)
		return json_stringn_nocheck((const char *)t->p, t->len);
	buf = t->len < sizeof(tmp) ? tmp : xmalloc(t->len + 1);
	n = decode_into(t, buf);
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
build_object(struct scanner *s, int depth)
{
	json_t *obj = json_object(), *v;
	struct str k;
	char tmp[256], *name;
	size_t mark, n;
	int more = -1;

	s->p++;
	ws(s);
	if (at(s, '}')) {
		s->p++;
		return obj;
	}
	EACH_MEMBER(s, mark, k) {
		if ((v = build(s, depth + 1)) == NULL)
			break;
		name = k.len < sizeof(tmp) ? tmp : xmalloc(k.len + 1);
		n = decode_into(&k, name);
		json_object_setn_new_nocheck(obj, name, n, v);
		if (name != tmp)
			free(name);
		if ((more = next_member(s)) <= 0)
			break;
	}
	if (end_keys(s, mark) < 0 || more != 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

static json_t *
build_array(struct scanner *s, int depth)
{
	json_t *arr = json_array(), *v;
	int more;

	EACH_ELEMENT(s, more) {
		if ((v = build(s, depth + 1)) == NULL) {
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
build(struct scanner *s, int depth)
{
	const unsigned char *start = s->p, *p;
	struct str t;

	if (depth > MAX_DEPTH || s->p >= s->end)
		return NULL;
	switch (*s->p) {
	case '{':
		return build_object(s, depth);
	case '[':
		return build_array(s, depth);
	case '"':
		return string(s, &t) < 0 ? NULL : build_string(&t);
	case 't':
		return literal(s, "true", 4) < 0 ? NULL : json_true();
	case 'f':
		return literal(s, "false", 5) < 0 ? NULL : json_false();
	case 'n':
		return literal(s, "null", 4) < 0 ? NULL : json_null();
	default:
		if (number(s, NULL) < 0)
			return NULL;
		for (p = start; p < s->p && *p != '\0'; p++)
			;	/* the token, without the NUL nul_quirk() skipped */
		return build_number(start, (size_t)(p - start));
	}
}

json_t *
scan_json(const char *p, size_t len)
{
	struct scanner s;
	json_t *v = NULL;

	memset(&s, 0, sizeof(s));
	s.base = s.p = (const unsigned char *)p;
	s.end = s.p + len;
	if (utf8_check(s.p, s.end) == 0) {
		ws(&s);
		v = build(&s, 1);
		ws(&s);
		if (v != NULL && s.p != s.end) {
			json_decref(v);
			v = NULL;
		}
	}
	free(s.keys);
	return v;
}

void
scan_free(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		scan_conv_free(&s->conv[i]);
	for (i = 0; i < s->nmember; i++)
		free(s->member[i].key);
	free(s->conv);
	free(s->member);
	memset(s, 0, sizeof(*s));
}
