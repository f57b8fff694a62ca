/*
 * store.h - the store and the lifecycle applied to it: open, load, add,
 * end, prune, copy, save, and the edits of one conversation. Whichever
 * engine holds the store (engine.h) is not seen from here.
 */
#ifndef CONVCTL_STORE_H
#define CONVCTL_STORE_H

#include "../settings/settings.h"

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
const char *conv_title(const struct conv *);	/* NULL: none */
const char *conv_summary(const struct conv *);	/* NULL: none */
size_t conv_message_count(const struct conv *);
int64_t conv_last_activity(const struct conv *);	/* last message, else start */

/* lifecycle.c */
/* what a command reads when no id is given: *c the active conversation, else with ended_too the one that ended
 * last; NULL when there is none (that is no error) */
int store_default_conv(struct store *, int ended_too, struct conv **c,
    struct error *);
/* *v: the newest limit ended conversations, only those tagged tag (NULL:
 * any), newest endedAt first, *n of them; caller frees the array */
int store_recent(struct store *, size_t limit, const char *tag,
    struct conv ***v, size_t *n, struct error *);
/* a message's tool names ("toolsUsed", convctl(5)) by the tag rule: each one
 * printable line of at most TOOL_MAX_CHARS characters, at most
 * TOOL_MAX_COUNT of them; tool_names_check() is conv_add()'s check, which
 * every face reaches (and migrate tidies, with a note, what breaks it) */
#define TOOL_MAX_CHARS 100
#define TOOL_MAX_COUNT 100
int tool_names_check(const char *const *tools, size_t n, struct error *);
struct add_request {
	enum conv_role role;
	const char *text;
	size_t len;			/* text may hold NUL bytes */
	const char *const *tools;	/* tool_names_check()'s rule */
	size_t ntools;
	int64_t at;			/* message time */
	/* 1: at is the clock's reading, not a time the user asked for; a
	 * clock behind the active conversation's last message records the
	 * message at that message's time (res->at) instead of refusing it */
	int clock;
	int64_t idle_timeout;		/* ms */
	/* retry safety: a message already carrying this "dedupeKey" in the
	 * active or the most recently ended conversation is not added again */
	const char *dedupe_key;		/* NULL: none */
	/* the conversation the message must go to; NULL: any */
	const char *expect_conv;
	/* a system message put first when the message starts a conversation
	 * (add --template); NULL: none */
	const char *first_system;
	size_t first_len;
};
struct add_result {
	const char *conv_id;		/* valid while the store is open */
	const char *ended_id;		/* conversation ended by the idle timeout, or NULL */
	int started;			/* 1 when a new conversation was started */
	int duplicate;			/* 1: dedupe_key found in conv_id, nothing added */
	int64_t at;			/* the time recorded: rq->at, or later with rq->clock */
	int64_t last;			/* the active conversation's last message before, or -1 */
};
/* a message's text of len bytes whose first byte that is not UTF-8 is bad
 * (-1: none): not empty, and UTF-8; what conv_add checks of rq->text */
int message_text_check(size_t len, long bad, struct error *);
enum add_status {
	ADD_FAILED = -1,	/* e says why; nothing changed */
	ADD_DONE,		/* added, or found already (res->duplicate) */
	ADD_ELSEWHERE,		/* it would not go to (or was not found in)
				 * rq->expect_conv: nothing changed, e says
				 * where it would go */
	ADD_BEFORE_LAST,	/* rq->at, a time the user gave, is before the
				 * active conversation's last message: nothing
				 * changed */
};
enum add_status conv_add(struct store *, const struct add_request *,
    struct add_result *, struct error *);
enum end_status {
	END_FAILED = -1,
	END_DONE,		/* ended *id */
	END_NOTHING_ACTIVE,
};
/* ends the active conversation at now; at its last message's time when the
 * clock is behind it, or when it has been idle past idle_timeout (ms) */
enum end_status conv_end(struct store *, int64_t now, int64_t idle_timeout,
    const char **id, struct error *);

struct prune_request {
	long max;			/* ended conversations kept; <0: no limit */
	int64_t older_than;		/* remove ended before this time; <0: none */
	int dry_run;
	/* called after each removal (done of total), when not NULL */
	void (*progress)(void *arg, size_t done, size_t total);
	void *progress_arg;
};
/* ids of the conversations removed (or that would be), oldest first, NULL-ended */
int store_prune(struct store *, const struct prune_request *, char ***ids,
    size_t *n, struct error *);

