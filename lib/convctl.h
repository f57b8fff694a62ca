/*
 * convctl.h - the interface between cmd/ and lib/, the library under
 * convctl(1); convctl's own, not installed (README, "How the code is laid out").
 *
 * The library knows the store, JSON, HTTP, time, locking and settings. It never
 * prints and never exits: a function that fails returns -1 (or NULL) and fills
 * a struct error with one line that names the problem and the place; the caller
 * decides what to print and which exit status that is.
 *
 * Who allocates frees: a function returning char * hands the caller a string
 * to free(); pointers into a struct store or struct conv live as long as it.
 *
 * Names carry their module's prefix; the header is grouped by source file.
 */
#ifndef CONVCTL_H
#define CONVCTL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define CONVCTL_VERSION "0.1.0"
#define STORE_VERSION 1		/* the newest store version this library knows */

/* error.c */
struct error {
	char msg[1024];
	/* what the caller may do about it: error_set() says ERROR_FAILED; a
	 * store's engine says the others after it */
	enum error_kind {
		ERROR_FAILED,		/* nothing to do but fix the cause */
		ERROR_UNAVAILABLE,	/* a library the store needs is missing */
		ERROR_TEMPORARY,	/* the server cannot be reached: try again */
	} kind;
};
int error_set(struct error *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* returns -1 */
int error_errno(struct error *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* appends ": strerror(errno)" */
/* s into out as one printable line: control characters as \n, \t, \r or
 * \xHH, and so each byte that is not valid UTF-8 (both functions above do
 * this to their message); its length. An escape that does not fit is left
 * out whole. The _n form takes len bytes, NUL bytes included. */
size_t error_printable(char *out, size_t size, const char *s);
size_t error_printable_n(char *out, size_t size, const char *s, size_t len);

/* buf.c: a growing byte buffer; the data is always NUL-terminated */
struct buf {
	char *data;
	size_t len, cap;
};
void buf_add(struct buf *, const void *, size_t);
/* room for extra bytes more (and a NUL) without growing again; from
 * BUF_PREFAULT bytes on, that room is made present at once (mem_prefault) */
void buf_reserve(struct buf *, size_t extra);
#define BUF_PREFAULT (1 << 20)
void buf_adds(struct buf *, const char *);
void buf_addc(struct buf *, char);
void buf_addf(struct buf *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *, const char *fmt, va_list)
	__attribute__((format(printf, 2, 0)));
char *buf_detach(struct buf *);		/* caller frees; buf is empty again */
void buf_free(struct buf *);
/* reads all of fd; name is for the error message */
int buf_read_fd(struct buf *, int fd, const char *name, struct error *);
/* the same, refusing more than max bytes (< SIZE_MAX): the error names the
 * setting */
int buf_read_max(struct buf *, int fd, const char *name, size_t max,
    const char *setting, struct error *);
/* len less the trailing newlines (and a CR before each), as command
 * substitution drops them: `tool | convctl add` stores the reply */
size_t chomp(const char *s, size_t len);
/* utf8.c: offset of the first invalid UTF-8 byte, or -1 when s[0..len) is
 * valid */
long utf8_invalid_at(const char *s, size_t len);
size_t utf8_count(const char *s, size_t len);	/* code points */
void *xmalloc(size_t);
void *xrealloc(void *, size_t);
char *xstrdup(const char *);
/* the whole pages of p[0..n) made present at once, for memory about to be
 * written all through */
void mem_prefault(void *p, size_t n);
/* json.c: jansson's blocks of BUF_PREFAULT bytes or more prefaulted too,
 * for a command that records megabytes */
void json_prefault_large(void);

/* time.c: times are milliseconds since the epoch, UTC */
#define TS_LEN sizeof("2026-02-04T17:26:40.000Z")
/* ISO 8601: YYYY-MM-DD[THH:MM[:SS[.fff…]]][Z|±HH[:]MM]; no zone means UTC;
 * times before 1970-01-01T00:00Z are refused */
int ts_parse(const char *s, int64_t *ms);
void ts_format(int64_t ms, char out[TS_LEN]);	/* 2026-02-04T17:26:40.000Z */
/* the clock, or CONVCTL_NOW when set */
int ts_now(int64_t *ms, struct error *);
/* 90s, 45m, 12h, 30d, 2w; a bare number is days */
int duration_parse(const char *s, int64_t *ms);
/* ms >= 0 for a person, its two largest units: 250ms, 45s, 1h, 1h5m, 3d2h */
#define DURATION_LEN 32
void duration_format(int64_t ms, char out[DURATION_LEN]);
/* how far past the clock a time the user gives (add --at) may be: clocks of
 * hosts that share a store differ by seconds, not by years */
#define FUTURE_TOLERANCE_MS (5 * 60000)

/* names.c: an enum's names, one table per enum, ended by a row whose name
 * is NULL; the table's order is the order a list of them is written in */
struct name_table {
	const char *name;
	int value;
};
int enum_parse(const struct name_table *, const char *name, int *value);
const char *enum_name(const struct name_table *, int value);	/* "?": none */
void enum_list(struct buf *, const struct name_table *);	/* "a, b or c" */

/*
 * settings.c: every setting is one row of setting_table (its key, flag,
 * variables, type, bounds, default and help); parsing, precedence (flag >
 * environment > config file > default), validation, `convctl config` and
 * the common options are all made from the rows.
 */
enum setting {
	SET_STORE,
	SET_IDLE_TIMEOUT,	/* minutes */
	SET_MAX_CONVERSATIONS,
	SET_WAIT,		/* seconds */
	SET_SUMMARIZER,
	SET_IDLE_SUMMARY,	/* pending or add, for a network summarizer */
	SET_API_BASE,
	SET_MODEL,
	SET_API_KEY,
	SET_ANTHROPIC_API_KEY,
	SET_ANTHROPIC_BASE,
	SET_CONNECT_TIMEOUT,	/* seconds */
	SET_TIMEOUT,		/* seconds, whole request */
	SET_RETRIES,
	SET_CA_BUNDLE,
	SET_CONTEXT_CHARS,
	SET_MAX_INPUT_BYTES,	/* a store or a migrate source */
	SET_MAX_MESSAGE_BYTES,	/* one message add reads */
	SET_COUNT
};
enum setting_source { SRC_DEFAULT, SRC_FILE, SRC_ENV, SRC_FLAG };
extern const struct name_table setting_sources[]; /* "config file", ... */
enum setting_type {
	SETTING_STRING,
	SETTING_PATH,		/* a file's path; in the config file ~/ is $HOME/ */
	SETTING_SECRET,		/* masked when shown; its file must be 0600 */
	SETTING_WHOLE,		/* a whole number from min to max */
	SETTING_NUMBER,		/* fractions allowed, from min to max */
	SETTING_ENUM,		/* one of names */
};
enum {
	SETTING_COMMON = 1,	/* its flag is a common option of every command */
};
struct settings;
struct setting_row {
	const char *key;	/* in the config file: "idle_timeout" */
	const char *flag;	/* its long option, "idle-timeout"; NULL: none */
	char letter;		/* its short option, 's'; 0: none */
	const char *arg;	/* the flag's value in -h: "MINUTES" */
	unsigned flags;		/* SETTING_COMMON; else only the commands that
				 * declare the flag take it */
	const char *env;	/* "CONVCTL_IDLE_TIMEOUT" */
	const char *env2;	/* read when env is not set, or NULL */
	enum setting_type type;
	const char *min, *max;	/* bounds as written: "0", "52560000" */
	const struct name_table *names;	/* SETTING_ENUM */
	const char *def;	/* the default; NULL: none, or computed */
	/* a default computed from the environment or other settings, NULL
	 * when there is none; *why says from what: "no API key is set" */
	const char *(*compute)(const struct settings *, const char **why);
	const char *help;	/* one line, for -h */
};
extern const struct setting_row setting_table[SET_COUNT];
struct settings {
	char *value[SET_COUNT];		/* NULL: not given, the default holds */
	enum setting_source source[SET_COUNT];
	char *config_path;		/* the config file looked at */
	char *store_default;		/* under XDG_DATA_HOME or HOME */
	char **warnings;		/* what the caller should print */
	size_t nwarnings;
	/* the config file's template.NAME = TEXT lines: names[i], texts[i] */
	char **template_names, **template_texts;
	size_t ntemplates;
	char *templates_dir;		/* XDG_CONFIG_HOME/convctl/templates */
};
/* the config file, then the environment over it */
int settings_load(struct settings *, struct error *);
/* value NULL: back to the default */
void settings_set(struct settings *, enum setting, const char *value,
    enum setting_source);
/* the value given, else the default (*why says how a computed one was
 * chosen, NULL for a fixed one; why may be NULL), else NULL */
const char *settings_effective(const struct settings *, enum setting,
    const char **why);
const char *settings_get(const struct settings *, enum setting);
/*
 * The value checked against its row; the error names the setting as it
 * was given (--idle-timeout, CONVCTL_IDLE_TIMEOUT, idle_timeout in FILE)
 * and says what is wrong in one wording for all.
 */
int settings_long(const struct settings *, enum setting, long *out,
    struct error *);
int settings_double(const struct settings *, enum setting, double *out,
    struct error *);
int settings_enum(const struct settings *, enum setting, int *out,
    struct error *);
/* the check its type asks for, whatever the type; for the fuzzer and tests */
int settings_check(const struct settings *, enum setting, struct error *);
/* "invalid SETTING 'VALUE': what", the setting named as it was given */
int settings_invalid(const struct settings *, enum setting, const char *what,
    struct error *);
/* a SETTING_WHOLE row's bounds */
void setting_range(enum setting, long *min, long *max);
void settings_free(struct settings *);
/* where s came from, as a user would name it: "set by --wait", "set by
 * CONVCTL_WAIT", "set in '~/.config/convctl/config'", "the default" */
void settings_origin(struct buf *, const struct settings *, enum setting s);
/* the variable s was read from: env, else env2 when only that is set */
const char *settings_env_used(enum setting s);

/* config.c: each setting's effective value (secrets masked) and source, one
 * a line: KEY VALUE (SOURCE [VARIABLE | : WHY]), or as JSON */
void settings_render(struct buf *, const struct settings *, int json);

/* store.c */
enum conv_role { ROLE_USER, ROLE_ASSISTANT, ROLE_SYSTEM, ROLE_TOOL };
const char *role_name(enum conv_role);
int role_parse(const char *, enum conv_role *);
/* "user, assistant, system or tool": what role_parse() takes, for errors */
const char *role_list(void);

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

/* "file" or "postgresql" */
const char *store_engine_name(const struct store *);
/* the engine a store path names: "file" or "postgresql" */
const char *store_engine_of(const char *path);
/* path as messages show it: a database URI's password as ***; caller frees */
char *store_shown(const char *path);

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
const char *conv_title(const struct conv *);	/* NULL: none */
const char *conv_summary(const struct conv *);	/* NULL: none */
size_t conv_message_count(const struct conv *);
int64_t conv_last_activity(const struct conv *);	/* last message, else start */

/* lifecycle.c */
struct add_request {
	enum conv_role role;
	const char *text;
	size_t len;			/* text may hold NUL bytes */
	const char *const *tools;
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
/* save.c: the whole store as its file holds it, whatever engine holds it */
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
int conv_pinned(struct conv *);
int conv_has_tag(struct conv *, const char *tag);
/* when the idle timeout starts: the last message, or a later start (a fork)
 * or resume */
int64_t conv_idle_from(struct conv *);
/* sets the title and marks it as set by hand */
int conv_set_title(struct conv *, const char *title, struct error *);
/* ended c active again at now, its title and summary marked stale; fails
 * when c is active or another one is */
int conv_resume(struct store *, struct conv *c, int64_t now, struct error *);
/* the index of the message ref names in c: its id, else a position (1 the
 * first, -1 the newest); -1 and e when none */
long conv_message_find(struct conv *, const char *ref, struct error *);
/* replaces message i's content with text[0..len), or removes it when text
 * is NULL; the summary marked stale */
int conv_edit(struct conv *, long i, const char *text, size_t len,
    struct error *);
/* a new active conversation, started at now, "forkedFrom" src, holding
 * copies of src's messages 0..upto with new ids; fails when one is active */
struct conv *conv_fork(struct store *, struct conv *src, long upto,
    int64_t now, struct error *);
/* adds tags[0..n) not there yet, or removes those there; *changed: any */
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

/* render.c: text for stdout, appended to out (it may hold NUL bytes) */
enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_OPENAI, FMT_JSONL };
extern const struct name_table render_formats[];	/* "text", ... */
int render_conv(struct buf *out, struct conv *, enum format, struct error *);
void render_recent(struct buf *out, struct conv **, size_t n, int json);
/* one id a line, or a JSON array of them */
void render_ids(struct buf *out, char *const *ids, size_t n, int json);
/*
 * The system messages that open a conversation are always in a prompt; the
 * limits choose among the rest. max_tokens counts the opening ones too, and
 * when not even the newest message fits whole it is cut from its start
 * behind a "[... N characters cut ...]" line (cut says how many); -1 when
 * the opening ones alone, or with that line, do not fit.
 */
struct prompt_request {
	enum format format;
	long last;			/* newest N non-system messages; <0: all */
	long max_tokens;		/* <0: no limit */
	size_t cut;			/* out: code points cut, 0: none */
};
/* the estimate --max-tokens uses: a token for every 4 code points, rounded
 * up, of each message as the text format writes it */
size_t tokens_estimate(const char *s, size_t len);
/* c NULL (nothing active): nothing, or [] for FMT_OPENAI */
int render_prompt(struct buf *out, struct conv *, struct prompt_request *,
    struct error *);

/* run.c: a command run with its standard input fed from memory and its
 * standard output passed on as it comes and spooled; SIGINT, SIGTERM, SIGHUP
 * sent to convctl by kill(2) are passed on to it (the terminal's reach it
 * directly; one ignored at the start stays ignored, for it too), and a
 * second SIGINT stops the wait */
struct spool;
struct run_request {
	char *const *argv;		/* argv[0] is looked for in PATH */
	const char *input;		/* the command's standard input, then EOF */
	size_t input_len;
	size_t keep_max;		/* output past this many bytes is not kept */
	int out_fd;			/* where the output goes as it arrives */
	/* the output is kept there, and dropped (spool_drop) once it cannot
	 * be recorded: too long, or not UTF-8; NULL: not kept */
	struct spool *spool;
};
struct run_result {
	long not_utf8;			/* output's first byte that is not
					 * UTF-8 (utf8_invalid_at), or -1 */
	size_t out_bytes;		/* how much it wrote */
	int overflow;			/* more than keep_max: none of it kept */
	int exit_code;			/* its status; 128 + N: killed by signal N */
	int signal;			/* the signal that killed it, or 0 */
	int abandoned;			/* a second SIGINT: not waited for (130) */
	int pid;
	int out_errno;			/* writing to out_fd failed (then only
					 * kept): the errno */
};
/* -1: the command could not be started (e says why; errno is kept) */
int run_command(const struct run_request *, struct run_result *,
    struct error *);

/*
 * store-spool.c: a long text (convctl run's answer) kept JSON-escaped, as the
 * store's file holds it, in an unnamed temporary file as it arrives, never
 * whole in memory; the store writes the message from there (exchange.spool).
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
void spool_add(struct spool *, const char *s, size_t n);
/* all of it written to the file: -1 with errno when a write failed */
int spool_end(struct spool *);
/* the text's length as chomp() leaves it */
size_t spool_chomped(const struct spool *);
void spool_drop(struct spool *);

/* search.c: lines of messages that match a query, in every conversation */
struct search;
/* a plain query (regex 0) or a POSIX extended regular expression; case is
 * ignored unless match_case */
int search_compile(struct search **, const char *query, int regex,
    int match_case, struct error *);
void search_free(struct search *);
struct search_request {
	int role;			/* an enum conv_role; <0: any */
	int64_t since, until;		/* since <= time < until; <0: open */
	long max;			/* the newest max hits; <0: all */
	const char *tag;		/* only conversations tagged so; NULL: any */
	const char *tool;		/* only messages whose toolsUsed names it */
};
struct search_match {
	size_t start, end;		/* bytes into the line */
};
struct search_hit {
	const char *conv_id, *msg_id;	/* valid while the store is open */
	int64_t time;
	enum conv_role role;
	const char *line;		/* into the message; not NUL-terminated */
	size_t len, lineno;		/* lineno counts from 1 */
	struct search_match *match;	/* every match in the line, nmatch >= 1 */
	size_t nmatch, seq;
};
struct search_result {
	struct search_hit *hits;	/* oldest first */
	size_t n, cap;
};
int search_run(struct store *, const struct search *,
    const struct search_request *, struct search_result *, struct error *);
void search_result_free(struct search_result *);
/* ID TIME ROLE LINE, tab-separated, the matches in bold red when colour;
 * or a JSON array of {id, messageId, timestamp, role, lineNumber, line,
 * match, matches: [[start, end]…]} (byte offsets into line) */
void search_render(struct buf *, const struct search_result *, int json,
    int colour);

/* sha256.c */
#define SHA256_HEX_LEN 65	/* 64 hex digits and a NUL */
void sha256(const void *, size_t, unsigned char out[32]);
void sha256_hex(const void *, size_t, char out[SHA256_HEX_LEN]);

/* migrate/: other tools' histories into conversations, all or nothing */
enum migrate_format {	/* a new one: the recipe in lib/migrate/formats.c */
	MIGRATE_SMARTHOLE, MIGRATE_MESSAGES, MIGRATE_JSONL, MIGRATE_CHATSIDIAN,
	MIGRATE_AIWHISPERER, MIGRATE_CHATGPT, MIGRATE_CLAUDE, MIGRATE_CODEX,
	MIGRATE_LLM, MIGRATE_CONVCTL, MIGRATE_MARKDOWN, MIGRATE_DETECT
};
/* the names, from the table of formats: "smarthole, messages, …" */
const char *migrate_format_list(void);
int migrate_format_parse(const char *, enum migrate_format *);
const char *migrate_format_name(enum migrate_format);
struct migrate_request {
	const char *path;		/* a file, or a directory of them */
	enum migrate_format format;	/* MIGRATE_DETECT: from name and content */
	int rename_conflicts;		/* a taken id gets -2, -3…; else an error */
	int split;			/* cut at gaps longer than idle_timeout */
	/* a bad source, record or line is skipped, and named in a note,
	 * rather than failing the run */
	int skip_bad;
	int64_t idle_timeout;		/* ms */
	int64_t now;			/* for messages without a time, and the record */
	size_t max_bytes;		/* the largest source read; 0: no limit */
	/* path's bytes, read before the store was locked (a pipe, a device:
	 * see migrate_read); NULL: each source is read by migrate_run */
	const char *data;
	size_t len;
	/* called as entries are read, so a caller may show progress; or NULL */
	void (*progress)(void *arg, const char *file, size_t done, size_t total);
	void *progress_arg;
};
struct migrate_result;
/*
 * Reads every source under rq->path, checks it, and adds what is new to st in
 * memory: its conversations, a record of each source in "imports" and
 * lastMigrated. Sources recorded before are skipped. On error st may hold part
 * of the import: the caller must not save it. Either way the caller frees
 * *result with migrate_free().
 */
int migrate_run(struct store *, const struct migrate_request *,
    struct migrate_result **, struct error *);
/* all of the source file, at most max bytes (0: no limit; the error names
 * max_input_bytes), into b */
int migrate_read(const char *file, size_t max, struct buf *b, struct error *);
size_t migrate_imported(const struct migrate_result *);	/* conversations */
int migrate_changed(const struct migrate_result *);	/* a source was new */
int migrate_was_imported(const struct migrate_result *, const char *id);
/* 1: imported, with a summary migrate wrote rather than the source's */
int migrate_made_summary(const struct migrate_result *, const char *id);
/*
 * the conversations the import added that want a summary (none, or the one
 * migrate wrote when cf names a model), less the pruned ids the rolling limit
 * removed or would: new jobs (summary_job_free each, then free the array)
 */
struct summary_config;
struct summary_job **migrate_summary_jobs(struct store *,
    const struct migrate_result *, const struct summary_config *cf,
    char *const *pruned, size_t npruned, size_t *njobs);
/* the i-th line to tell the user (a torn line skipped…); NULL past the last */
const char *migrate_note(const struct migrate_result *, size_t i);
/* what was found and done; pruned: ids the rolling limit removed after */
void migrate_report(struct buf *, const struct migrate_result *, int dry_run,
    char *const *pruned, size_t npruned, int json);
void migrate_free(struct migrate_result *);

/* llm.c: one chat request over HTTP (libcurl, started by the first request) */
enum llm_api { LLM_OPENAI, LLM_ANTHROPIC };
struct llm_config {
	enum llm_api api;
	const char *base;		/* the API root, e.g. https://api.openai.com/v1 */
	const char *model;
	const char *model_hint;		/* what chooses the model, for a 404 */
	const char *key;		/* NULL: no key is sent */
	const char *ca_bundle;		/* NULL: the system's CA certificates */
	double connect_timeout;		/* seconds */
	double timeout;			/* seconds, for each attempt */
	long retries;			/* attempts after the first */
	/* --verbose: each line of the exchange, the key replaced by [redacted] */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};
/* sends system and user text; *text is the model's reply, caller frees */
int llm_chat(const struct llm_config *, const char *system, const char *user,
    char **text, struct error *);
/* *text: the model's words in a 2xx reply body from url; caller frees */
int llm_reply_text(enum llm_api, const char *url, const char *body, size_t len,
    char **text, struct error *);
/* the provider's own error message in a reply body, one line; caller frees */
char *llm_error_message(const char *body, size_t len);
/* replaces every copy of secret in b with [redacted] */
void llm_redact(struct buf *, const char *secret);
void llm_cleanup(void);			/* after the last request */

/* summary.c: titles and summaries of ended conversations */
enum summary_kind { SUMMARY_NONE, SUMMARY_OFFLINE, SUMMARY_OPENAI,
	SUMMARY_ANTHROPIC };
extern const struct name_table summary_kinds[];	/* "openai", ... */
struct summary_config {
	enum summary_kind kind;
	struct llm_config llm;		/* openai and anthropic */
	long context_chars;		/* conversation text sent, in code points */
};
/*
 * summary-config.c: the summarizer and its settings, checked. Without a
 * summarizer setting, the settings table's computed default holds: openai
 * when an OpenAI API key or a base URL is configured, else anthropic when an
 * Anthropic key is, else offline. Pointers are into the settings.
 */
int summary_config_load(struct summary_config *, const struct settings *,
    struct error *);
/* what the command line gave over the settings; NULL: not given */
struct summary_flags {
	const char *summarizer, *model, *api_base;
};
enum summary_setup {
	SUMMARY_SETUP_OK,
	SUMMARY_SETUP_BAD_FLAG,		/* the summarizer flag names none */
	SUMMARY_SETUP_BAD_SETTING,	/* a setting (or flag value) is wrong */
};
/*
 * A conversation the idle boundary ended is summarized by the add that
 * crossed it (after its write, no lock held) when the summarizer is local
 * (offline), or when the idle_summary setting says "add" for a network
 * one; by default a network summarizer leaves it pending, for the next end
 * or summarize --pending.
 */
enum idle_summary { IDLE_SUMMARY_PENDING, IDLE_SUMMARY_ADD };
extern const struct name_table idle_summaries[];	/* "pending", "add" */
int summary_at_idle_end(const struct summary_config *,
    const struct settings *, struct error *);	/* 1 yes, 0 no, -1 e */
/* 1: the summarizer makes summaries here, sending nothing (offline) */
int summary_local(const struct summary_config *);
/* the flags set in st (as SRC_FLAG), then summary_config_load */
enum summary_setup summary_config_resolve(struct summary_config *,
    struct settings *st, const struct summary_flags *, struct error *);

/* a copy of one conversation, summarized while the store is closed */
struct summary_job;
struct summary_job *summary_job_new(struct conv *);
const char *summary_job_id(const struct summary_job *);
/* whether storing it keeps the conversation's title; a new job keeps one
 * set by hand (conv_title_by_hand) */
void summary_job_keep_title(struct summary_job *, int keep);
void summary_job_free(struct summary_job *);

struct summary_result {
	char *title, *summary;
	int offline_title;		/* the reply had no title: the offline one */
	int offline_summary;		/* nor a summary */
};
void summary_result_free(struct summary_result *);
/* summary-model.c: what a model is sent, and how its reply is read */
extern const char summary_instructions[];	/* the system prompt */
/* the conversation as sent: longer than max code points, its start and its
 * end with a marked gap between them; caller frees */
char *summary_prompt(const struct summary_job *, long max);
/* the TITLE: and SUMMARY: of a model's reply, NULL where it has none */
void summary_parse_reply(const char *reply, char **title, char **summary);
/* summary-offline.c, deterministic: from the first request, the last
 * answer, the tools, the message count and the time span */
void summary_offline(const struct summary_job *, struct summary_result *);
/* summary.c: with the configured summarizer; never touches the store */
int summary_make(const struct summary_config *, const struct summary_job *,
    struct summary_result *, struct error *);
enum summary_stored {
	SUMMARY_STORE_FAILED = -1,	/* e says why */
	SUMMARY_STORED,			/* in st, not yet saved */
	SUMMARY_STORE_GONE,		/* the conversation is gone */
	SUMMARY_STORE_CHANGED,		/* it changed since the job was made,
					 * and is left as it is */
};
enum summary_stored summary_store(struct store *, const struct summary_job *,
    const struct summary_result *, struct error *);

enum summary_status { SUMMARY_DONE, SUMMARY_WOULD, SUMMARY_SKIPPED,
	SUMMARY_FAILED, SUMMARY_CHANGED, SUMMARY_GONE };

/* summarize.c: a batch of summaries, made with no lock held; it never prints */
struct summarize_item {
	struct summary_job *job;	/* the item owns it */
	int todo;			/* 0: left as it is (SUMMARY_SKIPPED) */
	/* filled by summarize_run */
	enum summary_status status;
	struct summary_result res;	/* SUMMARY_DONE */
	char *error;			/* why not: FAILED, CHANGED, GONE */
};
enum summarize_event_kind {
	SUMMARIZE_BEGIN,	/* total: the items to summarize */
	SUMMARIZE_ITEM,		/* the done-th of total, id, begins */
	SUMMARIZE_STORING,	/* the store is opened to write what was made */
	SUMMARIZE_ERROR,	/* msg: why id was not summarized or stored; id
				 * NULL: the store could not be opened or saved */
	SUMMARIZE_VERBOSE,	/* msg: a --verbose line about id (only when
				 * cf->llm.log is set) */
	SUMMARIZE_NOTE,		/* msg: what writing did besides (the rolling
				 * limit removed some; the directory flush
				 * failed) */
};
struct summarize_event {
	enum summarize_event_kind kind;
	size_t done, total;
	const char *id;
	const char *msg;
};
struct summarize_request {
	const struct summary_config *cf;
	/* the store, the wait for its lock and the rolling limit, each
	 * looked up when results are written */
	const struct settings *settings;
	int dry_run;			/* summarize nothing: SUMMARY_WOULD */
	/* progress, errors and --verbose lines, as they happen; or NULL */
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
enum summarize_outcome {
	SUMMARIZE_DONE_ALL,	/* every item to do was done (or would be) */
	SUMMARIZE_DONE_SOME,
	SUMMARIZE_DONE_NONE,
};
/*
 * Summarizes items[i] with todo set while no lock is held, then stores each
 * result under the lock where its conversation is still there and unchanged
 * (with a model, before each request and at the end).
 */
enum summarize_outcome summarize_run(const struct summarize_request *,
    struct summarize_item *, size_t n);
/*
 * For a local summarizer only (summary_local): summarizes the items into st,
 * which the caller holds locked with its own changes in it, and commits it
 * all in one write (the rolling limit applied), reporting as summarize_run.
 * 0; -1: that write failed (reported), nothing was written and the items
 * are failed: the caller may write its own changes alone.
 */
int summarize_local(struct store *, const struct summarize_request *,
    struct summarize_item *, size_t n);
enum summarize_which {
	SUMMARIZE_LATEST,	/* the conversation that ended last */
	SUMMARIZE_ID,		/* the one named by id, ended */
	SUMMARIZE_PENDING,	/* every ended one without a summary */
	SUMMARIZE_ALL_ENDED,	/* every ended one */
};
struct summarize_selection {
	enum summarize_which which;
	const char *id;
	int force;			/* redo those with a summary already */
};
/* items (summarize_items_free) for the conversations selected, newest end
 * first; those with a summary already are todo only with force */
int summarize_select(struct store *, const struct summarize_selection *,
    struct summarize_item **, size_t *n, struct error *);
void summarize_item_clear(struct summarize_item *);	/* job, res, error */
void summarize_items_free(struct summarize_item *, size_t n);
/* text: "ID\tTITLE" for each done, "ID" for each that would be; json:
 * [{id,status,title,summary,error}] for all */
void summarize_render(struct buf *, const struct summarize_item *, size_t n,
    int json);

#endif
