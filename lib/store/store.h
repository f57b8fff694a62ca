/*
 * store.h - the store: open, load, a conversation's fields and marks, its
 * text, the spool, stats. The rules applied to it (add, end, prune, copy,
 * the edits of one conversation) are lib/conv's (conv.h). Whichever engine
 * holds the store (engine.h) is not seen from here.
 */
#ifndef CONVCTL_STORE_H
#define CONVCTL_STORE_H

#include "../base/base.h"

/* shape.c: the store's shape, its version and a message's roles */
#define STORE_VERSION 1		/* the newest store version this library knows */
enum conv_role { ROLE_USER, ROLE_ASSISTANT, ROLE_SYSTEM, ROLE_TOOL };
const char *role_name(enum conv_role);
int role_parse(const char *, enum conv_role *);
/* "user, assistant, system or tool": what role_parse() takes, for errors */
const char *role_list(void);
/* the one wording of a role that is none of them, appended to b: "unknown
 * role 'S' (expected user, assistant, system or tool)"; also: the names a
 * source takes besides them (NULL-ended), or NULL */
void role_unknown(struct buf *, const char *s, const char *const *also);

struct store;
struct conv;
enum store_mode { STORE_READ, STORE_WRITE };
/*
 * Opens the store at path. STORE_WRITE first takes the lock beside it
 * (PATH.lock), waiting at most wait seconds. A missing file is an empty store.
 * A file that does not parse or does not have the store's shape is refused:
 * the error names the file, the line and column or the JSON path, and what is
 * wrong. -2: path names something that cannot be a store (a directory, a
 * device, a FIFO, a socket, standard input), found before any lock or file is
 * made: a usage error. A symlink is followed, but not one in a sticky
 * world-writable directory owned by another user (as protected_symlinks).
 */
int store_open(struct store **, const char *path, enum store_mode,
    double wait, struct error *);
#define STORE_MAX_BYTES ((size_t)1 << 30)	/* store_open()'s bound */
/* the same, refusing a file larger than max bytes (max_input_bytes), and
 * opened as commands open it: a file store may then be read by its index
 * (convctl(5), The index), only as far as store_load_*() ask, as a database */
int store_open_max(struct store **, const char *path, enum store_mode,
    double wait, size_t max, struct error *);
/*
 * writes the store atomically: temporary file, fsync, rename, fsync dir; the
 * old file's owner, group and mode are kept, or nothing is written. 1: written,
 * but the directory could not be flushed (e says so): a warning, not a failure
 */
int store_save(struct store *, struct error *);
void store_close(struct store *);	/* releases the lock; NULL is fine */
const char *store_path(const struct store *);

/* the engine a store path names: "file", "postgresql" or "sqlite" */
const char *store_engine_of(const char *path);
/* path as messages show it: a database URI's password as ***; caller frees */
char *store_shown(const char *path);
/* path is a database URI that holds a password (or another secret) */
int store_holds_password(const char *path);

/*
 * What a command will read, said before it reads it: the file engine holds
 * the whole store from store_open() on and these do nothing, but a database,
 * or a file store opened by store_open_max() with a usable index, is read
 * only as far as they ask, and the accessors below see only what was
 * loaded. Each is cheap to repeat.
 */
int store_load_active(struct store *, struct error *);
int store_load_id(struct store *, const char *id, struct error *); /* 0: found or not */
/* the newest limit ended conversations (SIZE_MAX: all); without bodies,
 * only what store_ended() and render_recent() show: conv_load() the rest */
int store_load_ended(struct store *, size_t limit, int bodies, struct error *);
int store_load_all(struct store *, struct error *);	/* every one, whole */
int conv_load(struct store *, struct conv *, struct error *);
/* lets go of what conv_load() brought of c, which nothing has changed
 * since: c is listed again, as store_load_ended() left it (a conversation
 * loaded whole keeps its body) */
void conv_unload(struct store *, struct conv *);
/* the conversation id, loaded: NULL and e ("no conversation 'ID' in
 * 'STORE'") when there is none */
struct conv *store_get(struct store *, const char *id, struct error *);
/* the ended conversations in the store, loaded or not */
int store_count_ended(struct store *, size_t *n, struct error *);

