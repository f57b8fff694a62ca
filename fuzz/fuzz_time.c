/*
 * fuzz_time.c - libFuzzer harness for ISO 8601 times and durations.
 *
 * A time that parses must format and parse back to the same instant (inside
 * the years the format can say); durations must parse or be refused.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/convctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), out[TS_LEN];
	int64_t ms, again;

	memcpy(s, data, size);
	s[size] = '\0';
	if (ts_parse(s, &ms) == 0) {
		ts_format(ms, out);
		if (ms >= 0 && ms < 253402300800000LL &&
		    (ts_parse(out, &again) != 0 || again != ms))
			abort();
	}
	duration_parse(s, &ms);
	free(s);
	return 0;
}
