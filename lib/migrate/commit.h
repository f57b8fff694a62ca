/*
 * commit.h - an import written whole, for `convctl migrate` (commit.c): the
 * request's limits and time, the summarizer set up, then the ending
 * protocol (ENDING_IMPORT): the import under the lock, what the rolling
 * limit will remove said before it is written, one commit, the report
 * answered with the lock held, then --summarize's summaries.
 */
#ifndef CONVCTL_MIGRATE_COMMIT_H
#define CONVCTL_MIGRATE_COMMIT_H

#include "../ops/ops.h"
#include "import.h"

struct migrate_commit_result;
struct migrate_commit_request {
	struct settings *settings;
	/* the import; migrate_prepare sets its idle_timeout, now and
	 * max_bytes */
	struct migrate_request *rq;
	int summarize;			/* then summarize what was imported */
	struct summary_flags flags;	/* over the settings: NULL not given */
	void (*llm_log)(void *arg, const char *line);	/* --verbose */
	void *llm_log_arg;
	/* before the write: what the rolling limit will remove, a line */
	ops_say_fn *say;
	void *say_arg;
	/* after the write (with dry_run: the import made in memory alone),
	 * the lock held, before any summary: the face reports; not 0 (it
	 * could not) stops the summaries, the import written all the same */
	int (*answered)(void *arg, const struct migrate_commit_result *);
	void *arg;
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
struct migrate_commit_result {
	enum ops_status status;
	struct error error;
	const char *arg;		/* OPS_BAD_ARG: "summarizer" */
	struct summary_config cf;	/* summarize: the summarizer set up */
	struct migrate_result *res;	/* what was imported; owned */
	/* what the rolling limit removed as it was written (dry_run: would
	 * remove), npruned of them; owned */
	char **pruned;
	size_t npruned;
	int unchanged;			/* nothing new: nothing written */
	size_t njobs;			/* summarize: how many were (dry_run:
					 * would be) summarized */
	char *pending[3];		/* OPS_PARTIAL: what to do, NULL-ended;
					 * owned */
};
/* before anything is read: the request's limits and time, and the
 * summarizer, set up and checked; res is filled (migrate_commit_free) */
enum ops_status migrate_prepare(const struct migrate_commit_request *,
    struct migrate_commit_result *);
/* then the import written (not with rq->dry_run) and summarized; res as
 * migrate_prepare left it */
enum ops_status migrate_commit(const struct migrate_commit_request *,
    struct migrate_commit_result *);
void migrate_commit_free(struct migrate_commit_result *);

#endif
