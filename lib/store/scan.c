/*
 * scan.c - checks a store in one pass without building it, and builds the
 * parts that are asked for.
 *
 * Building every conversation with jansson only to write most of them back
 * unchanged costs ten times what reading and writing the file does. This
 * scanner walks the bytes once with the JSON lexer (lib/base/lex.c, whose
 * rules are jansson's but two), applies the store's shape, read from
 * shape.c's tables (the ones conv_validate() and adopt() check a jansson
 * tree by), and keeps each conversation as its byte range and the few
 * fields the store caches; the top object is the store's, at most one
 * conversation active, ids unique. Whatever it refuses goes to lex_json()
 * and adopt() (shape_check()), whose error names the JSON path, or, when
 * it is not JSON, to jansson, which names the line and column.
 * fuzz/fuzz_scan.c checks the scanner against jansson on all the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../base/lex.h"
#include "scan.h"
#include "shape.h"

/* depths of the store's known values: the top object is 1 */
#define D_TOP		1
#define D_CONVS		2
#define D_CONV		3
#define D_CONV_FIELD	4
#define D_MESSAGE	5
#define D_MSG_FIELD	6
#define D_TOOL		7

struct scanner {
	struct lex l;
	unsigned conv_needs, msg_needs;	/* required(): the rows that must be */
	/* scan_conv_each(): told of each message once it is checked */
	int (*each)(void *, const struct scan_msg *);
	void *arg;
};

size_t
scan_unescape(const struct scan_str *t, char *out)
{
	struct lex_str x = { (const unsigned char *)t->p, t->len, t->esc, 0 };

	return lex_decode_into(&x, out);
}

/* the row of sh that key t names (decoded), or -1: a field kept as it is */
static inline __attribute__((always_inline)) int
field_of(const struct shape *sh, const struct lex_str *t)
{
	char tmp[128];
	size_t n;

	if (!t->esc)
		return shape_field_find(sh, (const char *)t->p, t->len);
	/* a value is at least a sixth of its escaped text: longer than any name */
	if (t->len >= sizeof(tmp))
		return -1;
	n = lex_decode_into(t, tmp);
	return shape_field_find(sh, tmp, n);
}

/* shape_text() of a string's value, as a C string as jansson's path gives it */
static int
str_rule(const struct lex_str *t, const struct shape_field *f, int64_t *ms)
{
	char tmp[64], *buf = t->len < sizeof(tmp) ? tmp : xmalloc(t->len + 1);
	int rc;

	lex_decode_into(t, buf);
	rc = shape_text(f, buf, ms);
	if (buf != tmp)
		free(buf);
	return rc;
}

/* a string, or null when nullable; t->p is NULL for null */
static int
string_or_null(struct scanner *s, struct lex_str *t, int nullable)
{
	if (lex_at(&s->l, '"'))
		return lex_string(&s->l, t);
	if (nullable && lex_at(&s->l, 'n') && lex_literal(&s->l, "null", 4) == 0) {
		t->p = NULL;
		return 0;
	}
	return -1;	/* valid JSON perhaps, but not the store's shape */
}

/* an array of strings, or null when nullable */
static int
strings(struct scanner *s, int nullable)
{
	struct lex_str t;
	int more;

	if (nullable && lex_at(&s->l, 'n'))
		return lex_literal(&s->l, "null", 4);
	LEX_EACH_ELEMENT(&s->l, more)
		if (!lex_at(&s->l, '"') || lex_string(&s->l, &t) < 0)
			return -1;
	return more;
}

/*
 * The value of row f at s->l.p, checked by the row's rule, but for
 * SHAPE_OBJECTS, which the caller reads: a string's token into *t (t->p
 * NULL: null), a time into *ms (-1: null).
 */
