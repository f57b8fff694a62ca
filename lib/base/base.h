/*
 * base.h - what every module of lib/ and cmd/ uses: errors, growing
 * buffers, times, enum names, SHA-256. It knows no store and no setting.
 */
#ifndef CONVCTL_BASE_H
#define CONVCTL_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "os.h"

#define CONVCTL_VERSION "0.1.0"

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
	/* what it means and what to do, said on a line of its own after msg;
	 * NULL (error_set()'s) when msg says it all */
	const char *hint;
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
/* error.c: stored text in a text output, by the same rule: s escaped as
 * error_printable does it, never a raw control character. The quoted form,
 * for a word in a list (tags), is s as it is when it is one plain word,
 * else in double quotes with \" and \\ inside, so no separator it holds
 * is taken for one */
struct buf;
void buf_add_printable(struct buf *, const char *s);
void buf_add_printable_n(struct buf *, const char *s, size_t len);
void buf_add_quoted_word(struct buf *, const char *s);
/* multi-line text (a message's content) for a terminal: as it is but each
 * control character that is not a newline, a tab or a carriage return
 * before a newline, escaped as buf_add_printable does it; no ESC, CSI or
 * OSC sequence (a title set, the clipboard written) gets through */
void buf_add_for_terminal(struct buf *, const char *s, size_t len);
/* s[0..len) as it is, or for a terminal (terminal: 1) as
 * buf_add_for_terminal() gives it */
void buf_add_text(struct buf *, const char *s, size_t len, int terminal);
/* error.c: a URL as a message or convctl config shows it: the password of
 * its user information (scheme://user:PASSWORD@host/...) as ***; any other
 * text as it is */
void buf_add_url(struct buf *, const char *url);
/* s[0..n) with each %XX decoded (RFC 3986) added to b; -1 at a '%' that
 * two hex digits do not follow, or that spells a NUL, b then holding what
 * came before it */
int buf_add_percent_decoded(struct buf *, const char *s, size_t n);
/* a one-line label (a title, a tag, a tool name) given by a person: no
 * control character (C0, DEL, C1), at most max characters; -1 and e saying
 * which character, or how long, else 0. UTF-8 is checked elsewhere */
int label_check(const char *what, const char *s, size_t max, struct error *);
/* n labels (tags, a message's tool names) by one rule: at most max_count of
 * them (label_count_check), each not empty, UTF-8, and label_check's;
 * what is singular ("tag"), the count's message adds an s */
int label_count_check(const char *what, size_t n, size_t max_count,
    struct error *);
int label_list_check(const char *what, const char *const *v, size_t n,
    size_t max_chars, size_t max_count, struct error *);
/* s made a label that passes label_check: escaped as error_printable does
 * it (NUL bytes too: s is len bytes), then cut to max characters (new
 * memory); for text a person did not type (an import), where refusing it
 * would lose the rest */
char *label_tidy(const char *s, size_t len, size_t max);
/* a limit's number as a string literal, for help text and schemas made from
 * its one definition */
#define NUM_TEXT(x) NUM_TEXT_(x)
#define NUM_TEXT_(x) #x

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
/* read.c: reads all of fd; name is for the error message */
int buf_read_fd(struct buf *, int fd, const char *name, struct error *);
/* the same, refusing more than max bytes (< SIZE_MAX): the error names the
 * setting */
int buf_read_max(struct buf *, int fd, const char *name, size_t max,
    const char *setting, struct error *);
/* what buf_read_max says of more than max bytes, for a reader of its own:
 * "'NAME' is larger than the limit of MAX bytes (the SETTING setting)" */
int error_too_large(struct error *, const char *name, size_t max,
    const char *setting);
/* buf.c: len less the trailing newlines (and a CR before each), as command
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
/* home.c: $XDG_VAR/rel, else $HOME/home_rel/rel (malloc'd), as the XDG
 * spec says */
char *home_path(const char *xdg_var, const char *home_rel, const char *rel);
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
 * names.c: the name closest to a misspelt word, by edit distance, among the
 * candidates tried in turn (a table's names); best stays NULL when none is
 * close enough to suggest. The first of equally close ones wins.
 *	struct suggest s;
 *	suggest_start(&s, word);
 *	for (...) suggest_try(&s, table[i].name);
 *	if (s.best != NULL) ... "did you mean '%s'?"
 */
struct suggest {
	const char *word;
	const char *best;	/* NULL: nothing is close */
	size_t dist;		/* best's distance; else the bound */
};
void suggest_start(struct suggest *, const char *word);
void suggest_try(struct suggest *, const char *candidate);

/* sha256.c */
#define SHA256_HEX_LEN 65	/* 64 hex digits and a NUL */
void sha256(const void *, size_t, unsigned char out[32]);
void sha256_hex(const void *, size_t, char out[SHA256_HEX_LEN]);

/* dl.c: the address of function name in the library lib opened with
 * dlopen; NULL, and *missing set to the first name absent, when it has none */
void *dl_function(void *lib, const char *name, const char **missing);

#endif
