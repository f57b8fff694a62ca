/*
 * lifecycle.c - conversations start, take messages, end on the idle timeout
 * or when asked, and are pruned; message ids stay unique.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convctl.h"
#include "tap.h"

#define MIN 60000LL
#define IDLE (30 * MIN)	/* the idle timeout every add and end here uses */
#define T0 1770226000000LL	/* 2026-02-04T17:26:40Z */

static char dir[64], path[128];

static int
add_clock(struct store *st, int64_t at, const char *text,
    struct add_result *res, int clock)
{
	struct add_request rq = { .role = ROLE_USER, .text = text,
	    .len = strlen(text), .at = at, .idle_timeout = IDLE,
	    .clock = clock };
	struct error e;
	int rc = conv_add(st, &rq, res, &e);

	if (rc < 0)
		printf("# conv_add: %s\n", e.msg);
	return rc;
}

/* a time the user gave (--at) */
static int
add(struct store *st, int64_t at, const char *text, struct add_result *res)
{
	return add_clock(st, at, text, res, 0);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the message ids of c, from its JSONL rendering: {"id":"...", ... a line */
static char **
message_ids(struct conv *c, size_t *n)
{
	struct prompt_request rq = { FMT_JSONL, -1, -1, 0, 0, NULL };
	struct buf b = { 0 };
	struct error e;
	char **ids, *line, *end, *q;
	size_t k = 0;

	render_prompt(&b, c, &rq, &e);
	ids = xmalloc((conv_message_count(c) + 1) * sizeof(*ids));
	for (line = b.data; line != NULL && *line != '\0'; line = end + 1) {
		if ((end = strchr(line, '\n')) == NULL)
			break;
		*end = '\0';
		if (strncmp(line, "{\"id\":\"", 7) != 0 ||
		    (q = strchr(line + 7, '"')) == NULL)
			continue;
		*q = '\0';
		ids[k++] = xstrdup(line + 7);
	}
	buf_free(&b);
	ids[k] = NULL;
	*n = k;
	return ids;
}

/*
 * Ties in endedAt: the later in the file counts as newer, for recent and for
 * what prune keeps; prune and delete take out exactly what they name.
 */
static void
test_ties(void)
{
	/* file order c0..c5; endedAt minutes 3 1 3 2 1 3 */
	static const int minute[] = { 3, 1, 3, 2, 1, 3 };
	static const char *const newest[] = { "c5", "c2", "c0", "c3", "c4", "c1" };
	static const char *const pruned[] = { "c1", "c4", "c3", "c0" };
	struct prune_request prq = { .max = 2, .older_than = -1 };
	char *del[] = { "c5" }, **ids = NULL, **out = NULL, ts[TS_LEN];
	struct store *st;
	struct conv **ended;
	struct error e;
	struct buf b = { 0 };
	size_t i, n, nout;
	FILE *f;
	int good;

	buf_adds(&b, "{\"version\": 1, \"conversations\": [");
	for (i = 0; i < 6; i++) {
		ts_format(T0 + minute[i] * MIN, ts);
		buf_addf(&b, "%s{\"id\": \"c%zu\", \"startedAt\": \"%s\", "
		    "\"endedAt\": \"%s\", \"messages\": []}", i ? ", " : "", i,
		    ts, ts);
	}
	buf_adds(&b, "]}");
	if ((f = fopen(path, "w")) == NULL || fwrite(b.data, 1, b.len, f) != b.len ||
	    fclose(f) != 0) {
		ok(0, "write the store with ties");
		return;
	}
	buf_free(&b);
	if (store_open(&st, path, STORE_WRITE, 1, &e) < 0) {
		ok(0, e.msg);
		return;
	}
	ended = store_ended(st, &n);
	for (i = 0, good = n == 6; good && i < n; i++)
		good = strcmp(conv_id(ended[i]), newest[i]) == 0;
	ok(good, "equal endedAt: the later in the file is the newer");
	free(ended);

	is_int(conv_prune(st, &prq, &ids, &n, &e), 0, "prune --max 2 with ties");
	for (i = 0, good = n == 4; good && i < n; i++)
		good = strcmp(ids[i], pruned[i]) == 0;
	ok(good, "removes the four older, oldest first");
	strv_free(ids);
	ok(store_count(st) == 2 && store_find(st, "c2") != NULL &&
	    store_find(st, "c5") != NULL, "and keeps the two newest");

	is_int(conv_delete(st, del, 1, 0, 0, &out, &nout, &e), 0, "delete c5");
	ok(nout == 1 && store_count(st) == 1 && store_find(st, "c5") == NULL &&
	    store_find(st, "c2") != NULL, "leaves only c2");
	strv_free(out);
	store_close(st);
}

int
main(void)
{
	struct add_result res;
	struct store *st;
	struct conv *c, **ended;
	struct error e;
	const char *id;
	char first[64], **ids, ts[TS_LEN];
	size_t n, i, dups;
	struct prune_request prq = { .max = 1, .older_than = -1, .dry_run = 1 };

	snprintf(dir, sizeof(dir), "%s", "/tmp/convctl-unit.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/store.json", dir);
	if (store_open(&st, path, STORE_WRITE, 1, &e) < 0) {
		printf("# %s\n", e.msg);
		return 1;
	}
	is_int(store_count(st), 0, "a missing store is empty");
	ok(store_active(st) == NULL, "with nothing active");

	is_int(add(st, T0, "one", &res), 0, "the first message is added");
	ok(res.started, "and starts a conversation");
	ok(res.ended_id == NULL, "ending none");
	is_str(res.conv_id, "conv-1770226000000", "named conv-<ms> as SmartHole names them");
	snprintf(first, sizeof(first), "%s", res.conv_id);

	is_int(add(st, T0 + 29 * MIN, "two", &res), 0, "29 minutes later");
	ok(!res.started, "joins the conversation");
	is_str(res.conv_id, first, "the same one");
	is_int(add(st, T0 + 59 * MIN, "three", &res), 0, "30 minutes after that, exactly");
	ok(!res.started, "still joins");
	is_int(conv_message_count(store_active(st)), 3, "three messages now");

	is_int(add(st, T0 + 90 * MIN, "four", &res), 0, "31 minutes after the last");
	ok(res.started, "starts a new conversation");
	is_str(res.ended_id, first, "and ends the old one");
	c = store_find(st, first);
	is_int(conv_ended(c), T0 + 59 * MIN, "at its last message's time");
	is_int(conv_message_count(c), 3, "with its messages kept");
	is_int(store_count(st), 2, "two conversations");
	is_int(conv_started(store_active(st)), T0 + 90 * MIN, "the new one starts at the message");
	ok(strcmp(conv_id(store_active(st)), first) != 0, "under a new id");

	is_int(add(st, T0 + 89 * MIN, "back in time", &res), 2,
	    "an --at before the active one's last message is refused");
	is_int(conv_message_count(store_active(st)), 1, "and not added");
	is_int(add_clock(st, T0 + 10 * MIN, "clock stepped back", &res, 1), 0,
	    "a clock behind the last message (hours: past the idle timeout)");
	ok(!res.started && res.ended_id == NULL && res.at == T0 + 90 * MIN &&
	    res.last == T0 + 90 * MIN, "joins, at the last message's time");
	is_int(conv_message_count(store_active(st)), 2, "and is added");

	/* ending */
	is_int(conv_end(st, T0 + 95 * MIN, IDLE, &id, &e), END_DONE, "end ends the active one");
	is_int(conv_ended(store_find(st, id)), T0 + 95 * MIN, "at the time given");
	ok(store_active(st) == NULL, "nothing is active then");
	is_int(conv_end(st, T0 + 96 * MIN, IDLE, &id, &e), END_NOTHING_ACTIVE, "end with nothing active says so");
	is_int(add(st, T0 + 96 * MIN, "five", &res), 0, "after end");
	ok(res.started && res.ended_id == NULL, "the next message starts a new one");
	is_int(conv_end(st, T0, IDLE, &id, &e), END_DONE, "an end with a clock behind the last message");
	is_int(conv_ended(store_find(st, id)), T0 + 96 * MIN, "ends at the last message");

	/* recent order and pruning */
	ended = store_ended(st, &n);
	is_int(n, 3, "three ended");
	ok(n == 3 && conv_ended(ended[0]) > conv_ended(ended[1]) &&
	    conv_ended(ended[1]) > conv_ended(ended[2]), "newest endedAt first");
	free(ended);
	ids = NULL;
	is_int(conv_prune(st, &prq, &ids, &n, &e), 0, "a dry-run prune");
	is_int(n, 2, "would remove two");
	is_str(ids[0], first, "the oldest endedAt first");
	is_int(store_count(st), 3, "but removes none");
	strv_free(ids);
	prq.dry_run = 0;
	conv_prune(st, &prq, NULL, NULL, &e);
	is_int(store_count(st), 1, "a prune to 1 keeps one");
	ok(store_find(st, first) == NULL, "and the oldest is gone");

	/* many messages in one millisecond: every id distinct */
	is_int(add(st, T0 + 200 * MIN, "same ms 0", &res), 0, "a new conversation");
	for (i = 1; i < 2000; i++)
		if (add(st, T0 + 200 * MIN, "same ms", &res) < 0)
			break;
	is_int(i, 2000, "2000 messages in one millisecond are added");
	c = store_active(st);
	ids = message_ids(c, &n);
	is_int(n, 2000, "each has an id");
	qsort(ids, n, sizeof(*ids), cmp_str);
	for (i = 1, dups = 0; i < n; i++)
		if (strcmp(ids[i - 1], ids[i]) == 0)
			dups++;
	is_int(dups, 0, "and no two ids are the same");
	strv_free(ids);

	/* conversations started in one millisecond get distinct ids too */
	conv_end(st, T0 + 200 * MIN, IDLE, &id, &e);
	snprintf(first, sizeof(first), "%s", id);
	add(st, T0 + 200 * MIN, "again", &res);
	ok(strcmp(res.conv_id, first) != 0, "a second conversation in the same ms has its own id");
	snprintf(first, sizeof(first), "%s", res.conv_id);	/* lives with st */

	/* what is saved loads back the same */
	is_int(store_save(st, &e), 0, "the store is saved");
	store_close(st);
	is_int(store_open(&st, path, STORE_READ, 0, &e), 0, "and opens again");
	is_int(store_count(st), 3, "with every conversation");
	c = store_active(st);
	ok(c != NULL && strcmp(conv_id(c), first) == 0, "the same one active");
	ts_format(conv_last_activity(c), ts);
	is_str(ts, "2026-02-04T20:46:40.000Z", "its last activity kept");
	is_int(store_save(st, &e), -1, "a store opened for reading cannot be saved");
	store_close(st);
	unlink(path);

	test_ties();

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		return 1;
	return done();
}
