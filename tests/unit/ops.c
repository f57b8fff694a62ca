/*
 * ops.c - edit, pin, delete and prune as lib/ops runs them whole, without a
 * face: the store opened from the settings, the rule, the commit, and the
 * rolling limit's lines said through the request's say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convctl.h"
#include "tap.h"

#define MSG(ts, content) "{\"id\": \"m-" ts "\", \"timestamp\": \"" ts \
	"\", \"role\": \"user\", \"content\": \"" content "\"}"
#define ENDED(id, day) "{\"id\": \"" id "\", \"startedAt\": \"2026-01-0" day \
	"T10:00:00.000Z\", \"endedAt\": \"2026-01-0" day "T10:02:00.000Z\", " \
	"\"title\": null, \"summary\": null, \"messages\": [" \
	MSG("2026-01-0" day "T10:00:00.000Z", "one") "," \
	MSG("2026-01-0" day "T10:01:00.000Z", "two") "]}"

static char path[64];
static struct settings set;
static int said;
static char last_said[512];

static void
say(void *arg, const char *line)
{
	(void)arg;
	said++;
	snprintf(last_said, sizeof(last_said), "%s", line);
}

/* the store: three ended (conv-1 oldest), conv-4 active */
static int
seed(void)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fprintf(f, "{\"version\": 1, \"conversations\": [%s, %s, %s, "
	    "{\"id\": \"conv-4\", \"startedAt\": \"2026-01-04T10:00:00.000Z\", "
	    "\"title\": null, \"summary\": null, \"messages\": [%s]}]}\n",
	    ENDED("conv-1", "1"), ENDED("conv-2", "2"), ENDED("conv-3", "3"),
	    MSG("2026-01-04T10:00:00.000Z", "active"));
	return fclose(f);
}

/* the store as it is on disk, read afresh: NULL when it cannot be */
static struct store *
reread(void)
{
	struct store *st = NULL;
	struct error e;

	if (store_open(&st, path, STORE_READ, 0, &e) < 0) {
		printf("# %s\n", e.msg);
		return NULL;
	}
	return st;
}

static void
test_pin(void)
{
	char *both[] = { "conv-2", "nosuch" }, *one[] = { "conv-2" };
	struct ops_pin_request rq = { .settings = &set, .ids = both, .nids = 2,
	    .say = say };
	struct ops_pin_result res;
	struct store *st;

	is_int(ops_pin(&rq, &res), OPS_FAILED, "pin: an unknown id fails");
	ok(strstr(res.error.msg, "'nosuch'") != NULL, "pin: naming it");
	if ((st = reread()) != NULL)
		is_int(conv_pinned(store_find(st, "conv-2")), 0,
		    "pin: and pins none of the others");
	store_close(st);
	rq.ids = one;
	rq.nids = 1;
	rq.dry_run = 1;
	is_int(ops_pin(&rq, &res), OPS_DONE, "pin: a dry run is done");
	if ((st = reread()) != NULL)
		is_int(conv_pinned(store_find(st, "conv-2")), 0,
		    "pin: and pins nothing");
	store_close(st);
	rq.dry_run = 0;
	is_int(ops_pin(&rq, &res), OPS_DONE, "pin: a known id is pinned");
	if ((st = reread()) != NULL)
		is_int(conv_pinned(store_find(st, "conv-2")), 1,
		    "pin: in the store");
	store_close(st);
}

static void
test_edit(void)
{
	struct ops_edit_request rq = { .settings = &set, .id = "conv-1",
	    .message = "-1", .text_name = "TEXT", .say = say };
	struct ops_edit_result res;
	struct store *st;

	/* the size is checked before the store: /dev/null is none */
	settings_set(&set, SET_STORE, "/dev/null", SRC_FLAG);
	settings_set(&set, SET_MAX_MESSAGE_BYTES, "3", SRC_FLAG);
	rq.text = "four";
	rq.len = 4;
	is_int(ops_edit(&rq, &res), OPS_FAILED,
	    "edit: a text over max_message_bytes fails");
	is_str(res.error.msg, "TEXT is larger than the limit of 3 bytes (the "
	    "max_message_bytes setting)", "edit: before the store is opened, "
	    "the text named as the face names it");
	settings_set(&set, SET_MAX_MESSAGE_BYTES, NULL, SRC_DEFAULT);
	rq.text = NULL;
	rq.len = 0;
	is_int(ops_edit(&rq, &res), OPS_BAD_STORE,
	    "edit: a store setting naming a device is a bad store");
	settings_set(&set, SET_STORE, path, SRC_FLAG);

	rq.message = "9";
	is_int(ops_edit(&rq, &res), OPS_FAILED, "edit: no such message fails");
	rq.message = "-1";
	rq.dry_run = 1;
	is_int(ops_edit(&rq, &res), OPS_DONE, "edit: a dry run is done");
	if ((st = reread()) != NULL)
		is_int(conv_message_count(store_find(st, "conv-1")), 2,
		    "edit: and removes nothing");
	store_close(st);
	/* over the rolling limit: the commit removes the oldest unpinned */
	settings_set(&set, SET_MAX_CONVERSATIONS, "1", SRC_FLAG);
	rq.id = "conv-3";
	rq.dry_run = 0;
	said = 0;
	is_int(ops_edit(&rq, &res), OPS_DONE, "edit: the newest removed");
	if ((st = reread()) != NULL) {
		is_int(conv_message_count(store_find(st, "conv-3")), 1,
		    "edit: in the store");
		ok(store_find(st, "conv-1") == NULL && store_find(st,
		    "conv-2") != NULL, "edit: the commit's rolling limit "
		    "removed the oldest, kept the pinned");
	}
	store_close(st);
	is_int(said, 1, "edit: the removal said through say, once");
	ok(strstr(last_said, "removed 1 oldest ended conversation") != NULL,
	    "edit: saying what it removed");
	settings_set(&set, SET_MAX_CONVERSATIONS, NULL, SRC_DEFAULT);
}

