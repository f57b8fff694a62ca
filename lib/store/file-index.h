/*
 * file-index.h - the file engine's index: where each conversation and top-level
 * field of a store file convctl checked sits, keyed on the file's identity,
 * as git's index caches stat data (file-index.c; used by file.c, file-save.c).
 */
#ifndef CONVCTL_INDEX_H
#define CONVCTL_INDEX_H

#include <stdint.h>
#include <sys/stat.h>

#include "../convctl.h"

#define INDEX_NONE	UINT64_MAX	/* no active conversation */

/* flags of a conversation's record */
enum {
	INDEX_CANONICAL = 1,	/* its bytes are what json_dump_buf() writes */
	INDEX_SEP5 = 2,		/* "\n    " comes right before it in the file */
	INDEX_SEP6 = 4,		/* ",\n    " does */
};

struct index_rec {		/* a conversation, in stored order */
	uint64_t off, len;	/* its bytes in the store */
	int64_t started, ended, last;	/* ended -1: active */
	int64_t newest;		/* its latest message's time: INT64_MIN none,
				 * INT64_MAX not known */
	uint64_t nmsg;
	uint32_t id, idlen;	/* in the strings; NUL after it */
	uint32_t flags, spare;
};

struct index_member {		/* a top-level member but "conversations" */
	uint64_t off, len;	/* its value's bytes in the store */
	uint32_t key, klen;	/* in the strings (a key may hold NUL) */
};

/* an index read and checked (index_read()): nothing in it points outside */
struct index {
	char *buf;		/* the file, mapped */
	size_t size;
	const struct index_rec *rec;
	size_t n;
	const struct index_member *member;
	size_t nmember;
	const char *str;
	uint64_t active;	/* the active one's record, or INDEX_NONE */
	size_t nended;
};

/* an index being made, record by record (index_add_*()) */
struct index_build {
	struct buf rec, member, str;
	size_t n, nmember, nended;
	uint64_t active;
};

/* where the index of the store file (an absolute or relative path) is:
 * malloc'd, or NULL when there is no place for one */
char *index_path(const char *file);
/*
 * 1: *ix is the index at path and describes the store whose fstat() is sb:
 * it is the caller's, whole, its checksum right, its identity sb's and its
 * own write strictly after the store's last change (git's "racy" rule).
 * 0: none to use (missing, another store's, stale, racy, truncated, corrupt).
 */
int index_read(const char *path, const char *file, const struct stat *sb,
    struct index *ix);
void index_free(struct index *);
/* the record of the conversation whose id this is, or -1 */
int64_t index_find(const struct index *, const char *id);

void index_add_conv(struct index_build *, uint64_t off, uint64_t len,
    const char *id, int64_t started, int64_t ended, int64_t last,
    int64_t newest, uint64_t nmsg, unsigned flags);
void index_add_member(struct index_build *, const char *key, size_t klen,
    uint64_t off, uint64_t len);
/*
 * Writes b as the index at path of the store file whose identity is sb,
 * atomically (a temporary file renamed), 0600 in directories made 0700.
 * An index is a cache: any failure leaves none, and is not an error.
 */
void index_write(const char *path, const char *file, const struct stat *sb,
    struct index_build *b);
void index_build_free(struct index_build *);

/*
 * 1: a file whose identity was sb when read from time t0 (CLOCK_REALTIME_COARSE,
 * taken before) on, and is now, had its last change before t0: no change can
 * have hidden within the same timestamp tick, and an index of what was read
 * is safe to write.
 */
int index_settled(const struct stat *sb, const struct stat *now,
    const struct timespec *t0);
/* the same identity: device, inode, size, mtime and ctime to the nanosecond */
int index_same_file(const struct stat *a, const struct stat *b);

#endif
