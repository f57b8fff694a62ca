/*
 * search.h - a store searched: a query compiled once (compile.c) into the
 * description its executors take (lib/store/query.h), run over every
 * conversation (match.c), its hits rendered (render.c). It reads the
 * store; it never writes it.
 */
#ifndef CONVCTL_SEARCH_H
#define CONVCTL_SEARCH_H

#include <jansson.h>

#include "../store/store.h"

/* lines of messages that match a query, in every conversation */
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
/* the JSON search_render() writes, as a value: one hit's object, and the
 * array of them all (a new reference each; search_render's JSON is this
 * array written by json_dump_buf(), a hit at a time) */
json_t *search_hit_json(const struct search_hit *);
json_t *search_json(const struct search_result *);

#endif
