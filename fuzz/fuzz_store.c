/*
 * fuzz_store.c - libFuzzer harness for the store loader.
 *
 * Goes through store_open on a file, as convctl does (the loader's internals
 * are private to store.c). A store that loads must render in every format,
 * take one more message, save, and load again: a write never turns a store
 * convctl accepted into one it refuses.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/convctl.h"

static char dir[64], path[96];

static void
cleanup(void)
{
	char lock[128];

	snprintf(lock, sizeof(lock), "%s.lock", path);
	unlink(path);
	unlink(lock);
	rmdir(dir);
}

static void
setup(void)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(dir, sizeof(dir), "%s/fuzz-store.XXXXXX", base);
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/store.json", dir);
	atexit(cleanup);
}

static void
put(const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

static void
render_all(struct store *st)
{
	static const enum format fmts[] = { FMT_TEXT, FMT_MARKDOWN, FMT_JSON,
	    FMT_OPENAI, FMT_JSONL };
	struct prompt_request pr = { .last = 2, .max_tokens = 50 };
	struct buf out = { 0 };
	struct error e;
	struct conv **ended;
	size_t i, n;

	for (i = 0; i < store_count(st); i++)
		render_conv(&out, store_conv(st, i), fmts[i % 5], (int)(i & 1),
		    &e);
	ended = store_ended(st, &n);
	render_recent(&out, ended, n, 1);
	render_recent(&out, ended, n, 0);
	free(ended);
	if (store_active(st) != NULL)
		for (i = 0; i < 5; i++) {
			pr.format = fmts[i];
			render_prompt(&out, store_active(st), &pr, &e);
		}
	buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct add_request rq = { .role = ROLE_ASSISTANT, .text = "fuzz",
	    .len = 4, .at = 4102444800000LL, .idle_timeout = 1800000 };
	struct prune_request pr = { .max = 2, .older_than = -1, .dry_run = 1 };
	struct add_result res;
	struct store *st = NULL;
	struct error e;
	char **ids;
	size_t n;

	if (dir[0] == '\0')
		setup();
	put(data, size);
	if (store_open(&st, path, STORE_READ, 0, &e) < 0) {
		if (e.msg[0] == '\0')
			abort();	/* every refusal says why */
		return 0;
	}
	render_all(st);
	if (conv_prune(st, &pr, &ids, &n, &e) == 0)
		strv_free(ids);
	store_close(st);

	if (store_open(&st, path, STORE_WRITE, 0, &e) < 0)
		abort();	/* it loaded a moment ago */
	if (conv_add(st, &rq, &res, &e) == ADD_DONE && store_save(st, &e) < 0)
		abort();
	store_close(st);
	if (store_open(&st, path, STORE_READ, 0, &e) < 0) {
		fprintf(stderr, "saved store no longer loads: %s\n", e.msg);
		abort();
	}
	store_close(st);
	return 0;
}
