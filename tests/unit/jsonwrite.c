/*
 * jsonwrite.c - json_dump_buf() writes strings byte for byte as jansson's
 * json_dumps(JSON_COMPACT) does: every byte that needs an escape, at every
 * offset of the writer's 32- and 16-byte blocks and in the tail after them;
 * a string escaped in parts (convctl run's spool) as it is whole, and a
 * string left out as a hole.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

/* 1 when both writers agree on the string s[0..len); the first
 * disagreement is printed */
static int
agrees(const char *s, size_t len, int *said)
{
	json_t *v = json_stringn(s, len);
	struct buf b = { 0 };
	char *want;
	int same;

	if (v == NULL) {
		if (!(*said)++)
			printf("#   jansson refused a test string\n");
		return 0;
	}
	json_dump_buf(&b, v);
	want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	same = want != NULL && b.len == strlen(want) &&
	    memcmp(b.data, want, b.len) == 0;
	if (!same && !(*said)++)
		printf("#   got %s\n#   want %s\n", b.data, want ? want : "(null)");
	free(want);
	buf_free(&b);
	json_decref(v);
	return same;
}

/* 1 when s[0..len) escaped in two parts cut at every place is the inside of
 * the string json_dump_buf() writes */
static int
parts_agree(const char *s, size_t len)
{
	json_t *v = json_stringn_nocheck(s, len);
	struct buf whole = { 0 }, parts = { 0 };
	size_t cut;
	int same = 1;

	json_dump_buf(&whole, v);
	for (cut = 0; cut <= len && same; cut++) {
		parts.len = 0;
		json_escape(&parts, s, cut);
		json_escape(&parts, s + cut, len - cut);
		same = parts.len == whole.len - 2 &&
		    memcmp(parts.data, whole.data + 1, parts.len) == 0;
	}
	buf_free(&whole);
	buf_free(&parts);
	json_decref(v);
	return same;
}

static void
holes(void)
{
	json_t *msg = json_pack("{s:s, s:[s, s]}", "id", "m-1", "parts", "a\"b",
	    "c"), *hole = json_array_get(json_object_get(msg, "parts"), 0);
	const json_t *want[2] = { NULL, hole };
	struct json_hole at[2];
	struct buf b = { 0 };
	size_t n;

	n = json_dump_holes(&b, msg, want, 2, at);
	is_str(b.data, "{\"id\":\"m-1\",\"parts\":[\"\",\"c\"]}",
	    "a hole is written as an empty string");
	is_int(n == 1 && at[0].which == 1 ? (long)at[0].at : -1,
	    (long)strlen("{\"id\":\"m-1\",\"parts\":[\""),
	    "and its offset is between the quotes");
	b.len = 0;
	want[1] = NULL;
	is_int(json_dump_holes(&b, msg, want, 2, at), 0, "no hole: none met");
	json_decref(msg);
	buf_free(&b);
}

int
main(void)
{
	static const char text[] = "plain caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac "
	    "\xf0\x9f\x99\x82 text, long enough for two blocks and a tail ~\x7f";
	char s[sizeof(text) + 8];
	size_t at, len, bad = 0, n = 0;
	unsigned c;
	int said = 0;

	/* each byte below 0x20, the quote and the backslash, alone and at
	 * each place in texts of each length, whose blocks it falls in */
	for (c = 0; c < 0x80; c++) {
		if (c >= 0x20 && c != '"' && c != '\\' && c != 'a')
			continue;
		for (len = 1; len <= sizeof(text) - 1; len++) {
			/* not cut in a character: the text stays UTF-8 */
			if (((unsigned char)text[len] & 0xc0) == 0x80)
				continue;
			for (at = 0; at < len; at++) {
				if ((unsigned char)text[at] >= 0x80)
					continue;
				memcpy(s, text, len);
				s[at] = (char)c;
				n++;
				bad += !agrees(s, len, &said);
			}
		}
	}
	printf("# %zu strings\n", n);
	ok(bad == 0, "every escaped byte at every offset: jansson's bytes");
	ok(agrees("", 0, &said), "the empty string");
	ok(agrees("\"\\\"\\\n\r\t\b\f\x01\x1f", 11, &said),
	    "nothing but escapes");
	ok(parts_agree(text, sizeof(text) - 1) &&
	    parts_agree("a\"\\\n\x01\0\xc3\xa9\x1f\"", 10),
	    "escaped in two parts cut anywhere: as escaped whole");
	holes();
	return done();
}
