/*
 * gemini.h - what the files of migrate's gemini format share: a session's
 * log read into a gemini_state (gemini-session.c), a checkpoint
 * (gemini-checkpoint.c), which reads the sessions beside it to find the one
 * that holds its turns, and gemini.c, which tells them apart. Only those
 * three files include it.
 */
#ifndef CONVCTL_MIGRATE_GEMINI_H
#define CONVCTL_MIGRATE_GEMINI_H

#include "formats.h"

/* a session as its log is read: the messages merged by id, in order */
struct gemini_state {
	json_t *meta;		/* the session's fields: first line, $set */
	json_t *order;		/* the ids of its messages, in order */
	json_t *inorder;	/* id -> true: those in order */
	json_t *byid;		/* id -> the message, all writings merged */
	char *session;		/* the first sessionId */
};

/* gemini-session.c: a session */

void gemini_start(struct gemini_state *);
void gemini_end(struct gemini_state *);
/* one record of a session's lines (mig_lines()' each) */
int gemini_line(struct mig_reader *, void *st, json_t *rec, size_t line,
    struct error *);
/* a session written whole, as releases before JSON lines did */
int gemini_whole(struct mig_reader *, struct gemini_state *, json_t *root,
    struct error *);
/* the session's messages, merged and in order, into the store's; the
 * injected text into harness, the CLI's notices (info, warning, error
 * records) into notices */
json_t *gemini_messages(struct gemini_state *, json_t *harness,
    json_t *notices);
/* a message's parts: text (joined), names of the functions it calls,
 * functionResponses; the injected text parts into harness */
void gemini_parts(json_t *content, struct buf *text, json_t *tools,
    json_t *resps, json_t *harness);
/* the tool message of fr (a functionResponse) into msgs unless its call's
 * result came before (done); id: the call's id, else fallback */
void gemini_tool_message(json_t *msgs, json_t *done, json_t *fr,
    const char *fallback, int64_t ms);
/* c handed to the run, keep (its reference taken) its imported, with the
 * injected text in harness, when there is any */
void gemini_add(struct mig_reader *, json_t *c, json_t *keep,
    json_t *harness);
/* a file's name without its directory */
const char *gemini_base_name(const char *file);

/* gemini-checkpoint.c: what /chat save writes */

/* root is a checkpoint: {history: [{role, parts}]}, or (older) the
 * history bare */
int gemini_is_checkpoint(json_t *root);
/* the checkpoint root read: its own conversation, unless a session beside
 * it holds its turns */
int gemini_checkpoint(struct mig_reader *, json_t *root, struct error *);

#endif
