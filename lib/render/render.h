/*
 * render.h - conversations as text for stdout (render.c) and searched
 * (search.c). They read the store; they never write it.
 */
#ifndef CONVCTL_RENDER_H
#define CONVCTL_RENDER_H

#include "../store/store.h"

/* render.c: text for stdout, appended to out (it may hold NUL bytes) */
enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_OPENAI, FMT_JSONL };
extern const struct name_table render_formats[];	/* "text", ... */
/* terminal: out goes to a terminal, and the messages' content is written
 * with buf_add_for_terminal (as it is otherwise) */
int render_conv(struct buf *out, struct conv *, enum format, int terminal,
    struct error *);
void render_recent(struct buf *out, struct conv **, size_t n, int json);
/* store_stats()'s answer for rq: lines to read, or one JSON object
 * (convctl-stats(1)); the chart in ASCII with ascii */
void render_stats(struct buf *out, const struct store_stats *,
    const struct stats_request *, int json, int ascii);
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
	int terminal;			/* as render_conv's */
};
/* the estimate --max-tokens uses: a token for every 4 code points, rounded
 * up, of each message as the text format writes it */
size_t tokens_estimate(const char *s, size_t len);
/* c NULL (nothing active): nothing, or [] for FMT_OPENAI */
int render_prompt(struct buf *out, struct conv *, struct prompt_request *,
    struct error *);

/* the most results a reader may be asked for: recent's and search's -n, the
 * tools' limit and their schema */
#define RESULTS_MAX 100000000

/* search.c: lines of messages that match a query, in every conversation */
struct search;
/* the longest query taken, in characters, by every face (convctl-search(1),
 * convctl-mcp(1)): a paragraph pasted whole fits; compiling a regular
 * expression costs some 200 bytes of memory a byte of it (glibc's regcomp()),
 * a plain query 12 bytes a character */
#define SEARCH_QUERY_MAX_CHARS 4096
/* a plain query (regex 0) or a POSIX extended regular expression; case is
 * ignored unless match_case; a query longer than SEARCH_QUERY_MAX_CHARS is
 * refused */
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
	struct buf text;		/* the ids and lines they point to */
	struct search_match *matches;	/* and their matches */
};
int search_run(struct store *, const struct search *,
    const struct search_request *, struct search_result *, struct error *);
void search_result_free(struct search_result *);
/*
 * ID TIME ROLE LINE, tab-separated, the matches in bold red when colour,
 * the line as render_conv's terminal says;
 * or a JSON array of {id, messageId, timestamp, role, lineNumber, line,
 * match, matches: [[start, end]…]} (byte offsets into line). Made in out
 * and given to flush(arg, bytes, len) 64 KiB at a time, and at the end
 * (out is empty then); the first non-zero return of flush stops it and is
 * returned.
 */
int search_render(struct buf *out, const struct search_result *, int json,
    int colour, int terminal, int (*flush)(void *, const char *, size_t),
    void *arg);

#endif
