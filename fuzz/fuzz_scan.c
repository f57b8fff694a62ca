/*
 * fuzz_scan.c - differential fuzzing of lib/store/scan.c, and the JSON
 * lexer it reads with (lib/base/lex.c), against jansson.
 *
 * For every input: the scanner's verdict against jansson's parse with
 * JSON_LOAD_FLAGS followed by the store's shape checks (as adopt() in
 * lib/store/store.c makes them: version, lastMigrated, conversations,
 * conv_validate() of each, at most one active, unique ids). jansson refuses
 * two kinds of valid JSON the scanner accepts on purpose (a number past
 * int64_t or the double, \u0000 in a key): on those it has no verdict. It
 * aborts when
 *   - the scanner accepts what jansson refuses for any other reason,
 *   - the scanner refuses what jansson accepts,
 *   - both accept but a field the store caches differs, a conversation's
 *     bytes do not parse to jansson's object, or a top-level member differs;
 *   - bytes marked canonical are not what json_dump_buf() writes of what
 *     lex_json() builds of them;
 *   - store_save() of what store_open() loaded (through the scanner, the
 *     unchanged bytes written back in pieces) does not hold jansson's value
 *     (version 1 added), or its numbers, in order, are not the texts the
 *     input had, or does not give the same text when loaded and saved
 *     again. The store lives in /dev/shm, where fsync costs nothing.
 * Run: scripts/fuzz scan (FUZZ_SECONDS=N), with the tokens of fuzz_scan.dict.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/internal.h"
#include "../lib/store/scan.h"

#define FAIL(...) do {						\
	fprintf(stderr, "scan.c disagrees with jansson: ");	\
	fprintf(stderr, __VA_ARGS__);				\
	fputc('\n', stderr);					\
	abort();						\
} while (0)

static int64_t
time_of(json_t *v)
{
	int64_t ms;

	if (!json_is_string(v))
		return -1;
	if (ts_parse(json_string_value(v), &ms) < 0)
		FAIL("a time jansson's side checked does not parse");
	return ms;
}

/* adopt()'s checks, on jansson's tree */
static int
store_valid(json_t *root)
{
	struct error e;
	json_t *v, *convs, *c;
	size_t i, j, active = 0;

	if (!json_is_object(root))
		return 0;
	v = json_object_get(root, "version");
	if (v != NULL && (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > STORE_VERSION))
		return 0;
	v = json_object_get(root, "lastMigrated");
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return 0;
	convs = json_object_get(root, "conversations");
	if (convs != NULL && !json_is_array(convs))
		return 0;
	json_array_foreach(convs, i, c) {
		if (conv_validate(c, "c", &e) < 0)
			return 0;
		/* as conv_refresh() sees it: an end before 1970 is -1 too */
		if (time_of(json_object_get(c, "endedAt")) < 0 && active++ > 0)
			return 0;
		for (j = 0; j < i; j++)
			if (strcmp(json_str(c, "id", NULL), json_str(
			    json_array_get(convs, j), "id", NULL)) == 0)
				return 0;
	}
	return 1;
}

static void
same_str(const char *what, const char *got, json_t *want)
{
	const char *w = json_is_string(want) ? json_string_value(want) : NULL;

	if ((got == NULL) != (w == NULL) || (got && strcmp(got, w) != 0))
		FAIL("%s: '%s', jansson '%s'", what, got ? got : "(null)",
		    w ? w : "(null)");
}

/* canonical bytes are what the writer writes of their value */
static void
canonical(const char *data, struct scan *sc)
{
	struct buf dump = { 0 };
	json_t *c;
	size_t i;

	for (i = 0; i < sc->n; i++) {
		struct scan_conv *s = &sc->conv[i];

		if ((c = lex_json(data + s->off, s->len)) == NULL)
			FAIL("conversation %zu: lex_json refuses its bytes", i);
		if (s->canonical) {
			dump.len = 0;
			json_dump_buf(&dump, c);
			if (dump.len != s->len || memcmp(dump.data, data + s->off,
			    s->len) != 0)
				FAIL("conversation %zu: canonical bytes are not "
				    "the writer's: '%.*s' against '%s'", i,
				    (int)s->len, data + s->off, dump.data);
		}
		json_decref(c);
	}
	buf_free(&dump);
}

