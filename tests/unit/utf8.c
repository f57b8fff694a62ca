/*
 * utf8.c - utf8_invalid_at, utf8_count and tokens_estimate: strict UTF-8 as
 * RFC 3629 has it, the same rules jansson applies when it reads the store.
 */
#include "convctl.h"
#include "tap.h"

#define AT(s, want, name) is_int(utf8_invalid_at((s), sizeof(s) - 1), (want), (name))

int
main(void)
{
	AT("", -1, "the empty string is valid");
	AT("plain ascii", -1, "ASCII is valid");
	AT("a\0b", -1, "a NUL byte is valid");
	AT("caf\xc3\xa9", -1, "two-byte sequences are valid");
	AT("\xe6\xbc\xa2\xe5\xad\x97", -1, "three-byte CJK is valid");
	AT("\xf0\x9f\x98\x80", -1, "a four-byte emoji is valid");
	AT("\xf4\x8f\xbf\xbf", -1, "U+10FFFF is valid");
	AT("\xef\xbf\xbf", -1, "U+FFFF is valid");
	AT("\xee\x80\x80", -1, "U+E000, just past the surrogates, is valid");
	AT("\xed\x9f\xbf", -1, "U+D7FF, just before the surrogates, is valid");

	AT("caf\xe9 au lait", 3, "a Latin-1 byte is named by its offset");
	AT("\x80", 0, "a lone continuation byte");
	AT("ab\xbf", 2, "a continuation byte after ASCII");
	AT("\xc0\x80", 0, "overlong NUL (C0 80)");
	AT("\xc1\xbf", 0, "overlong two-byte form (C1)");
	AT("x\xe0\x80\xaf", 1, "overlong three-byte form");
	AT("x\xf0\x8f\xbf\xbf", 1, "overlong four-byte form");
	AT("ok \xed\xa0\x80", 3, "a high surrogate (U+D800)");
	AT("ok \xed\xbf\xbf", 3, "a low surrogate (U+DFFF)");
	AT("\xf4\x90\x80\x80", 0, "above U+10FFFF");
	AT("\xf5\x80\x80\x80", 0, "F5 never starts a sequence");
	AT("\xff", 0, "FF never appears");
	AT("\xfe", 0, "FE never appears");
	AT("ab\xe6\xbc", 2, "a sequence cut short by the end");
	AT("ab\xe6\xbcx", 2, "a sequence cut short by ASCII");
	AT("\xf0\x9f\x98", 0, "a four-byte sequence missing its last byte");
	AT("\xe6\xbc\xa2\xe5\xad\x97\xff", 6, "the offset counts bytes, not characters");
	AT("\xf0\x9f\x98\x80\xc3", 4, "a lead byte at the very end");
	is_int(utf8_invalid_at("\xc3\xa9", 1), 0,
	    "only len bytes are looked at: a sequence cut by len");

	is_int(utf8_count("", 0), 0, "no code points in nothing");
	is_int(utf8_count("abc", 3), 3, "ASCII counts bytes");
	is_int(utf8_count("\xe6\xbc\xa2\xe5\xad\x97", 6), 2, "CJK counts characters");
	is_int(utf8_count("\xf0\x9f\x98\x80!", 5), 2, "an emoji is one");
	is_int(utf8_count("a\0b", 3), 3, "a NUL byte is one");

	/* a token for every 4 code points, rounded up */
	is_int(tokens_estimate("", 0), 0, "nothing costs no tokens");
	is_int(tokens_estimate("a", 1), 1, "1 code point is 1 token");
	is_int(tokens_estimate("abcd", 4), 1, "4 code points are 1 token");
	is_int(tokens_estimate("abcde", 5), 2, "5 code points are 2 tokens");
	is_int(tokens_estimate("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97"
	    "\xe6\xbc\xa2", 15), 2, "5 CJK characters are 2 tokens, not 4");
	return done();
}
