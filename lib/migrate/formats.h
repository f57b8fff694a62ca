/*
 * formats.h - the table of migrate's formats (formats.c) and each format's
 * functions (lib/migrate/NAME.c). A format includes it to declare itself; the
 * run (migrate.c) includes it to tell a source's format and read it. It does
 * not know the store or the imports ledger.
 */
#ifndef CONVCTL_MIGRATE_FORMATS_H
#define CONVCTL_MIGRATE_FORMATS_H

#include "reader.h"

/* a conversation's imported.copyOf: the id of the source's conversation it
 * is a copy of some turns of (a Gemini CLI checkpoint's session); known.c
 * leaves it out when the store holds that one with those turns */
#define MIG_COPY_OF	"copyOf"

/* one format convctl imports: one row of mig_formats[] */
struct mig_format {
	const char *name;		/* --format NAME; the ledger's "format" */
	enum migrate_format id;		/* its value in convctl.h */
	/* file name endings that are this format whatever the content, when
	 * none is named (NULL-ended); or NULL */
	const char *const *suffixes;
	/* one JSON value a line: read as text, never parsed whole */
	int lines;
	/* 1: root, the parsed content (for a lines format: one line), has
	 * this format's shape; or NULL: the content never tells (only the
	 * name or --format does) */
	int (*detect)(json_t *root);
	/* the source into conversations, each handed to mig_add() */
	int (*read)(struct mig_reader *, const struct mig_input *,
	    struct error *);
	/* a format of text, not JSON: 1 when text is this format (tried
	 * before any JSON is parsed); read as text, never parsed */
	int (*sniff)(const char *text, size_t len);
	/* 1: its conversations are a store's, taken as they are, so their
	 * messages carry no mark of the source (known.c); a re-import keeps
	 * every stored message of theirs */
	int as_is;
	/* a top-level array read an item at a time: read() is given
	 * in->items, the items' bytes, and parses each (mig_item()), so that
	 * the source is never held parsed whole */
	int items;
};

/* formats.c */
extern const struct mig_format mig_formats[];	/* ends with a NULL name */
const struct mig_format *mig_format(enum migrate_format);
/*
 * the source's format, into r->src->format: rq->format, else from the file's
 * name, else from the shape of its content; *root is the parsed text, NULL
 * for a format that reads lines (the caller frees it)
 */
int mig_detect(struct mig_reader *, const char *text, size_t len,
    json_t **root, struct error *);
/*
 * before mig_detect(): 1 when in->text is a top-level array of a format read
 * an item at a time (rq->format, else the shape of its first item, where
 * neither the name nor a text format says otherwise), with r->src->format
 * and in->items, in->nitems set (the caller frees in->items); 0: read it as
 * mig_detect() tells
 */
int mig_detect_items(struct mig_reader *, struct mig_input *);


/* smarthole.c: conversations already in the store's shape, the
 * "conversations" of data (SmartHole's PersistedConversations, a convctl
 * store) at JSON path base, each taken as it is */
int mig_persisted(struct mig_reader *, json_t *data, const char *base,
    struct error *);

/* the formats, one file each */
int mig_sniff_markdown(const char *, size_t);
int mig_read_markdown(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_convctl(json_t *);
int mig_read_convctl(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_smarthole(json_t *);
int mig_read_smarthole(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_messages(json_t *);
int mig_read_messages(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_jsonl(json_t *);
int mig_read_jsonl(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_chatsidian(json_t *);
int mig_read_chatsidian(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_aiwhisperer(json_t *);
int mig_detect_chatgpt(json_t *);
int mig_read_chatgpt(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_llm(json_t *);
int mig_read_llm(struct mig_reader *, const struct mig_input *,
    struct error *);
/* the JSON lines formats' detect functions are given one line */
int mig_detect_claude(json_t *);
int mig_read_claude(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_detect_codex(json_t *);
int mig_read_codex(struct mig_reader *, const struct mig_input *,
    struct error *);
/* a session's line, or a whole session, checkpoint or log of prompts */
int mig_detect_gemini(json_t *);
int mig_read_gemini(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_read_aiwhisperer(struct mig_reader *, const struct mig_input *,
    struct error *);
/* claude.ai's export, and aider's Markdown log */
int mig_detect_claudeai(json_t *);
int mig_read_claudeai(struct mig_reader *, const struct mig_input *,
    struct error *);
int mig_sniff_aider(const char *, size_t);
int mig_read_aider(struct mig_reader *, const struct mig_input *,
    struct error *);

#endif