static void
compare(const char *data, struct scan *sc, json_t *root)
{
	json_t *convs = json_object_get(root, "conversations"), *c, *msgs, *v;
	json_error_t je;
	size_t i, n;

	if (sc->n != json_array_size(convs))
		FAIL("%zu conversations, jansson %zu", sc->n, json_array_size(convs));
	for (i = 0; i < sc->n; i++) {
		struct scan_conv *s = &sc->conv[i];

		c = json_array_get(convs, i);
		msgs = json_object_get(c, "messages");
		n = json_array_size(msgs);
		same_str("id", s->id, json_object_get(c, "id"));
		same_str("title", s->title, json_object_get(c, "title"));
		same_str("summary", s->summary, json_object_get(c, "summary"));
		if (s->started != time_of(json_object_get(c, "startedAt")) ||
		    s->ended != time_of(json_object_get(c, "endedAt")))
			FAIL("conversation %zu: times differ", i);
		if (s->nmsg != n)
			FAIL("conversation %zu: %zu messages, jansson %zu", i,
			    s->nmsg, n);
		if (s->last != (n ? time_of(json_object_get(json_array_get(msgs,
		    n - 1), "timestamp")) : s->started))
			FAIL("conversation %zu: last activity differs", i);
		v = json_loadb(data + s->off, s->len, JSON_LOAD_FLAGS, &je);
		if (v == NULL || !json_equal(v, c))
			FAIL("conversation %zu: its bytes are not its value", i);
		json_decref(v);
	}
	if (sc->nmember != json_object_size(root) - (convs != NULL))
		FAIL("%zu top-level members, jansson %zu", sc->nmember,
		    json_object_size(root) - (convs != NULL));
	for (i = 0; i < sc->nmember; i++) {
		struct scan_member *m = &sc->member[i];

		v = json_loadb(data + m->off, m->len, JSON_LOAD_FLAGS |
		    JSON_DECODE_ANY, &je);
		if (v == NULL || !json_equal(v, json_object_getn(root, m->key,
		    m->klen)))
			FAIL("member '%s' differs", m->key);
		json_decref(v);
	}
}

/* the number tokens of p[0..len), one a line */
static void
number_tokens(struct buf *b, const char *p, size_t len)
{
	size_t i = 0, j;

	while (i < len) {
		if (p[i] == '"') {
			for (i++; i < len && p[i] != '"'; i++)
				if (p[i] == '\\')
					i++;
			i++;
		} else if (p[i] == '-' || (p[i] >= '0' && p[i] <= '9')) {
			for (j = i; j < len && strchr("0123456789+-.eE", p[j]) &&
			    p[j] != '\0'; j++)
				;
			buf_add(b, p + i, j - i);
			buf_addc(b, '\n');
			i = j;
		} else
			i++;
	}
}

/* the numbers of a store the scanner accepted, in the order they are
 * written back: conversations, then the other members but version */
static void
store_numbers(struct buf *b, const char *data, size_t len)
{
	struct scan sc;
	size_t i;

	if (scan_store(data, len, &sc) < 0)
		FAIL("the saved store does not scan");
	for (i = 0; i < sc.n; i++)
		number_tokens(b, data + sc.conv[i].off, sc.conv[i].len);
	for (i = 0; i < sc.nmember; i++)
		if (strcmp(sc.member[i].key, "version") != 0)
			number_tokens(b, data + sc.member[i].off,
			    sc.member[i].len);
	scan_free(&sc);
}

