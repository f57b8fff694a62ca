/*
 * migrate.h - what the migration driver (migrate.c) and the format readers
 * (migrate-formats.c) share; nothing outside lib/ sees it.
 */
#ifndef CONVCTL_MIGRATE_H
#define CONVCTL_MIGRATE_H

#include "internal.h"

enum source_status { SRC_NEW, SRC_BEFORE, SRC_DUPLICATE };

/* one file read: what it was, and the conversations found in it */
struct mig_source {
	char *file;			/* as found: PATH or DIR/NAME */
	char *name;			/* file as valid UTF-8, for JSON */
	char *session;			/* the session id its name gives, for jsonl */
	enum migrate_format format;
	char sha[SHA256_HEX_LEN];
	enum source_status status;
	char *before;			/* SRC_BEFORE: when; SRC_DUPLICATE: which file */
	json_t *convs;			/* conversation objects, in order */
	json_t *own;			/* parallel: true when the id is the source's own */
	json_t *renamed;		/* new id -> the id the source gave */
	size_t messages;
};

/* the reader's view of a run */
struct mig_reader {
	const struct migrate_request *rq;
	struct mig_source *src;
	json_t *notes;			/* strings */
};

/* migrate-formats.c: each reads src->file's parsed text (or its lines) */
int mig_read_smarthole(struct mig_reader *, json_t *root, struct error *);
int mig_read_messages(struct mig_reader *, json_t *root, struct error *);
int mig_read_jsonl(struct mig_reader *, const char *text, size_t len,
    struct error *);
int mig_read_chatsidian(struct mig_reader *, json_t *root, struct error *);
int mig_read_aiwhisperer(struct mig_reader *, json_t *root, struct error *);

/* migrate.c: what readers call */
/* hands a finished conversation (a reference) to the run; own: its id is the
 * source's, so a clash is a conflict rather than a reason to pick another */
void mig_add(struct mig_reader *, json_t *conv, int own, int splittable);
void mig_note(struct mig_reader *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void mig_progress(struct mig_reader *, size_t done, size_t total);
/* m's "timestamp" in milliseconds, 0 when it has none that parses */
int64_t mig_time(json_t *m);
/* v as a time: ISO 8601, or epoch milliseconds as a number or a string of
 * digits (below 1e11: seconds); -1 when it is none */
int mig_time_of(json_t *v, int64_t *ms);
/* s is digits, with a fraction perhaps: epoch milliseconds, not ISO 8601 */
int mig_is_epoch(const char *s);

#endif