static int
field_value(struct scanner *s, const struct shape_field *f, struct lex_str *t,
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
		return lex_number(&s->l, &v) < 0 || v < 1 || v > STORE_VERSION ? -1 : 0;
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
msg_str(struct scan_str *to, const struct lex_str *t, unsigned seen, int i)
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
	struct lex_str k, t, tok[MSG_FIELDS];
	int64_t times[MSG_FIELDS];
	const unsigned char *tools = NULL, *tools_end = NULL;
	unsigned seen = 0;
	size_t mark;
	int more = -1, i;

	/* "{}" ends the loop at once, refused: a message has required
	 * fields (were it not so, jansson's path would still take it) */
	s->l.p++;
	lex_ws(&s->l);
	LEX_EACH_MEMBER(&s->l, mark, k) {
		if ((i = field_of(&shape_message, &k)) < 0)
			more = lex_value(&s->l, D_MSG_FIELD);
		else {
			if (i == MSG_TOOLS)
				tools = s->l.p;
			more = field_value(s, &shape_message.field[i], &t,
			    &times[i]);
			if (i == MSG_TOOLS)
				tools_end = s->l.p;
			tok[i] = t;
			seen |= 1u << i;
		}
		if (more < 0 || (more = lex_next_member(&s->l)) <= 0)
			break;
	}
	if (lex_end_keys(&s->l, mark) < 0)
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
	LEX_EACH_ELEMENT(&s->l, more) {
		if (!lex_at(&s->l, '{') || message(s, last) < 0)
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
	struct lex_str k, v[CONV_FIELDS];
	int64_t times[CONV_FIELDS];
	struct scan_conv c;
	const unsigned char *start = s->l.p;
	unsigned seen = 0;
	size_t mark;
	int more = -1, i;

	memset(&c, 0, sizeof(c));
	s->l.canon = 1;
	s->l.p++;
	lex_ws(&s->l);
	LEX_EACH_MEMBER(&s->l, mark, k) {	/* "{}": refused, as in message() */
		if ((i = field_of(&shape_conv, &k)) < 0)
			more = lex_value(&s->l, D_CONV_FIELD);
		else if (i == CONV_MESSAGES) {
			c.last = -1;
			more = messages(s, &c.nmsg, &c.last, &c.newest);
		} else
			more = field_value(s, &shape_conv.field[i], &v[i],
			    &times[i]);
		if (i >= 0)
			seen |= 1u << i;
		if (more < 0 || (more = lex_next_member(&s->l)) <= 0)
			break;
	}
	if (lex_end_keys(&s->l, mark) < 0)
		more = -1;
	if (more != 0 || (seen & s->conv_needs) != s->conv_needs)
		return -1;
	c.off = (size_t)(start - s->l.base);
	c.len = (size_t)(s->l.p - start);
	c.canonical = s->l.canon;
	c.started = times[CONV_STARTED];
	c.ended = seen >> CONV_ENDED & 1 ? times[CONV_ENDED] : -1;
	if (c.nmsg == 0) {
		c.last = c.started;
		c.newest = INT64_MIN;
	}
	if (c.ended < 0 && (*active)++ > 0)
		return -1;	/* two active conversations */
	c.id = lex_decode(&v[CONV_ID]);
	if (seen >> CONV_TITLE & 1 && v[CONV_TITLE].p != NULL)
		c.title = lex_decode(&v[CONV_TITLE]);
	if (seen >> CONV_SUMMARY & 1 && v[CONV_SUMMARY].p != NULL)
		c.summary = lex_decode(&v[CONV_SUMMARY]);
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

	LEX_EACH_ELEMENT(&s->l, more)
		if (!lex_at(&s->l, '{') || conv(s, out, &active) < 0)
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

/* a top-level member but "conversations", its value at s->l.p */
static int
member(struct scanner *s, struct scan *out, const struct lex_str *k, int i)
{
	struct scan_member m;
	struct lex_str t;
	int64_t ms;

	m.off = (size_t)(s->l.p - s->l.base);
	if ((i < 0 ? lex_value(&s->l, D_CONVS) :
	    field_value(s, &shape_store.field[i], &t, &ms)) < 0)
		return -1;
	m.len = (size_t)(s->l.p - s->l.base) - m.off;
	m.key = xmalloc(k->len + 1);
	m.klen = lex_decode_into(k, m.key);
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
	struct lex_str k;
	unsigned seen = 0;
	size_t mark;
	int more = -1, i;

	lex_ws(&s->l);
	if (!lex_at(&s->l, '{'))
		return -1;
	s->l.p++;
	lex_ws(&s->l);
	if (lex_at(&s->l, '}')) {
		s->l.p++;
		more = 0;
	} else {
		LEX_EACH_MEMBER(&s->l, mark, k) {
			if ((i = field_of(&shape_store, &k)) == TOP_CONVERSATIONS)
				more = conversations(s, out);
			else
				more = member(s, out, &k, i);
			if (i >= 0)
				seen |= 1u << i;
			if (more < 0 || (more = lex_next_member(&s->l)) <= 0)
				break;
		}
		if (lex_end_keys(&s->l, mark) < 0)
			more = -1;
	}
	if (more != 0 || (seen & required(&shape_store)) != required(&shape_store))
		return -1;
	lex_ws(&s->l);
	if (s->l.p != s->l.end)
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
	lex_init(&s.l, p, len);
	s.conv_needs = required(&shape_conv);
	s.msg_needs = required(&shape_message);
	rc = lex_utf8_check(&s.l);
	if (rc == 0)
		rc = top(&s, out);
	lex_free(&s.l);
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
	lex_init(&s.l, p, len);
	s.conv_needs = required(&shape_conv);
	s.msg_needs = required(&shape_message);
	s.each = each;
	s.arg = arg;
	if (len > 0 && *p == '{' && (utf8 || lex_utf8_check(&s.l) == 0) &&
	    conv(&s, &one, &active) == 0 && s.l.p == s.l.end) {
		*out = one.conv[0];
		one.n = 0;
		rc = 0;
	}
	lex_free(&s.l);
	scan_free(&one);
	return rc;
}

void
scan_conv_clear(struct scan_conv *c)
{
	scan_conv_free(c);
	c->id = c->title = c->summary = NULL;
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