static void
save_and_read(const char *path, struct buf *got)
{
	struct store *st;
	struct error e;
	int fd;

	if (store_open(&st, path, STORE_WRITE, 0, &e) < 0)
		FAIL("store_open refused what the scanner accepts: %s", e.msg);
	if (store_save(st, &e) < 0)
		FAIL("store_save: %s", e.msg);
	store_close(st);
	if ((fd = open(path, O_RDONLY)) < 0 || buf_read_fd(got, fd, path, &e) < 0)
		FAIL("cannot read '%s'", path);
	close(fd);
}

static char dir[64], path[80], lockpath[96];

static void
remove_dir(void)
{
	unlink(path);
	unlink(lockpath);
	rmdir(dir);
}

/* root: jansson's tree of the input, NULL when it cannot read it */
static void
round_trip(const char *data, size_t len, json_t *root)
{
	struct buf want = { 0 }, got = { 0 }, again = { 0 }, nums = { 0 };
	json_error_t je;
	json_t *saved;
	int fd;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/dev/shm/convctl-fuzz-%d", (int)getpid());
		snprintf(path, sizeof(path), "%s/store.json", dir);
		snprintf(lockpath, sizeof(lockpath), "%s.lock", path);
		mkdir(dir, 0700);
		atexit(remove_dir);
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    write(fd, data, len) != (ssize_t)len || close(fd) < 0)
		FAIL("cannot write '%s'", path);	/* the harness's own trouble */
	save_and_read(path, &got);
	if (root != NULL) {
		/* the value: jansson's of the input, with the version written */
		saved = json_loadb(got.data, got.len, JSON_LOAD_FLAGS, &je);
		json_object_set_new(root, "version", json_integer(STORE_VERSION));
		if (json_object_get(root, "conversations") == NULL)
			json_object_set_new(root, "conversations", json_array());
		if (saved == NULL || !json_equal(saved, root))
			FAIL("the saved store is not the value loaded:\n%s", got.data);
		json_decref(saved);
	}
	/* the numbers: each as the input wrote it */
	store_numbers(&want, data, len);
	store_numbers(&nums, got.data, got.len);
	if (want.len != nums.len ||
	    (want.len > 0 && memcmp(want.data, nums.data, want.len) != 0))
		FAIL("number texts differ:\n%s\nagainst the input's:\n%s",
		    nums.data, want.data);
	/* and loading what was saved and saving it again changes nothing */
	save_and_read(path, &again);
	if (again.len != got.len || memcmp(again.data, got.data, got.len) != 0)
		FAIL("saved again, the text changes:\n%s\nagainst:\n%s",
		    again.data, got.data);
	buf_free(&want);
	buf_free(&got);
	buf_free(&again);
	buf_free(&nums);
}

int LLVMFuzzerTestOneInput(const unsigned char *, size_t);

int
LLVMFuzzerTestOneInput(const unsigned char *in, size_t len)
{
	/* a copy exactly len long, so reading past it is caught */
	char *data = malloc(len ? len : 1);
	struct scan sc;
	json_error_t je;
	json_t *root;
	int rc, ok, unread;

	memcpy(data, in, len);
	rc = scan_store(data, len, &sc);
	root = json_loadb(data, len, JSON_LOAD_FLAGS, &je);
	/* valid JSON jansson cannot read: it has no verdict */
	unread = root == NULL &&
	    (json_error_code(&je) == json_error_null_byte_in_key ||
	    json_error_code(&je) == json_error_numeric_overflow);
	ok = root != NULL && store_valid(root);
	if (rc == 0 && !ok && !unread)
		FAIL("accepted what jansson refuses (%s)",
		    root ? "its shape" : je.text);
	if (rc == SCAN_INVALID && ok)
		FAIL("refused what jansson accepts");
	if (rc == 0) {
		if (root != NULL)
			compare(data, &sc, root);
		canonical(data, &sc);
		round_trip(data, len, root);
	}
	scan_free(&sc);
	json_decref(root);
	free(data);
	return 0;
}
