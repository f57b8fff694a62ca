/*
 * render.h - conversations as text for stdout (render.c). It reads the
 * store; it never writes it. A search is lib/search's (search.h).
 */
#ifndef CONVCTL_RENDER_H
#define CONVCTL_RENDER_H

#include <jansson.h>

#include "../store/store.h"

/* render.c: text for stdout, appended to out (it may hold NUL bytes) */
enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_OPENAI, FMT_JSONL };
extern const struct name_table render_formats[];	/* "text", ... */
/* terminal: out goes to a terminal, and the messages' content is written
 * with buf_add_for_terminal (as it is otherwise) */
int render_conv(struct buf *out, struct conv *, enum format, int terminal,
    struct error *);
void render_recent(struct buf *out, struct conv **, size_t n, int json);
/* recent's --json array, as a value: what the tool recent answers */
struct json_t *render_recent_json(struct conv **, size_t n);
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
	const char *limit_name;		/* max_tokens as the caller names it
					 * in an error; NULL: "--max-tokens" */
};
/* the estimate --max-tokens uses: a token for every 4 code points, rounded
 * up, of each message as the text format writes it */
size_t tokens_estimate(const char *s, size_t len);
/* c NULL (nothing active): nothing, or [] for FMT_OPENAI */
int render_prompt(struct buf *out, struct conv *, struct prompt_request *,
    struct error *);
/* the openai format's array as a value (rq->format not looked at): the
 * same messages render_prompt writes, as a new reference; NULL (e) when
 * it would fail */
json_t *render_prompt_json(struct conv *, struct prompt_request *,
    struct error *);

/* id; json: {id, ended (the id ended first, or null), forkedFrom} */
void render_switch(struct buf *, const char *id, const char *ended,
    const json_t *forked_from, int json);
/* c's tags, one a line, or a JSON array */
void render_tags(struct buf *, struct conv *c, int json);

/* the most results a reader may be asked for: recent's and search's -n, the
 * tools' limit and their schema */
#define RESULTS_MAX 100000000

#endif
