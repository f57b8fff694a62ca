/*
 * json.c - the one JSON writer, and numbers kept as the text they were
 * written with.
 *
 * What a user stored must come back as they wrote it, but jansson reads a
 * number into an int64_t or a double: 0.1 comes back 0.10000000000000001,
 * 1e400 and 123456789012345678901234567890 are refused. So the store's
 * reader (lex_json() in lex.c) makes every number that an integer would
 * not give back exactly a "number text": a jansson string whose first byte
 * is 0xff and the rest the number as written. No string read from JSON can
 * begin so (0xff is never UTF-8), so a number text is never mistaken for a
 * string, nor a string for one, and nothing needs escaping. This writer
 * writes it back as the bare number. The fields convctl reads are strings,
 * arrays and the integer "version", which stay what jansson gives; a string
 * accessor (json_str(), json_is_text()) does not take a number text for
 * one. Everything else is written as jansson's json_dumps() with
 * JSON_COMPACT writes it, byte for byte: the scanner's "canonical" test and
 * every store written before rely on that.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "plain.h"

#define NUMBER_TAG '\xff'

json_t *
json_number_text(const char *text, size_t len)
{
	char tmp[64], *buf = len + 1 <= sizeof(tmp) ? tmp : xmalloc(len + 1);
	json_t *v;

	buf[0] = NUMBER_TAG;
	memcpy(buf + 1, text, len);
	v = json_stringn_nocheck(buf, len + 1);
	if (buf != tmp)
		free(buf);
	return v;
}

const char *
json_number_text_of(const json_t *v, size_t *len)
{
	const char *s;

	if (!json_is_string(v) || json_string_length(v) == 0)
		return NULL;
	s = json_string_value(v);
	if (s[0] != NUMBER_TAG)
		return NULL;
	if (len != NULL)
		*len = json_string_length(v) - 1;
	return s + 1;
}

int
json_is_text(const json_t *v)
{
	return json_is_string(v) && json_number_text_of(v, NULL) == NULL;
}

const char *
json_name(const json_t *v)
{
	if (!json_is_text(v) || memchr(json_string_value(v), '\0',
	    json_string_length(v)) != NULL)
		return NULL;
	return json_string_value(v);
}

/* jansson's allocations; a block of BUF_PREFAULT bytes or more, a long
 * message's copy, is about to be written all through */
static void *
alloc_prefaulted(size_t n)
{
	void *p = malloc(n);

	if (p != NULL && n >= BUF_PREFAULT)
		mem_prefault(p, n);
	return p;
}

void
json_prefault_large(void)
{
	/* the same malloc and free underneath: what jansson allocated
	 * before is freed as before */
	json_set_alloc_funcs(alloc_prefaulted, free);
}

/* as jansson's dump_string() writes a string's inside: \uXXXX upper case
 * for the other controls; each byte on its own, so a text escaped in parts
 * is escaped as it would be whole */
void
json_escape(struct buf *b, const char *str, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)str, *end = s + len, *run;
	unsigned char c;
	size_t n;
	char *d;

	for (;;) {
		run = s;
		s = skip_plain(s, end);
		n = (size_t)(s - run);
		/* the run, an escape and the NUL, written in place: a text
		 * has an escape every few dozen bytes */
		if (b->cap - b->len < n + 8)
			buf_reserve(b, n + 7);
		d = b->data + b->len;
		memcpy(d, run, n);
		d += n;
		if (s == end) {
			b->len += n;
			break;
		}
		*d++ = '\\';
		switch (c = *s++) {
		case '"': *d++ = '"'; break;
		case '\\': *d++ = '\\'; break;
		case '\b': *d++ = 'b'; break;
		case '\f': *d++ = 'f'; break;
		case '\n': *d++ = 'n'; break;
		case '\r': *d++ = 'r'; break;
		case '\t': *d++ = 't'; break;
		default:
			memcpy(d, "u00", 3);
			d[3] = hex[c >> 4];
			d[4] = hex[c & 15];
			d += 5;
		}
		b->len = (size_t)(d - b->data);
	}
	if (b->data != NULL)
		b->data[b->len] = '\0';
}

static void
put_string(struct buf *b, const char *str, size_t len)
{
	/* room for it all at once: a message of megabytes grows the buffer
	 * once rather than by doublings that copy what was written */
	buf_reserve(b, len + 2);
	buf_addc(b, '"');
	json_escape(b, str, len);
	buf_addc(b, '"');
}

