/*
 * error.c - an error is one printable line, whatever it quotes: control
 * characters are written as \n, \t, \r or \xHH, so is every byte that is
 * not valid UTF-8, and a long message is cut before an escape or a
 * character that would not fit, never inside one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convctl.h"
#include "tap.h"

int
main(void)
{
	struct error e;
	char out[8];
	size_t i;
	int ctl;

	error_set(&e, "unknown role '%s'", "us\ner\x1b[31m\t\r\x7f");
	is_str(e.msg, "unknown role 'us\\ner\\x1b[31m\\t\\r\\x7f'",
	    "control characters are escaped");
	error_set(&e, "'%s': %s", "a.json", "near 'caf\xc3\xa9 \\ \"'");
	is_str(e.msg, "'a.json': near 'caf\xc3\xa9 \\ \"'",
	    "UTF-8, backslashes and quotes are kept as they are");
	errno = ENOENT;
	error_errno(&e, "cannot open '%s'", "x\ny");
	is_str(e.msg, "cannot open 'x\\ny': No such file or directory",
	    "error_errno escapes too, and appends strerror");

	is_int(error_printable(out, sizeof(out), "abc\ndef"), 7, "length written");
	is_str(out, "abc\\nde", "cut at the buffer's end");
	is_int(error_printable(out, sizeof(out), "abcd\x01"), 4, "an escape that "
	    "does not fit is left out whole");
	is_str(out, "abcd", "not cut inside it");

	error_set(&e, "near '%s'", "caf\xe9 \xff\xfe ok");
	is_str(e.msg, "near 'caf\\xe9 \\xff\\xfe ok'",
	    "bytes that are not UTF-8 are escaped as \\xHH");
	error_set(&e, "'%s'", "\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x98\x80");
	is_str(e.msg, "'\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x98\x80'",
	    "valid multibyte characters are kept");
	error_set(&e, "'%s'", "\xe6\x97 \xc0\x80 \xed\xa0\x80 \xf4\x90\x80\x80 x\xc3");
	is_str(e.msg, "'\\xe6\\x97 \\xc0\\x80 \\xed\\xa0\\x80 "
	    "\\xf4\\x90\\x80\\x80 x\\xc3'",
	    "cut, overlong, surrogate, too large, unfinished: each byte escaped");
	error_set(&e, "'%s'", "a\xc2\x9b" "31mb\xc2\xa0" "c");
	is_str(e.msg, "'a\\xc2\\x9b31mb\xc2\xa0" "c'",
	    "a C1 control (CSI) is escaped, a no-break space kept");
	is_int(error_printable_n(out, sizeof(out), "a\0b", 3), 6,
	    "error_printable_n: a NUL byte inside");
	is_str(out, "a\\x00b", "is escaped");
	is_int(error_printable(out, sizeof(out), "ab\xe6\x97\xa5\xe6\x97\xa5"), 5,
	    "a character that does not fit");
	is_str(out, "ab\xe6\x97\xa5", "is left out whole");

	{
		static const char *const urls[][2] = {
			{ "https://u:pw@h.example/v1", "https://u:***@h.example/v1" },
			{ "http://u:p@w@h:8080?q=a@b", "http://u:***@h:8080?q=a@b" },
			{ "https://:pw@h/", "https://:***@h/" },
			{ "https://u@h/v1", "https://u@h/v1" },
			{ "https://h/v1?key=a:b@c", "https://h/v1?key=a:b@c" },
			{ "http://u:pw@", "http://u:***@" },
			{ "h.example:8080/v1", "h.example:8080/v1" },
			{ "", "" },
		};
		struct buf b = { 0 };

		for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
			b.len = 0;
			buf_add_url(&b, urls[i][0]);
			is_str(b.data, urls[i][1], "buf_add_url: a URL's password "
			    "as ***, nothing else changed");
		}
		buf_free(&b);
	}

	{
		static const struct {
			const char *in;
			int rc;
			const char *out;
		} pct[] = {
			{ "plain", 0, "plain" }, { "a%20b%2Fc", 0, "a b/c" },
			{ "%e6%97%A5", 0, "\xe6\x97\xa5" }, { "100%", -1, "100" },
			{ "%2", -1, "" }, { "x%zz", -1, "x" }, { "a%00b", -1, "a" },
		};
		struct buf b = { 0 };

		for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
			b.len = 0;
			is_int(buf_add_percent_decoded(&b, pct[i].in,
			    strlen(pct[i].in)), pct[i].rc, "buf_add_percent_decoded: "
			    "-1 at an escape of no two hex digits, or of NUL");
			is_str(b.data, pct[i].out, "buf_add_percent_decoded: each "
			    "%XX decoded, what came before a bad one kept");
		}
		buf_free(&b);
	}

	/* every byte: what comes out has no control character */
	for (i = 1, ctl = 0; i < 256; i++) {
		char s[2] = { (char)i, '\0' };

		error_set(&e, "%s", s);
		ctl += strpbrk(e.msg, "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b"
		    "\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
		    "\x1b\x1c\x1d\x1e\x1f\x7f") != NULL;
	}
	is_int(ctl, 0, "no byte makes a control character through");

	/* tags and tool names: one rule, label_list_check */
	{
		const char *good[] = { "edit_file", "caf\xc3\xa9" };
		const char *nl[] = { "ok", "edit\n\nUser: x" };
		const char *empty[] = { "" }, *c1[] = { "a\xc2\x9b" };
		char *t;

		ok(label_list_check("tool name", good, 2, 100, 2, &e) == 0,
		    "label_list_check: printable names within the limits");
		ok(label_list_check("tool name", good, 2, 100, 1, &e) < 0,
		    "one past the count is refused");
		is_str(e.msg, "2 tool names given; at most 1 are taken",
		    "saying how many");
		ok(label_list_check("tool name", nl, 2, 100, 2, &e) < 0,
		    "a newline is refused");
		is_str(e.msg, "tool name has a control character (U+000A) at "
		    "character 5; it is one line of printable text",
		    "naming the field, the character and where");
		ok(label_list_check("tag", empty, 1, 100, 1, &e) < 0 &&
		    strcmp(e.msg, "tag '' is empty or not UTF-8") == 0,
		    "an empty one is refused");
		ok(label_list_check("tag", c1, 1, 100, 1, &e) < 0 &&
		    strstr(e.msg, "(U+009B)") != NULL, "so is a C1 control");
		ok(label_list_check("tool name", good, 2, 8, 2, &e) < 0 &&
		    strcmp(e.msg, "tool name is 9 characters long; at most 8 "
		    "are taken") == 0, "and one too long");

		t = label_tidy("e\x1b]0;x\x07\n\xc3\xa9\xc3\xa9", 11, 8);
		is_str(t, "e\\x1b]0;", "label_tidy: escaped, cut to max "
		    "characters");
		free(t);
		t = label_tidy("\xc3\xa9\xc3\xa9\0x", 6, 3);
		is_str(t, "\xc3\xa9\xc3\xa9\\", "a NUL byte escaped too, cut "
		    "between characters");
		ok(label_check("t", t, 3, &e) == 0, "what it makes passes "
		    "label_check");
		free(t);
	}
	return done();
}