/*
 * A command's one transaction on the store, as the settings say: begin
 * opens it (the store setting; for STORE_WRITE locked, waiting up to the
 * wait setting; no larger than max_input_bytes). -1: failed; -2: the path
 * names something that is not a store file (a device, a FIFO...).
 */
int lifecycle_begin(const struct settings *, enum store_mode, struct store **,
    struct error *);
/* the idle_timeout setting in milliseconds, as add_request and conv_end
 * take it */
int lifecycle_idle_timeout(const struct settings *, int64_t *ms,
    struct error *);
/* a message of len bytes within the max_message_bytes setting, what
 * naming it in the error ("TEXT", "--prompt", "argument 'text'"): 0, or
 * -1 (the setting's error, or the limit's) */
int lifecycle_message_size(const struct settings *, size_t len,
    const char *what, struct error *);
/* the same for the store at path, not the store setting's */
int lifecycle_open(const struct settings *, const char *path, enum store_mode,
    struct store **, struct error *);
/* what a commit did besides writing */
struct commit_report {
	char **pruned;		/* ids the rolling limit removed; strv_free() */
	size_t npruned;
	long limit;		/* the max_conversations it kept to */
};
enum commit_status {
	COMMIT_FAILED = -1,	/* nothing written; e says why */
	COMMIT_DONE,
	COMMIT_UNFLUSHED,	/* written, but the directory flush failed:
				 * e says so, for a warning */
};
/* the rolling limit (max_conversations) applied, then the store written */
enum commit_status lifecycle_commit(struct store *, const struct settings *,
    struct commit_report *, struct error *);
/* what lifecycle_commit's rolling limit would remove now, nothing removed
 * (migrate says so before it writes); 0, or -1 */
int lifecycle_commit_preview(struct store *, const struct settings *,
    struct commit_report *, struct error *);
/* "removed N oldest ended conversations to keep M (max_conversations, set
 * by ...; see convctl-prune(1))", when the limit removed any */
void lifecycle_prune_note(struct buf *, const struct commit_report *,
    const struct settings *);
/* lifecycle_commit for a command's write, what it did besides said a line
 * at a time through say: the warning a write not flushed gets, and
 * lifecycle_prune_note's line */
enum commit_status lifecycle_commit_said(struct store *,
    const struct settings *, void (*say)(void *arg, const char *line),
    void *arg, struct error *);
void strv_free(char **);
/*
 * Removes the conversations named by ids[0..n) for good; the active one only
 * with force. Every id is checked first: an unknown one, or the active one
 * without force, fails with nothing removed. A repeated id counts once.
 * With dry_run nothing is removed. *out: the ids, NULL-ended; caller frees.
 */
int store_delete(struct store *, char *const *ids, size_t n, int force,
    int dry_run, char ***out, size_t *nout, struct error *);

/* copy.c: every conversation of src into dst, which is not written: a
 * conversation dst has already is skipped when it is the same, a conflict
 * when not; the top-level fields dst lacks are copied, and imports records
 * it lacks. All or nothing: on a conflict dst is left as it was in memory
 * only in part, and must not be saved. */
struct copy_result {
	size_t copied, skipped;
};
int store_copy(struct store *src, struct store *dst, struct copy_result *,
    struct error *);
/* file-save.c: the whole store as its file holds it, whatever engine holds it */
int store_text(struct store *, struct buf *, struct error *);
/*
 * exchange.c: a prompt and its answer recorded together (convctl run), the
 * answer got while no lock was held. Where they go is settled when the
 * prompt is given, by conv_add's rules, and kept to when they are written.
 */
struct exchange {
	struct add_request prompt;	/* the user's; at: when it was given */
	struct add_request reply;	/* the answer; text NULL: none */
	struct spool *spool;		/* not NULL: the answer is its text
					 * (reply.text is not looked at) */
	/* not NULL: the prompt is its text (prompt.text is not looked at),
	 * not UTF-8 from byte prompt_not_utf8 (or -1) */
	struct spool *prompt_spool;
	long prompt_not_utf8;
	/* exchange_plan's */
	char *active;			/* active when the prompt was given */
	char *joins;			/* what the prompt joins; NULL: a new one */
};
/*
 * On a snapshot of the store (opened to read; changed in memory, to be closed
 * after): the checks conv_add makes of the prompt and of the reply's tools,
 * and where the exchange goes, as `add` at prompt.at would put it.
 */
