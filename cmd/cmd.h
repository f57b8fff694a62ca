/*
 * cmd.h - what a command is, and the steps to add one.
 *
 * To add a command NAME:
 *  1. Write cmd/NAME.c: its options, usage and help in a const struct
 *     cmd_entry cmd_NAME_entry, and a static exec that parses nothing itself:
 *     the table's parser has already checked the options and the number of
 *     arguments. exec makes one library call and prints the result.
 *  2. Declare the entry below and add it to the table in cmd/main.c.
 *  3. Write man/convctl-NAME.1 (its SYNOPSIS is the usage line) and
 *     tests/cli/NAME.t.
 */
#ifndef CONVCTL_CMD_H
#define CONVCTL_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "../lib/convctl.h"

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* failed, nothing changed */
	EXIT_USAGE = 2,
	EXIT_PARTIAL = 3,	/* done in part */
	EXIT_CONFLICT = 4,	/* add --expect-conversation: not that one */
};

/* option codes past the one-letter ones, for long-only options */
enum {
	OPT_WAIT = 256, OPT_IDLE_TIMEOUT, OPT_MAX_CONVERSATIONS,
	OPT_AT, OPT_TOOL, OPT_FORMAT, OPT_LAST, OPT_MAX_TOKENS, OPT_JSON,
	OPT_MAX, OPT_OLDER_THAN, OPT_DRY_RUN, OPT_NO_SUMMARY, OPT_PENDING,
	OPT_ALL, OPT_FORCE, OPT_VERBOSE, OPT_SPLIT, OPT_RENAME_CONFLICTS,
	OPT_SUMMARIZE, OPT_SUMMARIZER, OPT_MODEL, OPT_API_BASE,
	OPT_DEDUPE_KEY, OPT_EXPECT_CONVERSATION, OPT_REGEX, OPT_SINCE,
	OPT_UNTIL, OPT_CASE_SENSITIVE,
	OPT_CODE_MAX = 320
};

/* the options given, by code: how often, and each value */
struct args {
	int count[OPT_CODE_MAX];
	const char **values[OPT_CODE_MAX];
	int argc;		/* what is left after the options */
	char **argv;
};
int args_has(const struct args *, int code);
const char *args_get(const struct args *, int code);	/* the last value */
const char *const *args_all(const struct args *, int code, size_t *n);

struct ctx;

struct cmd_entry {
	const char *name;
	const char *summary;		/* one line for the command list */
	const char *usage;		/* after "convctl NAME", as in the man page */
	const char *help;		/* the option lines of -h */
	const char *shortopts;		/* the command's own, getopt style */
	const struct option *longopts;	/* the command's own, or NULL */
	int min_args, max_args;		/* operands; max -1: any number */
	int (*exec)(struct ctx *);
};

struct ctx {
	const struct cmd_entry *cmd;
	struct settings settings;
	struct args args;
};

/* common.c: each returns 0, or the exit status after printing the error */
/* "convctl: CMD: ..." on stderr, one printable line; ctx->cmd may be NULL */
void cmd_error(const struct ctx *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cmd_usage_error(const struct ctx *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* returns EXIT_USAGE */
/* the whole number option code in [min, max] */
int cmd_number(const struct ctx *, int code, const char *name, long min,
    long max, long *out);
/*
 * the output format of -f FMT and --json: dflt without either, json with
 * --json; FMT must be one of allowed, a mask of 1 << FMT_x
 */
int cmd_format(const struct ctx *, enum format dflt, enum format json,
    unsigned allowed, enum format *);
/* opens the store the settings name */
int cmd_open(struct ctx *, enum store_mode, struct store **);
/* applies the rolling limit and writes; says on stderr what the limit
 * removed, how many and which setting */
int cmd_commit(struct ctx *, struct store *);
/* the same, but says nothing: *ids (caller frees with strv_free) is what the
 * limit removed, for the caller to report */
int cmd_commit_pruned(struct ctx *, struct store *, char ***ids, size_t *n);
/* commits when asked to, then prints ids[0..n) (--json: as an array) */
int cmd_finish_ids(struct ctx *, struct store *, int commit, char **ids,
    size_t n);
/* writes s[0..len) to stdout */
int cmd_print(const struct ctx *, const char *s, size_t len);
/* the time of the operation: --at TIME, else CONVCTL_NOW, else the clock */
int cmd_now(const struct ctx *, int64_t *ms);
/* where setting s came from, for a message: "set by --max-conversations",
 * "set by CONVCTL_…", "set in 'CONFIG'", "the default"; returns buf */
const char *cmd_setting_origin(const struct ctx *, enum setting s, char *buf,
    size_t size);
/* a clock behind the last message (stepped back): one warning, saying what
 * was done ("recorded", "ended") at that message's time instead */
void cmd_skew_warning(const struct ctx *, int64_t clock, int64_t last,
    const char *done);
/*
 * progress.c: a progress line on stderr, only when stderr is a terminal.
 *	struct progress p;
 *	progress_start(&p, ctx, "summarizing", n);
 *	for (...) { ...; progress_step(&p, i + 1); }
 *	progress_done(&p);
 * progress_cb fits a library callback such as prune_request.progress, with
 * the struct progress as its argument. Nothing shows for total < 2.
 * progress_item(&p, i + 1, name) draws at once, naming the item begun: for
 * steps that take long. progress_clear() erases the line before a message;
 * the next step draws it again.
 */
struct progress {
	const struct ctx *ctx;
	const char *what;
	const char *item;	/* shown after the count; NULL: none */
	size_t done, total;
	int on;			/* stderr is a terminal */
	int shown;		/* something is on the line */
	long long last_ms;	/* when it was last drawn */
};
void progress_start(struct progress *, const struct ctx *, const char *what,
    size_t total);
void progress_step(struct progress *, size_t done);
void progress_item(struct progress *, size_t done, const char *item);
void progress_clear(struct progress *);
void progress_done(struct progress *);
void progress_cb(void *progress, size_t done, size_t total);
/* main.c */
void cmd_print_usage(FILE *, const struct cmd_entry *);
/* summarize.c: shared with end (and migrate --summarize) */
/* the summarizer, the --summarizer, --model and --api-base flags applied */
int cmd_summary_config(struct ctx *, struct summary_config *, struct error *);
/* summarizes each job with the store unlocked, storing what is still current;
 * prints why any failed; returns EXIT_OK, EXIT_PARTIAL or EXIT_FAIL */
int cmd_summarize_jobs(struct ctx *, const struct summary_config *,
    struct summary_job *const *, size_t n);

extern const struct cmd_entry cmd_add_entry, cmd_end_entry, cmd_show_entry,
    cmd_recent_entry, cmd_prompt_entry, cmd_migrate_entry, cmd_prune_entry,
    cmd_summarize_entry;
extern const struct cmd_entry cmd_search_entry, cmd_config_entry,
    cmd_delete_entry;

#endif
