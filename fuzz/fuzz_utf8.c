/*
 * fuzz_utf8.c - libFuzzer harness for utf8_invalid_at() (lib/base/utf8.c, its
 * block paths) and the JSON writer's string escapes (lib/base/json.c).
 *
 * The offset must be where lib/base/utf8.h's rule, walked a character at a time,
 * stops, and the text valid exactly when jansson takes it as a string; a
 * valid text must be written byte for byte as json_dumps() writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/internal.h"
#include "../tests/unit/utf8-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long bad = utf8_invalid_at((const char *)data, size);
	json_t *v = json_stringn((const char *)data, size);
	struct buf b = { 0 };
	char *want;

	if (bad != utf8_walk(data, size) || (bad < 0) != (v != NULL))
		abort();
	if (v != NULL) {
		json_dump_buf(&b, v);
		want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (want == NULL || strlen(want) != b.len ||
		    memcmp(want, b.data, b.len) != 0)
			abort();
		free(want);
		buf_free(&b);
		json_decref(v);
	}
	return 0;
}
