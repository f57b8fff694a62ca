/*
 * migrate.h - what the run's files share: the result a run builds
 * (migrate.c), records in the imports ledger (ledger.c) and reports
 * (report.c). A format reader never includes it: readers see reader.h only.
 */
#ifndef CONVCTL_MIGRATE_RUN_H
#define CONVCTL_MIGRATE_RUN_H

#include "reader.h"

struct migrate_result {
	const struct migrate_request *rq;
	struct mig_source *src;
	size_t nsrc;
	json_t *notes;			/* strings */
	json_t *imported;		/* id -> the conversations added; true: its
					 * summary is migrate's own */
	json_t *grown;			/* [{id, messages, from, endedAt, file}]:
					 * new messages of conversations imported
					 * before, in place of theirs from "from" */
	size_t nconv, nmsg, nnew;
	size_t ngrown;			/* messages added to grown conversations */
};

/* known.c: what was imported before, by content */

/*
 * A message a source gave carries MIG_MARK, the first MIG_MARK_LEN hex
 * digits of the SHA-256 of itself as compact JSON, the mark left out: so a
 * re-import tells the source's messages from those added since (no mark)
 * and those edited since (a mark that no longer matches).
 */
#define MIG_MARK	"importHash"
#define MIG_MARK_LEN	16
enum mig_origin { ORIGIN_OWN, ORIGIN_SOURCE, ORIGIN_EDITED };
/* m marked as the source's, as it is now */
void mig_mark(json_t *m);
enum mig_origin mig_origin(json_t *m);
/* conv's title, when it has one, marked as the source's (F_TITLE_MARK) */
void mig_mark_title(json_t *conv);

/*
 * leaves out of each new source the conversations imported before (their
 * messages' hash in the ledger), and those of the source's own ids imported
 * before and still in the store, whose new messages go to res->grown
 * ({id, messages: the new ones, replaced: [the names of the source's that
 * its branch no longer has], kept: N not the source's, merged: the
 * messages after, adopted, marks, endedAt, file}); a source left with
 * nothing is SRC_BEFORE. Those stored conversations are read whole to
 * compare (-1: one could not be), and kept only when they grow.
 */
int mig_known(struct store *, struct migrate_result *, json_t *imports,
    struct error *);
/* res->grown's messages into their conversations in st, the source's
 * messages replaced named in a note */
int mig_grow(struct store *, struct migrate_result *, struct error *);

/* ledger.c: the store's "imports", a record of each source by its SHA-256 */

/* st's ledger, or NULL when it has none yet; -1 when it is not an array */
int mig_ledger(struct store *, json_t **imports, struct error *);
/* 1: s's bytes are in the ledger, and s says when (SRC_BEFORE); else 0 */
int mig_ledger_seen(json_t *imports, struct mig_source *s);
/* each new source into the ledger (made when st has none), and the time
 * into "lastMigrated" */
void mig_ledger_record(struct store *, const struct migrate_result *,
    json_t *imports);

#endif