int exchange_plan(struct store *snapshot, struct exchange *, struct error *);
struct exchange_result {
	const char *conv_id;		/* valid while the store is open */
	const char *ended_id;		/* ended by the idle timeout, or NULL */
	int started;			/* a new conversation was started */
	int moved;			/* to a new one: the conversation it
					 * joined was ended in the meantime */
};
/*
 * Both messages, the reply (if any) whatever time has passed since the prompt:
 * into the conversation the plan named; into a new one when that one, or the
 * one the plan would have ended, is no longer active and none is.
 * ADD_ELSEWHERE: another conversation became active meanwhile; nothing changed.
 */
enum add_status exchange_record(struct store *, const struct exchange *,
    struct exchange_result *, struct error *);
void exchange_free(struct exchange *);	/* active and joins */
/*
 * organize.c: what a person does to any conversation, and the marks that
 * leaves (convctl(5)): a hand title ("titleByHand"), which summarizers keep;
 * a stale summary ("summaryStale"), which summarize --pending redoes; the
 * resume time ("resumedAt"); "forkedFrom"; "tags"; "pinned". Each changes
 * the store in memory only; the caller commits.
 */
int conv_title_by_hand(struct conv *);
int conv_summary_stale(struct conv *);
int conv_has_tag(struct conv *, const char *tag);
/* when the idle timeout starts: the last message, or a later start (a fork)
 * or resume */
int64_t conv_idle_from(struct conv *);
/* the longest title and tag a person may give, in characters (convctl(5));
 * neither may hold a control character (label_check) */
#define TITLE_MAX_CHARS 500
#define TAG_MAX_CHARS 100
/* the most tags one call of conv_tag() names, and a conversation it adds to
 * may hold (convctl-tag(1)) */
#define TAGS_MAX 100
/* tags[0..n) as a person may give them: at most TAGS_MAX, each by
 * label_check(); what a command line refuses as a usage error */
int tags_check(char *const *tags, size_t n, struct error *);
/* sets the title and marks it as set by hand */
int conv_set_title(struct conv *, const char *title, struct error *);
/* ended c active again at now, its title and summary marked stale; fails
 * when c is active or another one is */
int conv_resume(struct store *, struct conv *c, int64_t now, struct error *);
/* the index of the message ref names in c: its id, else a position (1 the
 * first, -1 the newest; digits after an optional "-", so never "+1"); -1
 * and e, in one wording for every position that names none, when none */
long conv_message_find(struct conv *, const char *ref, struct error *);
/* replaces message i's content with text[0..len), or removes it when text
 * is NULL; the summary marked stale */
int conv_edit(struct conv *, long i, const char *text, size_t len,
    struct error *);
/* a new active conversation, started at now, "forkedFrom" src, holding
 * copies of src's messages 0..upto with new ids; fails when one is active */
struct conv *conv_fork(struct store *, struct conv *src, long upto,
    int64_t now, struct error *);
/* adds tags[0..n) not there yet (tags_check()'s, not empty; refused when c
 * would hold more than TAGS_MAX), or removes those there; *changed: any.
 * Linear in n and c's tags */
int conv_tag(struct conv *, char *const *tags, size_t n, int remove,
    int *changed, struct error *);
int conv_pin(struct conv *, int on, int *changed);
/* c's id; json: {id, ended (the id ended first, or null), forkedFrom} */
void render_switch(struct buf *, struct conv *c, const char *ended, int json);
/* c's tags, one a line, or a JSON array */
void render_tags(struct buf *, struct conv *c, int json);

/*
 * template.c: a named system prompt: the config file's template.NAME, else
 * the file NAME in settings->templates_dir, less its trailing newlines, at
 * most max bytes. *text: caller frees.
 */
int template_text(const struct settings *, const char *name, size_t max,
    char **text, size_t *len, struct error *);

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
