/*
 * reader.h - what a migrate format reader sees: the source it reads, the run's
 * request, and the helpers every reader uses (reader.c, source.c, input.c,
 * openai.c). It knows nothing of the store, the imports ledger or the
 * report: a reader only turns one source's text into conversation objects.
 * Nothing outside lib/ sees it.
 *
 * A reader checks the shape as it goes and fails on the first thing wrong,
 * naming the file and the JSON path (or the line, for JSON lines). Fields the
 * store does not know are kept on the conversation or message they came with
 * (mig_keep_extra), so nothing the source said is lost.
 */
#ifndef CONVCTL_MIGRATE_READER_H
#define CONVCTL_MIGRATE_READER_H

#include "../internal.h"

/* SRC_EMPTY: read, nothing in it; SRC_BAD: --skip-bad skipped it whole;
 * neither is recorded */
enum source_status { SRC_NEW, SRC_BEFORE, SRC_DUPLICATE, SRC_EMPTY,
    SRC_BAD };

/* one file read: what it was, and the conversations found in it */
struct mig_source {
	char *file;			/* as found: PATH or DIR/NAME */
	char *name;			/* file as valid UTF-8, for JSON */
	char *session;			/* the session id its name gives, for jsonl */
	enum migrate_format format;
	char sha[SHA256_HEX_LEN];
	enum source_status status;
	char *before;			/* SRC_BEFORE: when; SRC_DUPLICATE: which file */
	json_t *convs;			/* the conversations, in order: each
					 * an object, or packed (mig_pack()),
					 * read through mig_conv() and the
					 * like */
	json_t *own;			/* parallel: true when the id is the source's own */
	json_t *renamed;		/* new id -> the id the source gave */
	json_t *hashes;			/* each conversation's, as read (known.c) */
	size_t messages;
	size_t known;			/* conversations imported before: left out */
};

/* the reader's view of a run */
struct mig_reader {
	const struct migrate_request *rq;
	struct mig_source *src;
	json_t *notes;			/* strings */
	size_t gone;			/* the bytes at the start of the input's
					 * text let go of (mig_item_done()) */
	/* the run's: the conversations from index from on, just read, made
	 * ready for the store and packed (mig_each_item() calls it after
	 * each item); 0, or -1 and e */
	int (*pack)(struct mig_reader *, size_t from, struct error *);
};

/* one item of a top-level JSON array, by its bytes in the text */
struct mig_span {
	size_t off, len;
};

/* what a reader reads: the source's bytes, and their JSON when parsed whole */
struct mig_input {
	const char *text;		/* never NULL */
	size_t len;
	json_t *root;			/* NULL for a format that reads lines,
					 * or items */
	struct mig_span *items;		/* a format read an item at a time
					 * (formats.h): the array's items */
	size_t nitems;
	char *own;			/* text, when it is the run's to let
					 * go of (mig_item_done()); or NULL */
};

/* source.c: a source's conversations, handed to the run */

/* hands a finished conversation (a reference) to the run; own: its id is the
 * source's, so a clash is a conflict rather than a reason to pick another;
 * splittable: --split may cut it at long gaps */
void mig_add(struct mig_reader *, json_t *conv, int own, int splittable);
/* conversation c added (mig_add(): the source's own, splittable), keep,
 * what the source said that the store has no place for, as its "imported"
 * when keep has anything; keep taken */
void mig_add_keeping(struct mig_reader *, json_t *c, json_t *keep);

/*
 * A source's conversations, s->convs, each an object, or packed: held as
 * its text, as the store writes it (json_dump_buf()), with its id, message
 * count, whether it is active, whether it has a summary and the hash of
 * its messages as read, rather than as objects, which take about twice the
 * memory. The run reads them through these, one at a time.
 */
/* conversation i packed, hash its mig_conv_hash() */
void mig_pack(struct mig_source *, size_t i, const char *hash);
int mig_conv_packed(const struct mig_source *, size_t i);
/* conversation i whole: a new reference, parsed again when packed */
json_t *mig_conv(const struct mig_source *, size_t i);
/* c (a reference, taken) as conversation i again, packed when it was
 * (its hash kept) */
void mig_conv_put(struct mig_source *, size_t i, json_t *c);
/* packed conversation i's text (malloc'd, *len bytes and a NUL), given
 * to the store: the source keeps its id, counts and hash, not its text */
char *mig_conv_give(struct mig_source *, size_t i, size_t *len);
const char *mig_conv_id(const struct mig_source *, size_t i);
size_t mig_conv_messages(const struct mig_source *, size_t i);
/* no endedAt, or null */
int mig_conv_active(const struct mig_source *, size_t i);
/* a summary, a string */
int mig_conv_summary(const struct mig_source *, size_t i);
/* the SHA-256 of conv's messages as JSON: the same messages, the same hash */
void mig_conv_hash(json_t *conv, char out[SHA256_HEX_LEN]);
/* mig_conv_hash() of conversation i, as the reader made it */
void mig_conv_hash_at(const struct mig_source *, size_t i,
    char out[SHA256_HEX_LEN]);

/* reader.c: notes, progress, errors */

