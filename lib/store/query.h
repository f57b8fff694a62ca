/*
 * query.h - a search as one description, compiled once (lib/search/
 * compile.c from the command's arguments) and taken by each of its three
 * executors: the matcher over parsed conversations (lib/search/match.c),
 * the file engine's fast path (file-search.c) and the SQL the PostgreSQL
 * and SQLite engines build (pg-search.c, sqlite-search.c), all through
 * store_query(). What bytes can spell its text, which messages its filters
 * take and which conversations its tag does are said here once
 * (query.c, query-bytes.c).
 */
#ifndef CONVCTL_QUERY_H
#define CONVCTL_QUERY_H

#include "../internal.h"

struct query {
	/* the text every match holds: ASCII bytes, in lower case when icase;
	 * litlen 0: none known (an alternation), nothing to look for */
	char *lit;
	size_t litlen;
	size_t anchor;		/* lit's rarest byte, looked for first */
	int icase;		/* lit in either ASCII case, its letters also
				 * spelled by the characters of fold */
	int any_escape;		/* lit holds a byte that JSON escapes other
				 * than \uXXXX stand for: " \ / or a control */
	/* UTF-8 of the characters beyond ASCII that the matcher takes for
	 * one of lit's letters (U+017F long s for s), and the letter (lower
	 * case) each is */
	char (*fold)[5];
	char *fold_of;
	size_t nfold;
	/* the filters */
	int role;			/* an enum conv_role; <0: any */
	int64_t since, until;		/* since <= time < until; <0: open */
	const char *tag;		/* only conversations tagged so; NULL: any */
	const char *tool;		/* only messages whose toolsUsed names it */
	long max;			/* the newest max hits; <0: all */
	/* 1: no executor but the matcher over parsed conversations, and no
	 * text looked for (CONVCTL_SEARCH_NO_PREFILTER=1: the tests compare
	 * the others with it) */
	int parsed;
};
/* frees what q's text part holds */
void query_clear(struct query *);

/* a message an executor found may match, its strings decoded */
struct query_msg {
	const char *conv_id;	/* NULL: told by the sink's conv_end */
	int64_t pos;		/* its conversation's place in stored order */
	size_t seq;		/* its place in the conversation */
	const char *id;		/* NULL: none */
	size_t idlen;
	int64_t time;
	enum conv_role role;
	const char *text;	/* its content; may hold NUL */
	size_t len;
};
/* where an executor sends what it finds */
struct query_sink {
	/* m's lines matched: 0 on; 1 enough (a database gives them newest
	 * first with q->max >= 0); -1 e says why */
	int (*message)(void *, const struct query_msg *m, struct error *);
	/* the file's, which knows a conversation's id once its messages are
	 * given: 1 when those given since the last conv_end gave hits */
	int (*conv_hits)(void *);
	/* ... and they end: their conversation's id, or NULL: forget their
	 * hits (it lacks the tag) */
	void (*conv_end)(void *, const char *conv_id);
	/* the file's, with q->max >= 0: only the newest max hits kept; the
	 * oldest one's time then, INT64_MIN while fewer are found */
	int64_t (*keep_newest)(void *, size_t max);
	void *arg;
};

/*
 * store.c: q run by st's engine, each message that may match to sink, in
 * stored order then message order, or newest first (by time, then stored
 * order, both descending) when q->max >= 0 on a database. 1: done; 0: the
 * engine cannot now (q->parsed, conversations loaded already that may be
 * newer than what it holds, a file it cannot map): the caller loads them
 * all and matches each (query_json_msg()); -1: e says why.
 */
int store_query(struct store *, const struct query *,
    const struct query_sink *, struct error *);

/* query.c: the filters. 1: a message of this role and time is taken */
int query_takes(const struct query *, enum conv_role, int64_t time);
/* 1: the tool filter takes a message whose toolsUsed is tools (NULL:
 * none) */
int query_takes_tools(const struct query *, json_t *tools);
/* 1: arr, an array (or anything else: none), holds the string s */
int query_names(json_t *arr, const char *s);
/* 1: the tag filter takes the conversation whose JSON text is
 * doc[0..len) (its head, or the whole of it) */
int query_tagged(const struct query *, const char *doc, size_t len);
/*
 * The message object msg, the seq-th of conversation conv_id, into *out
 * when the filters take it: 1; 0 not taken; -1 its timestamp is no time
 * (e names it). out's strings point into msg.
 */
int query_json_msg(const struct query *, json_t *msg, const char *conv_id,
    int64_t pos, size_t seq, struct query_msg *out, struct error *);
/*
 * The spellings of lit[i] in a message's doc as convctl's JSON writer
 * writes it: the k-th into out (NUL-terminated), its length; 0: there is
 * no k-th. The 0th is the byte as the writer writes it (json_escape():
 * more than one byte for a byte it escapes); then, for a letter when
 * case is ignored, each character of fold that is it. Its other ASCII
 * case is not among them: each executor has its own way with it.
 */
size_t query_spell(const struct query *, size_t i, size_t k, char out[8]);

/* query-bytes.c: the text looked for in bytes. Where p[0..n) first holds
 * lit, in ASCII case or not as q says; NULL */
const char *query_find_lit(const struct query *, const char *p, size_t n);
/* p[0..n) holds a character of fold */
int query_has_fold(const struct query *, const char *p, size_t n);
/*
 * 0: the JSON text p[0..n) shows that no string in it holds lit (it lacks
 * it escaped and unescaped, and every fold); 1: one may, or there is no
 * lit. tmp: scratch space.
 */
int query_json_may_hold(const struct query *, const char *p, size_t n,
    struct buf *tmp);
/* the same for a string's body p[0..n), still escaped; esc: it holds a
 * backslash */
int query_str_may_hold(const struct query *, const char *p, size_t n,
    int esc);

#endif
