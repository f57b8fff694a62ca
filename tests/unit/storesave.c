/*
 * storesave.c - store_save() when fsync fails: the temporary file's fsync
 * failing is a failure with the old store kept; the directory's fsync failing,
 * after the rename, is a warning (1) with the new store in place.
 *
 * A directory whose fsync fails cannot be made on demand, so this test
 * defines fsync() itself: the library, linked statically into this program,
 * calls this one, which fails as told and otherwise makes the real call.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "convctl.h"
#include "tap.h"

static int fail_dir, fail_file;

int
fsync(int fd)
{
	struct stat sb;

	if (fstat(fd, &sb) == 0 && ((S_ISDIR(sb.st_mode) && fail_dir) ||
	    (S_ISREG(sb.st_mode) && fail_file))) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

/* one message into the store at path; store_save()'s status */
static int
add_one(const char *path, const char *text, struct error *e)
{
	struct add_request rq = { .role = ROLE_USER, .text = text,
	    .at = 1770226000000LL, .idle_timeout = 1800000 };
	struct add_result res;
	struct store *st;
	int rc;

	if (store_open(&st, path, STORE_WRITE, 1, e) < 0)
		return -99;
	rq.len = strlen(text);
	rc = conv_add(st, &rq, &res, e) < 0 ? -98 : store_save(st, e);
	store_close(st);
	return rc;
}

static size_t
messages(const char *path)
{
	struct store *st;
	struct error e;
	size_t n;

	if (store_open(&st, path, STORE_READ, 0, &e) < 0)
		return (size_t)-1;
	n = store_count(st) ? conv_message_count(store_conv(st, 0)) : 0;
	store_close(st);
	return n;
}

int
main(void)
{
	char dir[] = "/tmp/convctl-unit-save.XXXXXX", path[256];
	struct error e;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/store.json", dir);

	is_int(add_one(path, "one", &e), 0, "a save with every fsync working is 0");
	is_int(messages(path), 1, "and holds the message");

	fail_file = 1;
	is_int(add_one(path, "two", &e), -1, "the temporary file's fsync failing fails");
	ok(strstr(e.msg, "cannot flush") != NULL &&
	    strstr(e.msg, "Input/output error") != NULL, "naming the flush and the cause");
	fail_file = 0;
	is_int(messages(path), 1, "and the old store stays");

	fail_dir = 1;
	is_int(add_one(path, "three", &e), 1,
	    "the directory's fsync failing after the rename is a warning, 1");
	ok(strstr(e.msg, "is written, but its directory") != NULL &&
	    strstr(e.msg, "Input/output error") != NULL, "which says the store is written");
	fail_dir = 0;
	is_int(messages(path), 2, "and the new store is in place");

	snprintf(path + strlen(dir), sizeof(path) - strlen(dir), "/store.json.lock");
	unlink(path);
	snprintf(path + strlen(dir), sizeof(path) - strlen(dir), "/store.json");
	unlink(path);
	rmdir(dir);
	return done();
}
