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
/* offset of the first invalid UTF-8 byte, or -1 when s[0..len) is valid */
long utf8_invalid_at(const char *s, size_t len);
size_t utf8_count(const char *s, size_t len);	/* code points */
void *xmalloc(size_t);
void *xrealloc(void *, size_t);
char *xstrdup(const char *);

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
	SETTING_PATH,		/* a file's path, taken as it is */
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
/* the same, refusing a file larger than max bytes (max_input_bytes) */
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

size_t store_count(const struct store *);
struct conv *store_conv(struct store *, size_t i);	/* in file order */
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

/* render.c: text for stdout, appended to out (it may hold NUL bytes) */
enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_OPENAI, FMT_JSONL };
extern const struct name_table render_formats[];	/* "text", ... */
int render_conv(struct buf *out, struct conv *, enum format, struct error *);
void render_recent(struct buf *out, struct conv **, size_t n, int json);
/* one id a line, or a JSON array of them */
void render_ids(struct buf *out, char *const *ids, size_t n, int json);
struct prompt_request {
	enum format format;
	long last;			/* newest N messages; <0: all */
	long max_tokens;		/* <0: no limit */
};
/* the estimate --max-tokens uses: a token for every 4 code points, rounded up */
size_t tokens_estimate(const char *s, size_t len);
int render_prompt(struct buf *out, struct conv *, const struct prompt_request *,
    struct error *);

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
	MIGRATE_AIWHISPERER, MIGRATE_DETECT
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
/* the flags set in st (as SRC_FLAG), then summary_config_load */
enum summary_setup summary_config_resolve(struct summary_config *,
    struct settings *st, const struct summary_flags *, struct error *);

/* a copy of one conversation, summarized while the store is closed */
struct summary_job;
struct summary_job *summary_job_new(struct conv *);
const char *summary_job_id(const struct summary_job *);
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
