/*
 * scan.h - the store's fast path: one pass over the file that checks all
 * that jansson's parse (with JSON_LOAD_FLAGS) and the store's shape checks
 * would, and keeps each conversation as a byte range with the few fields the
 * store caches. Only lib/store/ (file-search.c: scan_conv_each()), the unit
 * test and the fuzz harness use it.
 */
#ifndef CONVCTL_SCAN_H
#define CONVCTL_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "../base/lex.h"

struct scan_conv {
	size_t off, len;		/* the object's bytes in the file */
	char *id;			/* decoded, malloc'd */
	char *title, *summary;		/* decoded, malloc'd; NULL: null or missing */
	int64_t started, ended, last;	/* ended -1: active */
	int64_t newest;			/* the latest of its messages' times (they
					 * may be out of order); INT64_MIN: none */
	size_t nmsg;
	int canonical;			/* the bytes are what json_dump_buf() writes */
};

/* store.c: the record of a conversation the scanner read, its bytes
 * raw[0..len); it takes sc's strings */
struct conv *conv_of_scan(struct scan_conv *sc, const char *raw, size_t len);

struct scan_member {			/* a top-level member but "conversations" */
	char *key;			/* decoded, malloc'd (it may hold NUL) */
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
 * 0: p[0..len) is JSON by lex.c's rules, a store of shape.c's shape,
 * with at most one active conversation and unique ids: what adopt() in
 * store.c accepts. SCAN_INVALID: it is not (s is emptied); lex_json() and
 * adopt(), or jansson, say what is wrong and where.
 */
#define SCAN_INVALID	(-1)
int scan_store(const char *p, size_t len, struct scan *s);
void scan_free(struct scan *);
/* 0: p[0..len) is one conversation by the same rules, into *c (its strings
 * the caller's: scan_conv_clear()); SCAN_INVALID: it is not */
int scan_conv(const char *p, size_t len, struct scan_conv *c);
void scan_conv_clear(struct scan_conv *);

/* a string's body in the file, between its quotes, still escaped */
struct scan_str {
	const char *p;			/* NULL: null, or no such member */
	size_t len;
	int esc;			/* it holds a backslash */
};
/* a message as the scanner checked it */
struct scan_msg {
	struct scan_str id, role, content;
	int64_t time;			/* its timestamp */
	const char *tools;		/* toolsUsed's value (an array or null), */
	size_t toolslen;		/* or NULL: none */
};
/*
 * scan_conv(), and each message, once checked, given to each(arg, m) in
 * order, its strings pointing into p; each returning -1 stops the scan,
 * which returns SCAN_INVALID. (Search decodes only the messages it needs.)
 * utf8: p is known to be UTF-8 (its store was checked whole, or its index
 * vouches for it): not checked again.
 */
int scan_conv_each(const char *p, size_t len, struct scan_conv *c, int utf8,
    int (*each)(void *, const struct scan_msg *), void *arg);
/* the value of t into out, which has room for t->len + 1 bytes (a value is
 * never longer than its text), NUL-terminated; its length (it may hold NUL) */
size_t scan_unescape(const struct scan_str *t, char *out);

#endif
