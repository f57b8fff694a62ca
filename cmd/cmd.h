/*
 * cmd.h - what a command is, and the steps to add one.
 *
 * To add a command NAME:
 *  1. Write cmd/NAME.c: a table of its options (struct op_option, one row
 *     each: letter, long name, value, help), a const struct cmd_entry
 *     cmd_NAME_entry naming it and its operands, and a static exec that
 *     parses nothing itself: options.c has already checked the options and
 *     the number of operands, and made the usage line and -h from the
 *     table. exec reads them with args_get(&ctx->args, "name"), makes one
 *     library call and prints the result. A reader whose output may be
 *     long says .paging = PAGING_READER (enum cmd_paging).
 *  2. Declare the entry below and add it to the table in cmd/main.c.
 *  3. Write man/convctl-NAME.1 (its SYNOPSIS is the usage line, its OPTIONS
 *     the rows: tests/cli/t0020-meta.t checks both), tests/cli/NAME.t, and the
 *     completions in completions/ (tests/cli/t0080-completion.t checks bash's).
 */
#ifndef CONVCTL_CMD_H
#define CONVCTL_CMD_H

#include <stdarg.h>
#include <stdio.h>

#include "../lib/convctl.h"

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* failed, nothing changed */
	EXIT_USAGE = 2,
	EXIT_PARTIAL = 3,	/* done in part */
	EXIT_CONFLICT = 4,	/* add --expect-conversation: not that one */
	EXIT_UNAVAILABLE = 69,	/* a library the store needs is missing */
	EXIT_TEMPFAIL = 75,	/* the database cannot be reached: try again */
};

/*
 * One option of a command, declared once (struct op_option, lib/args/args.h):
 * the parser, the usage line and the help text are all made from its rows
 * (options.c), written OPT(letter, name, value, help, flags). A table ends
 * with a row whose name and key are both 0. Code asks for an option by its
 * long name, or by its letter ("n") when it has no long name; an option the
 * command does not have reads as not given. The commands `convctl mcp`
 * offers as tools take their tables from lib/args/args.c, whose rows also
 * make the tools' arguments.
 */
/* the options given and the operands left */
struct args {
	struct arg_slot {
		const struct op_option *opt;
		const char **values;	/* each value given, in order */
		int count;		/* how often it was given */
	} *slot;
	size_t nslot;
	int argc;		/* the operands, options taken out */
	char **argv;
};
int args_has(const struct args *, const char *name);
const char *args_get(const struct args *, const char *name); /* the last value */
const char *const *args_all(const struct args *, const char *name, size_t *n);

struct ctx;

/* whether a command's output goes through the pager at a terminal */
enum cmd_paging {
	PAGING_ASKED,		/* with -p only (the default) */
	PAGING_READER,		/* unless --no-pager: a reader's long output */
	PAGING_STDIN,		/* with -p, unless it reads a terminal */
	PAGING_NEVER,		/* never: it talks to the terminal itself */
};

struct cmd_entry {
	const char *name;
	const char *summary;		/* one line for the command list */
	const struct op_option *options; /* the command's own, or NULL */
	const struct op_option *shared; /* then rows shared with others */
	const char *operands;		/* the usage line's end: "[ID]" */
	const struct op_option *operand_help; /* -h lines for them, or NULL */
	const char *notes;		/* a paragraph after the options, or NULL */
	int min_args, max_args;		/* operands; max -1: any number */
	const char *too_few;		/* the usage error for fewer than
					 * min_args, or NULL: "too few
					 * arguments" */
	int first_operand_stops;	/* options end at the first operand, which
					 * with the rest is a command to run */
	enum cmd_paging paging;		/* whether its output is paged */
	int (*exec)(struct ctx *);
};

struct ctx {
	const struct cmd_entry *cmd;
	struct settings settings;
	struct args args;
};

