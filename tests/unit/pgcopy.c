/*
 * pgcopy.c - a field of COPY's text format (pg_copy_field): backslash, tab,
 * newline and carriage return escaped, every other byte as it is, NULL as
 * \N; read back as the server reads it, every byte value comes back.
 */
#include <stdlib.h>

#include "../../lib/store/pg-session.h"
#include "tap.h"

/* f as the server reads a field of COPY's text format (the escapes
 * pg_copy_field writes; \N alone is NULL) into out; its length, or -1 */
static long
unescape(const char *f, size_t len, char *out)
{
	size_t i, n = 0;

	if (len == 2 && f[0] == '\\' && f[1] == 'N')
		return -1;
	for (i = 0; i < len; i++) {
		if (f[i] != '\\') {
			out[n++] = f[i];
			continue;
		}
		switch (f[++i]) {
		case 't': out[n++] = '\t'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		default: out[n++] = f[i]; break;
		}
	}
	return (long)n;
}

static void
field(const char *s, size_t len, const char *want, const char *name)
{
	struct buf b = { 0 };

	pg_copy_field(&b, s, len);
	is_str(b.data, want, name);
	buf_free(&b);
}

int
main(void)
{
	struct buf b = { 0 };
	char all[255], back[510];
	size_t i;

	field(NULL, 0, "\\N", "NULL is \\N");
	field("", 0, "", "the empty text is empty, not NULL");
	field("\\N", 2, "\\\\N", "the text \\N is not NULL");
	field("plain text", 10, "plain text", "plain text as it is");
	field("a\tb\nc\rd\\e", 9, "a\\tb\\nc\\rd\\\\e",
	    "tab, newline, carriage return and backslash escaped");
	field("\\\\t", 3, "\\\\\\\\t", "a backslash before a t stays one");
	field("caf\xc3\xa9 \xe2\x98\x83", 9, "caf\xc3\xa9 \xe2\x98\x83",
	    "UTF-8 as it is");
	field("{\"c\":\"\\u0000\"}", 15, "{\"c\":\"\\\\u0000\"}",
	    "JSON's \\u0000 is text, its backslash escaped");
	field("ab\tcd", 3, "ab\\t", "only len bytes");
	for (i = 0; i < sizeof(all); i++)
		all[i] = (char)(i + 1);
	pg_copy_field(&b, all, sizeof(all));
	ok(memchr(b.data, '\t', b.len) == NULL &&
	    memchr(b.data, '\n', b.len) == NULL &&
	    memchr(b.data, '\r', b.len) == NULL,
	    "no tab, newline or carriage return left raw");
	is_int(unescape(b.data, b.len, back), sizeof(all),
	    "every byte value 1-255 read back: its length");
	ok(memcmp(back, all, sizeof(all)) == 0, "  and its bytes");
	buf_free(&b);
	return done();
}
