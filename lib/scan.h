/*
 * scan.h - the store's fast path: one pass over the file that checks all
 * that jansson's parse (with JSON_LOAD_FLAGS) and the store's shape checks
 * would, and keeps each conversation as a byte range with the few fields the
 * store caches. Only lib/store.c, the unit test and the fuzz harness use it.
 */
#ifndef CONVCTL_SCAN_H
#define CONVCTL_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct scan_conv {
	size_t off, len;		/* the object's bytes in the file */
	char *id;			/* decoded, malloc'd */
	char *title, *summary;		/* decoded, malloc'd; NULL: null or missing */
	int64_t started, ended, last;	/* ended -1: active */
	size_t nmsg;
	int canonical;			/* the bytes are what json_dump_buf() writes */
};

struct scan_member {			/* a top-level member but "conversations" */
	char *key;			/* decoded, malloc'd (a key holds no NUL) */
	size_t klen;
	size_t off, len;		/* its value's bytes */
};

struct scan {
	struct scan_conv *conv;
	size_t n, cap;
	struct scan_member *member;
	size_t nmember, capmember;
};

/*
 * 0: p[0..len) is a store jansson and conv_validate() accept, with at most
 * one active conversation and unique ids. SCAN_INVALID: it is not; load it
 * with jansson to learn what is wrong and where. SCAN_PUNT: the scanner does
 * not decide (a case too rare to be worth a fast path); load it with jansson.
 * Either way s is emptied.
 */
#define SCAN_INVALID	(-1)
#define SCAN_PUNT	(-2)
int scan_store(const char *p, size_t len, struct scan *s);
void scan_free(struct scan *);

#endif