/* as jansson's jsonp_dtostr() with its default precision, 17 */
static void
put_real(struct buf *b, double d)
{
	char s[64], *e, *from;
	int n = snprintf(s, sizeof(s) - 3, "%.17g", d);

	if (n < 0 || (size_t)n >= sizeof(s) - 3)
		return;		/* cannot happen: %.17g is at most 24 bytes */
	if (strchr(s, '.') == NULL && strchr(s, 'e') == NULL) {
		memcpy(s + n, ".0", 3);	/* still a real when read back */
		n += 2;
	}
	if ((e = strchr(s, 'e')) != NULL) {
		/* no '+' nor leading zeros in the exponent */
		e++;
		if (*e == '-')
			e++;
		for (from = e; *from == '+' || *from == '0'; from++)
			;
		if (*from == '\0')
			from--;		/* the exponent 0 */
		memmove(e, from, strlen(from) + 1);
		n = (int)strlen(s);
	}
	buf_add(b, s, (size_t)n);
}

/* json_dump_holes()'s strings left empty, and where their insides go */
struct holes {
	const json_t *const *want;
	size_t n, found;
	struct json_hole *at;
};

/* the index in h->want of v while fewer than h->n are met; else h->n */
static size_t
hole_of(const struct holes *h, const json_t *v)
{
	size_t i;

	for (i = 0; h->found < h->n && i < h->n; i++)
		if (h->want[i] == v)
			return i;
	return h->n;
}

static void
put_value(struct buf *b, const json_t *v, struct holes *h)
{
	const char *key, *text;
	json_t *x;
	size_t i, klen, n, k;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		buf_addc(b, '{');
		i = 0;
		json_object_keylen_foreach((json_t *)(uintptr_t)v, key, klen, x) {
			if (i++ > 0)
				buf_addc(b, ',');
			put_string(b, key, klen);
			buf_addc(b, ':');
			put_value(b, x, h);
		}
		buf_addc(b, '}');
		break;
	case JSON_ARRAY:
		buf_addc(b, '[');
		json_array_foreach(v, i, x) {
			if (i > 0)
				buf_addc(b, ',');
			put_value(b, x, h);
		}
		buf_addc(b, ']');
		break;
	case JSON_STRING:
		if (h != NULL && (k = hole_of(h, v)) < h->n) {
			buf_add(b, "\"\"", 2);
			h->at[h->found++] = (struct json_hole){ k, b->len - 1 };
		} else if ((text = json_number_text_of(v, &n)) != NULL)
			buf_add(b, text, n);
		else
			put_string(b, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		buf_addf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		put_real(b, json_real_value(v));
		break;
	case JSON_TRUE:
		buf_add(b, "true", 4);
		break;
	case JSON_FALSE:
		buf_add(b, "false", 5);
		break;
	case JSON_NULL:
		buf_add(b, "null", 4);
		break;
	}
}

void
json_dump_buf(struct buf *b, const json_t *v)
{
	if (v != NULL)
		put_value(b, v, NULL);
}

size_t
json_dump_holes(struct buf *b, const json_t *v, const json_t *const *want,
    size_t n, struct json_hole *at)
{
	struct holes h = { want, n, 0, at };

	if (v != NULL)
		put_value(b, v, &h);
	return h.found;
}

/*
 * jansson's own column counts characters, not bytes, and is 0 after a line
 * break; its position is the bytes it read, which for a byte it put back
 * (a line break or a control character in a string, a byte that is not
 * UTF-8) is the offending byte's offset, else one past it.
 */
void
json_error_place(const char *text, size_t len, const json_error_t *je,
    int *line, int *column)
{
	static const char *const put_back[] = { "unexpected newline",
	    "control character", "unable to decode byte" };
	size_t at = je->position > 0 ? (size_t)je->position - 1 : 0, i, bol = 0;
	int ln = 1;

	for (i = 0; i < sizeof(put_back) / sizeof(put_back[0]); i++)
		if (strncmp(je->text, put_back[i], strlen(put_back[i])) == 0)
			at = (size_t)je->position;
	/* "']' expected near end of file", "premature end of input" */
	if (strstr(je->text, "near end of file") != NULL ||
	    strstr(je->text, "end of input") != NULL || at > len)
		at = len;
	for (i = 0; i < at; i++)
		if (text[i] == '\n') {
			ln++;
			bol = i + 1;
		}
	*line = ln;
	*column = (int)(at - bol) + 1;
}

json_t *
json_clone(const json_t *v)
{
	const char *key;
	json_t *c, *x;
	size_t i, klen;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		c = json_object();
		json_object_keylen_foreach((json_t *)(uintptr_t)v, key, klen, x)
			json_object_setn_new_nocheck(c, key, klen, json_clone(x));
		return c;
	case JSON_ARRAY:
		c = json_array();
		json_array_foreach(v, i, x)
			json_array_append_new(c, json_clone(x));
		return c;
	default:	/* strings (number texts too) and numbers copy whole */
		return json_deep_copy(v);
	}
}

int
json_same(const json_t *a, const json_t *b)
{
	struct buf x = { 0 }, y = { 0 };
	int same;

	json_dump_buf(&x, a);
	json_dump_buf(&y, b);
	same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
	buf_free(&x);
	buf_free(&y);
	return same;
}
