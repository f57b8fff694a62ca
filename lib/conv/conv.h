/*
 * conv.h - the conversation rules (lib/conv): the lifecycle applied to a
 * store (lifecycle.c), a store's copy (copy.c), convctl run's exchange
 * (exchange.c) and what a person does to a conversation (organize.c).
 */
#ifndef CONVCTL_CONV_H
#define CONVCTL_CONV_H

#include "../settings/settings.h"
#include "../store/store.h"

/* lifecycle.c */
/* what a command reads when no id is given: *c the active conversation, else with ended_too the one that ended
 * last; NULL when there is none (that is no error) */
int conv_default(struct store *, int ended_too, struct conv **c,
    struct error *);
/* *v: the newest limit ended conversations, only those tagged tag (NULL:
 * any), newest endedAt first, *n of them; caller frees the array */
int conv_recent(struct store *, size_t limit, const char *tag,
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
int conv_prune(struct store *, const struct prune_request *, char ***ids,
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
int conv_delete(struct store *, char *const *ids, size_t n, int force,
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

#endif
