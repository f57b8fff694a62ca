/*
 * appendtext.c - a conversation added as its text (store_append_text(), what
 * migrate does with a ChatGPT export's) is written as the same conversation
 * added as an object (store_append()) is: the same bytes, on a new store, on
 * one read by its index, and once parsed after it was added; and what the
 * store caches of it is what its text says.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define T0 "2026-02-04T17:26:40.000Z"
#define T1 "2026-02-04T17:30:00.000Z"
/* a number as jansson reads it, a NUL, a key the store does not know */
#define CONV(ID) "{\"id\":\"" ID "\",\"startedAt\":\"" T0 "\"," \
	"\"endedAt\":\"" T1 "\",\"title\":\"t \\u00e9\",\"summary\":null," \
	"\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"content\":" \
	"\"a\\u0000b \\\"q\\\" \\u65e5\",\"timestamp\":\"" T0 "\"," \
	"\"imported\":{\"weight\":1.0,\"n\":7,\"x\":[null,true]}}," \
	"{\"id\":\"m2\",\"role\":\"assistant\",\"content\":\"ok\"," \
	"\"timestamp\":\"" T1 "\"}],\"titleByHand\":true}"

static json_t *
conv(const char *text)
{
	json_t *v = json_loadb(text, strlen(text), JSON_LOAD_FLAGS, NULL);

	if (v == NULL)
		abort();
	return v;
}

/* the conversation text, dumped as the store writes it (malloc'd) */
static char *
dumped(const char *text, size_t *len)
{
	struct buf b = { 0 };
	json_t *v = conv(text);

	json_dump_buf(&b, v);
	json_decref(v);
	*len = b.len;
	return buf_detach(&b);
}

/*
 * the conversation text into the store at path, as text or as an object,
 * parsed after with parse; opened as commands open it (by its index when
 * it has one): 0, or -1
 */
static int
add(const char *path, const char *text, int as_text, int parse)
{
	struct store *st;
	struct conv *c;
	struct error e;
	char *t;
	size_t len;
	int rc = -1;

	if (store_open_max(&st, path, STORE_WRITE, 1, STORE_MAX_BYTES, &e) < 0 ||
	    store_load_active(st, &e) < 0 ||
	    store_load_ended(st, SIZE_MAX, 0, &e) < 0)
		goto out;
	if (as_text) {
		t = dumped(text, &len);
		c = store_append_text(st, t, len, &e);
	} else
		c = store_append(st, conv(text), &e);
	if (c == NULL)
		goto out;
	if (parse && conv_json(c) == NULL)
		goto out;
	rc = store_save(st, &e) < 0 ? -1 : 0;
out:
	if (rc < 0)
		printf("# %s\n", e.msg);
	store_close(st);
	return rc;
}

/* what a reader does: lists the store, which writes its index */
static void
read_once(const char *path)
{
	struct store *st;
	struct error e;

	if (store_open_max(&st, path, STORE_READ, 0, STORE_MAX_BYTES, &e) == 0) {
		store_load_ended(st, 10, 0, &e);
		store_close(st);
	}
}

static int
read_file(struct buf *b, const char *path)
{
	struct error e;
	int fd = open(path, O_RDONLY), rc;

	if (fd < 0)
		return -1;
	rc = buf_read_fd(b, fd, path, &e);
	close(fd);
	return rc;
}

static int
same_file(const char *a, const char *b)
{
	struct buf x = { 0 }, y = { 0 };
	int same;

	same = read_file(&x, a) == 0 && read_file(&y, b) == 0 &&
	    x.len == y.len && x.len > 0 && memcmp(x.data, y.data, x.len) == 0;
	buf_free(&x);
	buf_free(&y);
	return same;
}

int
main(void)
{
	char dir[] = "/tmp/convctl-unit-text.XXXXXX", a[64], b[64], c[64], cache[64];
	struct store *st;
	struct conv *cv;
	struct error e;
	char *t;
	size_t len;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	setenv("XDG_CACHE_HOME", cache, 1);
	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.json", dir);
	snprintf(c, sizeof(c), "%s/c.json", dir);

	/* what the store caches of it, from its text */
	ok(store_open(&st, a, STORE_WRITE, 1, &e) == 0, "a new store opens");
	t = dumped(CONV("x"), &len);
	cv = store_append_text(st, t, len, &e);
	ok(cv != NULL && strcmp(conv_id(cv), "x") == 0 &&
	    strcmp(conv_title(cv), "t \xc3\xa9") == 0 && conv_summary(cv) == NULL &&
	    conv_message_count(cv) == 2 && conv_started(cv) == 1770226000000LL &&
	    conv_ended(cv) == 1770226200000LL &&
	    conv_last_activity(cv) == 1770226200000LL,
	    "a conversation added as text: its id, title, summary, count, times");
	ok(store_find(st, "x") == cv, "and it is found by its id");
	store_close(st);	/* not saved: its text freed with it */

	ok(add(a, CONV("one"), 0, 0) == 0 && add(b, CONV("one"), 1, 0) == 0 &&
	    same_file(a, b), "a new store: as text, the bytes as an object's");
	read_once(a);
	read_once(b);
	ok(add(a, CONV("two"), 0, 0) == 0 && add(b, CONV("two"), 1, 0) == 0 &&
	    same_file(a, b), "a store read by its index: the same bytes");
	ok(add(a, CONV("three"), 0, 0) == 0 && add(b, CONV("three"), 1, 1) == 0 &&
	    same_file(a, b), "added as text then parsed: the same bytes");
	ok(add(c, CONV("one"), 1, 0) == 0 && add(c, CONV("two"), 1, 0) == 0 &&
	    add(c, CONV("three"), 1, 0) == 0 && same_file(a, c),
	    "three added as text, one at a time, without an index");

	snprintf(cache, sizeof(cache), "rm -rf '%s'", dir);
	if (system(cache) != 0)
		printf("# could not remove %s\n", dir);
	return done();
}