static void
test_delete(void)
{
	char *active[] = { "conv-4" }, *ended[] = { "conv-3" };
	struct ops_delete_request rq = { .settings = &set, .ids = active,
	    .nids = 1, .say = say };
	struct ops_delete_result res;
	struct store *st;

	is_int(ops_delete(&rq, &res), OPS_FAILED,
	    "delete: the active one fails without force");
	ok(res.ids == NULL, "delete: with no ids");
	rq.force = 1;
	rq.dry_run = 1;
	is_int(ops_delete(&rq, &res), OPS_DONE, "delete: a forced dry run");
	ok(res.nids == 1 && strcmp(res.ids[0], "conv-4") == 0,
	    "delete: names what would go");
	ops_delete_result_free(&res);
	if ((st = reread()) != NULL)
		ok(store_find(st, "conv-4") != NULL, "delete: and keeps it");
	store_close(st);
	rq.ids = ended;
	rq.force = rq.dry_run = 0;
	is_int(ops_delete(&rq, &res), OPS_DONE, "delete: an ended one");
	ops_delete_result_free(&res);
	if ((st = reread()) != NULL)
		ok(store_find(st, "conv-3") == NULL, "delete: is gone");
	store_close(st);
}

static void
test_prune(void)
{
	struct ops_prune_request rq = { .settings = &set,
	    .older_than = "1y", .older_than_name = "--older-than",
	    .say = say };
	struct ops_prune_result res;
	struct store *st;

	/* the setting is read before the duration, as the CLI always did */
	settings_set(&set, SET_MAX_CONVERSATIONS, "abc", SRC_FLAG);
	is_int(ops_prune(&rq, &res), OPS_FAILED,
	    "prune: a bad max_conversations fails first");
	settings_set(&set, SET_MAX_CONVERSATIONS, NULL, SRC_DEFAULT);
	is_int(ops_prune(&rq, &res), OPS_BAD_ARG, "prune: a bad duration");
	is_str(res.arg, "older-than", "prune: names its argument");
	is_str(res.error.msg, "--older-than expects a duration such as 90m, "
	    "12h, 30d or 2w, not '1y'", "prune: as the face names it");
	rq.older_than = "1d";	/* every ended one: their end is in 2026-01 */
	rq.dry_run = 1;
	is_int(ops_prune(&rq, &res), OPS_DONE, "prune: a dry run");
	ok(res.nids == 0, "prune: the pinned one stays");
	ops_prune_result_free(&res);
	/* conv-2 unpinned: now it goes */
	{
		char *one[] = { "conv-2" };
		struct ops_pin_request prq = { .settings = &set, .ids = one,
		    .nids = 1, .remove = 1 };
		struct ops_pin_result pres;

		ops_pin(&prq, &pres);
	}
	rq.older_than = NULL;
	rq.max_given = 1;
	rq.max = 0;
	is_int(ops_prune(&rq, &res), OPS_DONE, "prune: --max 0, dry run");
	ok(res.nids == 1 && strcmp(res.ids[0], "conv-2") == 0,
	    "prune: names the ended one");
	ops_prune_result_free(&res);
	if ((st = reread()) != NULL)
		ok(store_find(st, "conv-2") != NULL, "prune: and keeps it");
	store_close(st);
	rq.dry_run = 0;
	is_int(ops_prune(&rq, &res), OPS_DONE, "prune: --max 0");
	ops_prune_result_free(&res);
	if ((st = reread()) != NULL)
		ok(store_find(st, "conv-2") == NULL && store_find(st,
		    "conv-4") != NULL, "prune: removes the ended, not the "
		    "active one");
	store_close(st);
}

int
main(void)
{
	int fd;

	snprintf(path, sizeof(path), "%s", "/tmp/convctl-unit-ops-XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);
	if (seed() < 0)
		return 1;
	settings_set(&set, SET_STORE, path, SRC_FLAG);
	settings_set(&set, SET_WAIT, "0", SRC_FLAG);
	test_pin();
	test_edit();
	test_delete();
	test_prune();
	settings_free(&set);
	unlink(path);
	return done();
}
