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
/* the conversation's own fields, to read, not to change: its messages may
 * be missing (a conversation a list loaded without its body) */
json_t *conv_head(struct conv *);
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
