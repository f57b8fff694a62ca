/*
 * ids.c - new conversation and message ids, unique in the store: who holds
 * the conversations names them (lifecycle.c and organize.c both make some).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../internal.h"

static uint32_t
random32(void)
{
	static uint32_t fallback;
	uint32_t r;

	if (os_random32(&r) == 0)
		return r;
	/* no entropy yet (early boot): ids stay unique by the check below */
	return (uint32_t)getpid() * 2654435761u + ++fallback;
}

static int
has_message_id(json_t *msgs, const char *id)
{
	json_t *m;
	size_t i;
	const char *mid;

	json_array_foreach(msgs, i, m)
		if ((mid = json_str(m, "id", NULL)) != NULL && strcmp(mid, id) == 0)
			return 1;
	return 0;
}

/* conv-<ms> as SmartHole names them, with -N after it if that is taken */
char *
conv_new_id(struct store *st, int64_t at, struct error *e)
{
	struct buf b = { 0 };
	int n = 2;

	buf_addf(&b, "conv-%lld", (long long)at);
	for (;;) {
		if (store_load_id(st, b.data, e) < 0) {
			buf_free(&b);
			return NULL;
		}
		if (store_find(st, b.data) == NULL)
			return buf_detach(&b);
		b.len = 0;
		buf_addf(&b, "conv-%lld-%d", (long long)at, n++);
	}
}

/* m-<ms>-<random>, not yet among msgs */
char *
message_new_id(json_t *msgs, int64_t at)
{
	struct buf id = { 0 };

	do {
		id.len = 0;
		buf_addf(&id, "m-%lld-%08x", (long long)at, random32());
	} while (has_message_id(msgs, id.data));
	return buf_detach(&id);
}