void mig_note(struct mig_reader *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void mig_progress(struct mig_reader *, size_t done, size_t total);
/* --skip-bad: e's message as a note of what was skipped */
void mig_skipped(struct mig_reader *, const struct error *);
/* sets e to "'FILE': " and the message; returns -1 */
int mig_bad(struct mig_reader *, struct error *, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* b emptied, then fmt: a JSON path for an error, however long; b's text */
const char *mig_path(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void mig_notes_add(json_t *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* input.c: the source's bytes */

/* each line of text that holds a JSON value, parsed, to each() with the line's
 * number; blank lines skipped; a line that is not JSON is an error naming
 * file, line and column, but for a torn last line (a note, and the end) */
int mig_lines(struct mig_reader *, const char *text, size_t len,
    int (*each)(struct mig_reader *, void *arg, json_t *rec, size_t line,
    struct error *), void *arg, struct error *);

/* the items of text, when it is one JSON array of values as far as a scan of
 * its brackets and strings can tell: 0, *v (malloc'd) and *n; -1 when it is
 * not, or is empty, or nests deeper than jansson parses: parse it whole */
int mig_array_items(const char *text, size_t len, struct mig_span **v,
    size_t *n);
/* item i of in->items parsed (the caller's reference); NULL with e set as
 * parsing the whole text sets it, naming the line and column */
json_t *mig_item(struct mig_reader *, const struct mig_input *, size_t i,
    struct error *);
/* item i of in->items converted: the pages of the text before the next item
 * given back to the system, a few megabytes at a time, so that the export's
 * bytes and the conversations made of them are not held whole together; an
 * error's place is then found in the source read again */
void mig_item_done(struct mig_reader *, const struct mig_input *, size_t i);
/* the text before byte upto read and converted (a format read a session
 * at a time): its pages given back as mig_item_done() gives them */
void mig_text_done(struct mig_reader *, const struct mig_input *,
    size_t upto);
/* each item of the array at the top of in (a conversation, to most
 * formats) read by one(r, item, index, e): a parsed item at a time, given
 * back once read (mig_item(), mig_item_done()), where the format reads
 * items, else of in->root, refused with not_array when it is no array.
 * one() returns 0, 1 to stop (the source holds none: no error), or -1 and e
 * (with --skip-bad: said, and the next one read) */
int mig_each_item(struct mig_reader *, const struct mig_input *,
    const char *not_array,
    int (*one)(struct mig_reader *, json_t *, size_t, struct error *),
    struct error *);
/* s's bytes: the caller's (read before the store was locked), or the
 * file's (migrate_read()) */
int mig_source_text(const struct migrate_request *, const struct mig_source *s,
    struct buf *, struct error *);
/* text without the byte order mark Windows editors write (it is not JSON) */
void mig_no_bom(struct buf *text);
/* the source's bytes again, as migrate.c's read_source() reads them */
int mig_source_again(struct mig_reader *, struct buf *, struct error *);

/* reader.c: times */

/* m's "timestamp" in milliseconds, 0 when it has none that parses */
int64_t mig_time(json_t *m);
/* v as a time: ISO 8601, or epoch milliseconds as a number or a string of
 * digits (below 1e11: seconds); -1 when it is none */
int mig_time_of(json_t *v, int64_t *ms);
/* s is digits, with a fraction perhaps: epoch milliseconds, not ISO 8601 */
int mig_is_epoch(const char *s);
/* v at path, which may be absent: its time, else the import time; an error
 * naming path when it is there and not a time */
int mig_want_time(struct mig_reader *, json_t *v, const char *path,
    int64_t *ms, struct error *);

/* reader.c: building the store's shapes */

json_t *mig_message(const char *id, int64_t ms, const char *role,
    const char *text, size_t len);
/* b = a message id for sources that give none: unique in the conversation */
void mig_message_id(struct buf *b, int64_t ms, size_t index);
json_t *mig_conversation(const char *id, int64_t started, int64_t ended,
    const char *title, const char *summary);
/* a conversation holding msgs, its times theirs (or the import time) */
json_t *mig_conversation_of(struct mig_reader *, const char *id, json_t *msgs,
    const char *title);
/* the same for the messages of one session file (jsonl, claude, codex);
 * NULL, noted ("no messages in it"), when it has none */
json_t *mig_session_of(struct mig_reader *, const char *id, json_t *msgs,
    const char *title);
/* conv-MS, MS the first message's time, as SmartHole names them; the run
 * makes it unique */
char *mig_generated_id(json_t *msgs, int64_t now);
/* copies src's fields but those in the NULL-ended skip, and those dst has */
void mig_keep_extra(json_t *dst, json_t *src, const char *const *skip);
/* conv, the conversation at `at` of an export: an object, its id the first
 * of the NULL-ended id_keys that is a string, not empty, its title_key a
 * string (*title), null or missing (*title NULL); -1 and e naming the
 * field (the first id key) when not */
int mig_want_conversation(struct mig_reader *, json_t *conv, const char *at,
    const char *const *id_keys, const char *title_key, const char **id,
    const char **title, struct error *);
/* appends name to tools unless it is there: distinct, in first-seen order */
void mig_tool_add(json_t *tools, const char *name);
/* msg's "toolsUsed", when tools has any */
void mig_set_tools(json_t *msg, json_t *tools);
/* content's text into b: a string, null as empty, text parts joined by
 * newlines (*partial: other parts were there), else its JSON */
void mig_content_text(json_t *content, struct buf *b, int *partial);
/* s with each byte that is not UTF-8 replaced by U+FFFD (new memory) */
char *mig_utf8_clean(const char *s);
json_t *mig_clean_string(const char *s);

/* openai.c: OpenAI-style chat messages, which several formats hold */

/* the array arr at path into msgs, one message per item */
int mig_openai_messages(struct mig_reader *, json_t *arr, const char *path,
    json_t *msgs, struct error *);

#endif
