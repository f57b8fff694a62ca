/*
 * rows.h - what the row engines share (pg.c, sqlite.c): a conversation kept
 * as a row whose doc is the conversation without its messages, and a row a
 * message. Each conversation read or written keeps in c->be what the
 * database holds of it (the SHA-256 of its row's doc and of each message's
 * text), so that a flush writes only what changed, whoever changed it.
 * Only those two engines include it.
 */
#ifndef CONVCTL_ROWS_H
#define CONVCTL_ROWS_H

#include <stddef.h>

#include "engine.h"

/* what a conversation is in the database: c->be on a row engine */
struct row_conv {
	unsigned char doc[32];	/* its row's doc's SHA-256 */
	size_t nmsg;
	unsigned char hash[][32];	/* each message's, in order */
};

/* c without its messages, which have rows of their own: its row's doc,
 * appended to doc */
void row_doc_text(struct conv *c, struct buf *doc);

/* what the database will hold of a conversation of n messages whose row's
 * doc is doc: the messages' hashes are the caller's to fill */
struct row_conv *row_conv_new(const struct buf *doc, size_t n);

/* c as the database holds it (doc, its row's), to tell later what changed */
void row_remember(struct conv *c, const struct buf *doc);

/* c just read whole from its rows: remembered when the command may write
 * it back, as a reader never does */
void row_loaded(const struct store *st, struct conv *c);

/* whether c (its row's doc now doc) differs from what the database holds:
 * 0 when it does not; else 1, *from the first message the database does not
 * hold as it is (0 for a conversation with no row yet) */
int row_changed(struct conv *c, const struct buf *doc, size_t *from);

/* every conversation held whole refreshed (conv_refresh()) before its rows
 * are written */
int row_refresh(struct store *st, struct error *e);

/* whether c is new: held whole, with no row yet */
int row_is_new(const struct conv *c);

/* the new conversations written by the engine's flush (every change in
 * memory into the transaction), then freed: st keeps the rest */
int row_flush_new(struct store *st,
    int (*flush)(struct store *, struct error *), struct error *e);

/* s (NULL: none) as the JSON string convctl writes, in b: a parameter to
 * match a doc's string with; NULL for NULL */
const char *row_json_param(struct buf *b, const char *s);

#endif
