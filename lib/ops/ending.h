/*
 * ending.h - how a conversation ends and is summarized, once for every
 * command that ends one: end and resume/fork end the active conversation,
 * add and run the one their message's idle boundary ends; migrate writes
 * its import and summarizes it the same way. ending_run() is
 * the whole of it: the end (and the command's own change) under the lock,
 * one commit, the lock released, then the summaries (ending.c).
 */
#ifndef CONVCTL_ENDING_H
#define CONVCTL_ENDING_H

#include "../conv/conv.h"
#include "../summary/summarize.h"

enum ending_status {
	ENDING_BAD_STORE = -2,	/* the store path names no store file (see
				 * lifecycle_begin): nothing done */
	ENDING_FAILED = -1,	/* res->error says why: nothing written */
	ENDING_DONE,		/* written, and each summary asked for made */
	ENDING_STOPPED,		/* check or change said no, nothing
				 * written; or committed did, after the
				 * write, no summary made (res->stopped) */
	ENDING_PENDING,		/* written, but the summary of res->ended is
				 * pending (IMPORT: some of the summaries
				 * failed): done in part, res->pending */
};
/* what an ending did, the same for every face: each prints it its way */
struct ending_result {
	enum ending_status status;	/* as ending_run returns it */
	struct error error;	/* ENDING_FAILED, ENDING_BAD_STORE: why */
	char *ended;		/* the conversation ended, or NULL; owned */
	int64_t ended_at;	/* its endedAt */
	/* ENDING_PENDING, done in part (exit status 3): the lines that say
	 * why and what to do, NULL-ended; owned */
	char *pending[3];
	/* set by the change: the one its idle boundary ended (ENDING_IDLE),
	 * valid while the store is open */
	const char *idle_ended;
	int unchanged;		/* set by the change: nothing to write */
	char **pruned;		/* IMPORT: what the rolling limit removed as
				 * it was written (npruned); owned */
	size_t npruned;
	size_t njobs;		/* IMPORT: how many jobs gave (with dry_run:
				 * would be summarized) */
	int stopped;		/* the change's own status (ENDING_STOPPED) */
};

enum ending_kind {
	/* end: the active conversation ended at now; then summarized with
	 * those among the SUMMARIZE_PENDING_WINDOW that ended last that have
	 * no summary, also when none was active */
	ENDING_END,
	/* resume, fork: the active one ended as end ends it (with the
	 * pending ones when one was ended), then the change */
	ENDING_SWITCH,
	/* add, run: the change, which may end the active conversation at
	 * its idle boundary (res->idle_ended); that one is summarized after
	 * the write when summary_at_idle_end says so, and a summary that
	 * fails leaves it pending with a warning */
	ENDING_IDLE,
	/* migrate: the change (nothing ended), written with what the
	 * rolling limit removed kept in res->pruned (not reported: the
	 * caller names them, as it knows which it imported); then, with
	 * cf, the conversations jobs gives summarized after the write, no
	 * lock held: some failing is done in part (ENDING_PENDING) */
	ENDING_IMPORT,
};

struct ending_request {
	enum ending_kind kind;
	const struct settings *settings;
	int64_t now;			/* END, SWITCH: the time of the end */
	int dry_run;			/* SWITCH, IMPORT: read only,
					 * nothing written and nothing
					 * summarized */
	/* the summarizer, set up; NULL: no summary is wanted (--no-summary,
	 * summarizer none) */
	const struct summary_config *cf;
	/* the summarizer could not be set up (a wrong setting): why; the end
	 * is done all the same and its summary said pending (END, SWITCH) */
	const char *setup_error;
	/*
	 * Under the lock, the command's change: none for END (NULL), after the
	 * end for SWITCH, the change itself for IDLE. check, before anything
	 * ends (SWITCH). Each returns 0, or its own status, > 0, having said
	 * why: nothing is written then (ENDING_STOPPED, res->stopped).
	 */
	int (*check)(void *arg, struct store *);
	int (*change)(void *arg, struct store *, struct ending_result *);
	/* after the commit, the lock still held, before any summary is
	 * made: the command's answer is printed here; 0 or its status,
	 * which stops the summaries */
	int (*committed)(void *arg, struct store *, const struct ending_result *);
	/* IMPORT, with cf, after committed: the conversations to summarize
	 * (*n of them; NULL when none), taken */
	struct summary_job **(*jobs)(void *arg, struct store *,
	    const struct ending_result *, size_t *n);
	void *arg;
	/* progress, errors and notes (the rolling limit's, a warning), as
	 * summarize_request's report */
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
/* res is filled (ending_result_free), its status returned; see the kinds
 * for what each does */
enum ending_status ending_run(const struct ending_request *,
    struct ending_result *);
void ending_result_free(struct ending_result *);

#endif