/* common.c: each returns 0, or the exit status after printing the error */
/* report.c: "convctl: CMD: ..." on stderr, one printable line; ctx->cmd may be NULL */
void cmd_error(const struct ctx *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cmd_usage_error(const struct ctx *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* returns EXIT_USAGE */
/* report.c: cmd_error with a va_list; options.c: cmd_usage_error */
void cmd_verror(const struct ctx *, const char *fmt, va_list)
	__attribute__((format(printf, 2, 0)));
/* the whole number of option name, in [min, max] */
int cmd_number(const struct ctx *, const char *name, long min, long max,
    long *out);
/* the same in the range its row of t says (lib/args: the tool's too) */
int cmd_row_number(const struct ctx *, const struct op_option *t,
    const char *name, long *out);
/*
 * the output format of -f FMT and --json: dflt without either, json with
 * --json; FMT must be one of allowed, a mask of 1 << FMT_x
 */
int cmd_format(const struct ctx *, enum format dflt, enum format json,
    unsigned allowed, enum format *);
/* an operation's status (lib/ops/ops.h) as the exit status, e said unless
 * OPS_DONE or OPS_PARTIAL (whose lines the caller says) */
int cmd_ops_status(const struct ctx *, enum ops_status, const struct error *);
/* prints e; the exit status for its kind: EXIT_FAIL, or EXIT_UNAVAILABLE
 * and EXIT_TEMPFAIL for a database's */
int cmd_fail(const struct ctx *, const struct error *);
/* the same for an option other than -f: its value, else dflt */
int cmd_format_of(const struct ctx *, const char *option, enum format dflt,
    unsigned allowed, enum format *);
/* the conversation id, loaded from the store; NULL when there is none or it
 * cannot be read, said on stderr, *rc the exit status for it */
struct conv *cmd_conv(const struct ctx *, struct store *, const char *id,
    int *rc);
/* opens the store the settings name (lifecycle_begin) */
int cmd_open(struct ctx *, enum store_mode, struct store **);
/* the operands from the first on joined by spaces, as echo does, or
 * without them all of standard input (at most max bytes: the limit the
 * operation says) less its trailing newlines; read before the store is
 * locked, so a slow or endless pipe never holds the lock. Its size is the
 * operation's to check (ops_add(), lifecycle_message_size()) */
int cmd_text(struct ctx *, int first, long max, struct buf *);
/* all of standard input, at most max bytes, as it is; a usage error naming
 * what was not given (instead) when it is a terminal */
int cmd_stdin_text(struct ctx *, const char *instead, long max, struct buf *);
/* --color WHEN: *on when stdout is to be coloured (auto: a terminal, TERM
 * set and not dumb, no NO_COLOR) */
int cmd_colour(const struct ctx *, int *on);
/* writes s[0..len) to stdout; a failure is said once */
int cmd_print(const struct ctx *, const char *s, size_t len);
/* cmd_print has said that stdout failed: main.c need not say it again;
 * forgotten as main() begins (the test tool runs it many times) */
int cmd_stdout_reported(void);
void cmd_stdout_forget(void);
/* standard output is a terminal: a message's content is written for it,
 * its control characters escaped (buf_add_for_terminal); to a pipe or a
 * file it is written as it is */
int cmd_terminal(void);
/* s (an id, a title the store holds) as one printable line, then a
 * newline, to f: buf_add_printable's escapes, never a raw control character */
void cmd_put_line(FILE *f, const char *s);
/* a size limit in bytes, max_input_bytes or max_message_bytes */
int cmd_limit(const struct ctx *, enum setting, long *max);
/* --role's value, or a usage error in role_unknown's words */
int cmd_role(const struct ctx *, const char *, enum conv_role *);
/* the time of the operation: --at TIME, else CONVCTL_NOW, else the clock */
int cmd_now(const struct ctx *, int64_t *ms);
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
/* a line on stderr as cmd_error says it (ctx a struct ctx), over any
 * progress line: an llm_config.log, for --verbose */
void progress_log_line(void *ctx, const char *line);
/* progress.c too: a summarize_request.report, its argument a struct
 * progress: the progress line, and each error and --verbose line on stderr */
void cmd_summarize_report(void *progress, const struct summarize_event *);
/*
 * options.c: argv against the tables t[0..nt): options out, operands left.
 * Long options must be spelled out (no abbreviations); operands and options
 * may mix unless first_operand_stops; "--" ends the options; "-1", a
 * negative number, is an operand (no option is a digit). Returns 0, 1
 * when --help was given (its place: the rest is not read), or EXIT_USAGE
 * after printing what is wrong. Free with args_free().
 */
int options_parse(const struct ctx *, const struct op_option *const *t,
    size_t nt, int first_operand_stops, int argc, char **argv, struct args *);
void args_free(struct args *);
/* "usage: convctl NAME [-f FMT]..." and the -h option lines, from the tables */
void cmd_print_usage(FILE *, const struct cmd_entry *);
void options_print_help(FILE *, const struct op_option *const *t, size_t nt);
/* " [-x ARG] [--name]": t's options (not those shown among operands) */
void options_usage(struct buf *, const struct op_option *t);

/*
 * pager.c: long output through a pager at a terminal (convctl(1), PAGER).
 * cmd_pager_options: --no-pager and -p, the global options before a
 * command; pager_want(-1 for --no-pager, 1 for -p, else 0) says which was
 * given; pager_start() before the command runs (as its entry's .paging
 * says, at a terminal, unless the pager setting is cat or empty); pager_finish() before convctl exits waits for
 * it. pager_gone(errno) of a failed write: 1 when the pager is gone (quit
 * early), which is no failure.
 */
extern const struct op_option cmd_pager_options[];
void pager_want(int);
void pager_start(const struct ctx *);
int pager_active(void);
int pager_gone(int err);
void pager_finish(void);

/*
 * switch.c, for resume and fork: lib/ops/switch.c's ops_switch() (kind,
 * on the operand ID; fork's --at), its id printed after the write
 * (--json: render_switch's object), the lines of a pending summary said;
 * the exit status.
 */
int cmd_switch(struct ctx *, enum ops_switch_kind);

/*
 * common.c: the options the settings table's rows with flag (SETTING_*)
 * give, in its order, to out (room for SET_COUNT), then none ({ 0 }): each
 * row's letter, flag and help, with its names ("a, b or c") and its fixed
 * default; the count. Made once; the help lives as long as the program.
 */
size_t cmd_setting_options(struct op_option *out, unsigned flag);
/* common.c: --verbose, then the SETTING_SUMMARY rows' (--summarizer,
 * --api-base, --model), made by cmd_summarizer_options_init() */
extern struct op_option cmd_summarizer_options[];
void cmd_summarizer_options_init(void);

extern const struct cmd_entry cmd_add_entry, cmd_end_entry, cmd_show_entry,
    cmd_recent_entry, cmd_prompt_entry, cmd_migrate_entry, cmd_prune_entry,
    cmd_summarize_entry;
extern const struct cmd_entry cmd_search_entry, cmd_config_entry,
    cmd_delete_entry, cmd_copy_entry, cmd_run_entry;
extern const struct cmd_entry cmd_title_entry, cmd_resume_entry,
    cmd_edit_entry, cmd_fork_entry, cmd_tag_entry, cmd_pin_entry;
extern const struct cmd_entry cmd_mcp_entry, cmd_stats_entry;

#endif
