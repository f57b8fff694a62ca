/*
 * convctl.h - the public interface of libconvctl, the library under convctl(1).
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
char *buf_detach(struct buf *);		/* caller frees; buf is empty again */
void buf_free(struct buf *);
/* reads all of fd; name is for the error message */
int buf_read_fd(struct buf *, int fd, const char *name, struct error *);
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

/* settings.c: flag > CONVCTL_* environment > config file > default */
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
	SET_COUNT
};
enum setting_source { SRC_DEFAULT, SRC_FILE, SRC_ENV, SRC_FLAG };
struct settings {
	char *value[SET_COUNT];		/* NULL: not set anywhere, no default */
	enum setting_source source[SET_COUNT];
	char *config_path;		/* the config file looked at */
};
const char *setting_key(enum setting);		/* "idle_timeout" */
const char *setting_env(enum setting);		/* "CONVCTL_IDLE_TIMEOUT" */
int setting_is_secret(enum setting);
const char *setting_source_name(enum setting_source);
/* defaults, then the config file, then the environment */
int settings_load(struct settings *, struct error *);
int settings_set(struct settings *, enum setting, const char *value,
    enum setting_source, struct error *);
const char *settings_get(const struct settings *, enum setting);
/* a whole number in [min, max]; the error names the setting and its source */
int settings_long(const struct settings *, enum setting, long min, long max,
    long *out, struct error *);
int settings_double(const struct settings *, enum setting, double min,
    double max, double *out, struct error *);
void settings_free(struct settings *);

/* store.c */
enum conv_role { ROLE_USER, ROLE_ASSISTANT, ROLE_SYSTEM, ROLE_TOOL, ROLE_COUNT };
const char *role_name(enum conv_role);
int role_parse(const char *, enum conv_role *);

struct store;
struct conv;
enum store_mode { STORE_READ, STORE_WRITE };
/*
 * Opens the store at path. STORE_WRITE first takes the lock beside it
 * (PATH.lock), waiting at most wait seconds. A missing file is an empty store.
 * A file that does not parse or does not have the store's shape is refused:
 * the error names the file, the line and column or the JSON path, and what is
 * wrong.
 */
int store_open(struct store **, const char *path, enum store_mode,
    double wait, struct error *);
/* writes the store atomically: temporary file, fsync, rename, fsync dir */
int store_save(struct store *, struct error *);
void store_close(struct store *);	/* releases the lock; NULL is fine */
const char *store_path(const struct store *);

size_t store_count(const struct store *);
struct conv *store_conv(struct store *, size_t i);	/* in file order */
struct conv *store_find(struct store *, const char *id);
struct conv *store_active(struct store *);		/* NULL: none */
/* ended conversations, newest endedAt first; *n of them; caller frees array */
struct conv **store_ended(struct store *, size_t *n);
/* removes and frees conversation c */
void store_remove(struct store *, struct conv *);

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
	int64_t idle_timeout;		/* ms */
};
struct add_result {
	const char *conv_id;		/* valid while the store is open */
	const char *ended_id;		/* conversation ended by the idle timeout, or NULL */
	int started;			/* 1 when a new conversation was started */
};
int conv_add(struct store *, const struct add_request *, struct add_result *,
    struct error *);
/* 0: ended *id; 1: nothing was active */
int conv_end(struct store *, int64_t now, const char **id, struct error *);

struct prune_request {
	long max;			/* ended conversations kept; <0: no limit */
	int64_t older_than;		/* remove ended before this time; <0: none */
	int dry_run;
};
/* ids of the conversations removed (or that would be), oldest first, NULL-ended */
int store_prune(struct store *, const struct prune_request *, char ***ids,
    size_t *n, struct error *);
void strv_free(char **);

/* render.c: text for stdout, appended to out (it may hold NUL bytes) */
enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_OPENAI, FMT_JSONL };
int format_parse(const char *, enum format *);
const char *format_name(enum format);
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

#endif
