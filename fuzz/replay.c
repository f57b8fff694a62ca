/*
 * replay.c - runs a libFuzzer harness without libFuzzer: each file named on
 * the command line is read whole and given to LLVMFuzzerTestOneInput() once,
 * as the fuzzer would. Built with the normal compiler (and so under ASan or
 * valgrind in those runs), it lets `make check` replay every seed and every
 * crash the fuzzers found (tests/fuzz-corpus/NAME/) on every machine.
 * A harness that finds a broken invariant aborts; this exits 2 on a file it
 * cannot read.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
replay(const char *name)
{
	FILE *f;
	uint8_t *data = NULL, *p;
	size_t len = 0, cap = 0, n;

	if ((f = fopen(name, "rb")) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", name, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			if ((p = realloc(data, cap)) == NULL) {
				fprintf(stderr, "replay: %s: out of memory\n", name);
				free(data);
				fclose(f);
				return -1;
			}
			data = p;
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", name);
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* the fuzzer's buffer is exactly the input: an overread is caught */
	if ((p = malloc(len ? len : 1)) == NULL)
		abort();
	memcpy(p, data, len);
	free(data);
	LLVMFuzzerTestOneInput(p, len);
	free(p);
	return 0;
}

int
main(int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		if (replay(argv[i]) < 0)
			status = 2;
	return status;
}