size_t store_count(const struct store *);
struct conv *store_conv(struct store *, size_t i);	/* in stored order */
struct conv *store_find(struct store *, const char *id);
struct conv *store_active(struct store *);		/* NULL: none */
/* ended conversations, newest endedAt first; *n of them; caller frees array */
struct conv **store_ended(struct store *, size_t *n);
/* removes and frees the conversations v[0..n), in one pass */
void store_remove(struct store *, struct conv *const *v, size_t n);

const char *conv_id(const struct conv *);
int64_t conv_started(const struct conv *);
int64_t conv_ended(const struct conv *);	/* -1: active */
/* 1: marked "pinned" (organize.c sets it): stats count it, the rolling
 * limit skips it */
int conv_pinned(struct conv *);
/* 1: c is tagged tag (query.c, where every executor of a search asks) */
int conv_has_tag(struct conv *, const char *tag);
const char *conv_title(const struct conv *);	/* NULL: none */
const char *conv_summary(const struct conv *);	/* NULL: none */
size_t conv_message_count(const struct conv *);
int64_t conv_last_activity(const struct conv *);	/* last message, else start */

/* file-save.c: the whole store as its file holds it, whatever engine holds it */
int store_text(struct store *, struct buf *, struct error *);
/*
 * spool.c: a long text (convctl run's prompt or answer) kept
 * JSON-escaped, as the store's file holds it, in an unnamed temporary file as
 * it arrives, never whole in memory; the store writes the message from there
 * (exchange.spool, exchange.prompt_spool).
 */
struct spool {
	int fd;				/* -1: dropped */
	struct buf esc;			/* escaped, not yet written */
	size_t esc_len;			/* escaped bytes in all */
	size_t len;			/* bytes of text taken */
	size_t run, keep, keep_prev;	/* see track_tail() */
	int run_last;
	int err;			/* a write failed: its errno */
};
/* an unnamed file beside the store when its engine has a directory (then the
 * filesystem copies the answer into the store), else in $TMPDIR; nothing of
 * it outlives the process */
int store_spool_open(struct store *, struct spool *, struct error *);
/* such a file alone, open to read and write (for raw bytes): -1 and e */
int store_temp_file(struct store *, struct error *);
void spool_add(struct spool *, const char *s, size_t n);
/* all of it written to the file: -1 with errno when a write failed */
int spool_end(struct spool *);
/* the text's length as chomp() leaves it */
size_t spool_chomped(const struct spool *);
void spool_drop(struct spool *);

/*
 * stats.c: what a store holds at a glance (convctl-stats(1)), in one pass
 * over what a listing reads: the engine counts (the file's bytes by its
 * scanner, SQL aggregates on a database), through its stats op.
 */
#define STATS_TOP 10		/* the busiest tags and tools kept */
#define STATS_WEEKS 52		/* the chart: conversations a week */
#define STATS_WEEK_MS ((int64_t)7 * 24 * 3600 * 1000)
struct stats_request {
	int64_t since;		/* only conversations started at or after;
				 * <0: every one */
	const char *tag;	/* only those tagged tag; NULL: any */
	int64_t now;		/* the chart's last week ends here */
};
struct stats_name {
	char *name;		/* malloc'd; may hold NUL (len) */
	size_t len;
	uint64_t n;
};
struct store_stats {
	uint64_t active, ended, pinned;	/* conversations */
	uint64_t role[4];	/* messages, by enum conv_role */
	int64_t bytes;		/* the whole store's size; -1: not known */
	char *oldest, *newest;	/* ids of the first and last started;
				 * NULL: none */
	int64_t oldest_at, newest_at;	/* their startedAt */
	struct stats_name tag[STATS_TOP], tool[STATS_TOP];
	size_t ntag, ntool;	/* most used first, then by name (bytes) */
	/* conversations started in each week, the last ending at rq->now:
	 * week[STATS_WEEKS - 1] is (now - 7 days, now] */
	uint64_t week[STATS_WEEKS];
	struct json_t *tags, *tools;	/* name -> count, while counting */
};
int store_stats(struct store *, const struct stats_request *,
    struct store_stats *, struct error *);
void store_stats_free(struct store_stats *);

#endif
