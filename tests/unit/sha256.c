/*
 * sha256.c - sha256() and sha256_hex() give the known answers of FIPS 180-4
 * and its usual companions.
 */
#include <stdlib.h>
#include <string.h>

#include "convctl.h"
#include "tap.h"

static const char *
hex(const char *s, size_t len)
{
	static char out[SHA256_HEX_LEN];

	sha256_hex(s, len, out);
	return out;
}

int
main(void)
{
	char *million;
	size_t i;
	char buf[200], first[SHA256_HEX_LEN];

	is_str(hex("", 0),
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	    "empty input");
	is_str(hex("abc", 3),
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "abc");
	is_str(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56),
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "448 bits: the padding needs a second block");
	is_str(hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 112),
	    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
	    "896 bits");
	is_str(hex("The quick brown fox jumps over the lazy dog", 43),
	    "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592",
	    "a sentence");
	million = malloc(1000000);
	memset(million, 'a', 1000000);
	is_str(hex(million, 1000000),
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "a million 'a's");
	free(million);
	/* 55, 56 and 64 bytes sit on the padding's edges */
	memset(buf, 'a', sizeof(buf));
	is_str(hex(buf, 55),
	    "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
	    "55 bytes: length fits the first block");
	is_str(hex(buf, 56),
	    "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
	    "56 bytes: length needs a second block");
	is_str(hex(buf, 64),
	    "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
	    "64 bytes: one whole block and a padding block");
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)i;
	memcpy(first, hex(buf, 200), sizeof(first));
	ok(strcmp(first, hex(buf, 199)) != 0, "one byte changes the hash");
	return done();
}
