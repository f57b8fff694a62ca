/*
 * internal.h - what the modules of lib/ share and the rest of the tree does
 * not see: the jansson side of conversations and messages.
 */
#ifndef CONVCTL_INTERNAL_H
#define CONVCTL_INTERNAL_H

#include <jansson.h>

#include "base/json.h"
#include "convctl.h"

/* flags for every jansson parse of stored or imported JSON: \u0000 must
 * round-trip, and a duplicated key would silently lose one of its values
 * (the store itself is read by scan.c with lib/base/lex.c, whose rules
 * are these and more) */
#define JSON_LOAD_FLAGS (JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES)

/* store.c: the conversation as JSON, parsed when first asked for */
json_t *conv_json(struct conv *);
/* after changing conv_json(c): refresh what the store caches about c */
int conv_refresh(struct conv *, struct error *);
/* appends a conversation object (the store takes the reference) */
struct conv *store_append(struct store *, json_t *, struct error *);
/* the same, the conversation as text, as json_dump_buf() writes it (text
 * is malloc'd, len bytes and a NUL; the store takes it): an engine that
 * writes such text keeps it so, not parsed, until it is written */
struct conv *store_append_text(struct store *, char *text, size_t len,
    struct error *);
/* the store's top-level object, without "conversations" */
json_t *store_root(struct store *);
/* 0: c's bytes cannot hold the text s, so a field it names is not there
 * (a cheap look before parsing); 1: they may, or c is parsed already */
int conv_may_hold(const struct conv *, const char *s);
/* 1: c's mark NAME (QUOTED: "\"NAME\"", for conv_may_hold) is true */
int conv_mark(struct conv *, const char *name, const char *quoted);
/*
 * Every conversation's bytes, in stored order, for a reader that looks at
 * them before it parses any (search), valid while the store is open: 1 and
 * *v (malloc'd, the caller's) and *n; 0: the engine offers none (a
 * database; a file it could not map safely, or conversations loaded
 * already): load them instead; -1: an error. The file engine's bytes are
 * checked only if unchecked is 0: else the caller checks those it reads
 * with the scanner (scan_conv_each()), and store_span_refused() is the
 * error when one fails.
 */
struct store_span {
	const char *p;
	size_t len;
	int canonical;		/* the bytes are what json_dump_buf() writes */
	int64_t newest;		/* its latest message's time, as the scanner
				 * found it: INT64_MIN none, INT64_MAX not known */
};
int store_spans(struct store *, struct store_span **v, size_t *n,
    int *unchecked, struct error *);
int store_span_refused(struct store *, struct error *);
/* conv_has_tag() of the conversation at v, which the scanner checked */
int store_span_tagged(const struct store_span *v, const char *tag);
/* the conversation's own fields, to read, not to change: its messages may
 * be missing (a conversation a list loaded without its body) */
json_t *conv_head(struct conv *);
/*
 * store.c: the messages a search may match, found by the engine where it can (a
 * database, over its indexes) rather than by loading every conversation:
 * a superset of those that match, which the caller matches again. Each is
 * given to fn, newest first when q->newest (by time, then stored order,
 * both descending), until fn returns 1 (enough) or -1 (e says why).
 * 0: the engine cannot, or st holds conversations loaded already (they may
 * be newer than the engine's): load them all and look; 1: done.
 */
struct store_search {
	const char *lit;		/* text every match holds (ASCII); NULL:
					 * none */
	size_t litlen;
	int icase;			/* lit in either ASCII case, and its
					 * letters as any of fold */
	const char (*fold)[5];		/* UTF-8 characters beyond ASCII */
	const char *fold_of;		/* the letter (lower case) each is */
	size_t nfold;
	int role;			/* an enum conv_role; <0: any */
	int64_t since, until;		/* since <= time < until; <0: open */
	const char *tag, *tool;		/* NULL: any */
	int newest;			/* in that order, for a -n */
};
/* msg: the seq-th message of conv_id (the pos-th conversation stored), a
 * JSON object fn takes */
typedef int (*store_search_fn)(void *arg, const char *conv_id, int64_t pos,
    size_t seq, json_t *msg, struct error *);
int store_search(struct store *, const struct store_search *,
    store_search_fn, void *arg, struct error *);
/*
 * Every conversation of st, whole, in stored order, each to fn (0 on, -1
 * stop: e says why). An engine that reads them in batches (PostgreSQL's
 * cursor) holds one batch at a time and frees each conversation after fn:
 * fn keeps nothing of c. With none loaded before, memory holds a batch, not
 * the store; else every conversation is loaded first.
 */
typedef int (*store_each_fn)(struct conv *, void *arg, struct error *);
int store_each(struct store *, store_each_fn, void *arg, struct error *);
/* c's JSON for another store to take: parsed afresh from the bytes c was
 * read from when it has them (c keeps its bytes, not the parse), else a
 * copy of c's */
json_t *conv_json_copy(struct conv *);
/*
 * The conversations store_append() added so far, written into the open
 * transaction of an engine that has one (not committed: store_save() does
 * that, store_close() without it forgets them) and let go of: no longer
 * loaded, store_find() does not see them. An engine that writes only at
 * store_save() (the file), or a store opened to read (a dry run), keeps
 * them: nothing is done.
 */
int store_flush_new(struct store *, struct error *);
/* store/ids.c: a new conversation id, "conv-<at>", not taken in st; a new
 * message id, not among msgs; caller frees */
char *conv_new_id(struct store *, int64_t at, struct error *);
char *message_new_id(json_t *msgs, int64_t at);
#define F_TAGS	"tags"	/* a conversation's tags: Chatsidian's array of strings */
#define F_PINNED	"pinned"	/* true: the rolling limit skips it */
/* store/store.c: the tags array, or NULL */
json_t *conv_tags(struct conv *);
/* conv/organize.c: clears the stale mark (and with title_too the hand
 * title's) when a summary is stored */
void conv_mark_summarized(json_t *conv, int title_too);
/* conv/organize.c: conv's title marked as given (an import's, a hand
 * title), so a summarizer keeps it */
void conv_mark_title_given(json_t *conv);
/* a conversation's field: the first 16 hex digits of the SHA-256 of the
 * title an import gave it (migrate/known.c), so a re-import tells the
 * source's title from one set since; a title set by hand drops it */
#define F_TITLE_MARK	"importTitleHash"

/* shape.c: checks one conversation's shape; where is its JSON path for
 * errors */
int conv_validate(json_t *, const char *where, struct error *);

/* store.c: a string value, its length (it may hold NUL bytes) */
const char *json_str(const json_t *obj, const char *key, size_t *len);

/* spool.c: the last message of the active conversation takes its
 * content from sp, still in the spool, when the store is written (at most
 * NSPOOLED messages, one exchange's: prompt and answer) */
int store_spool_message(struct store *, struct spool *sp, struct error *);


#endif
