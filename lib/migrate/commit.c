/*
 * commit.c - an import written whole (commit.h): migrate_run under the
 * lock through ending_run (ENDING_IMPORT), the rolling limit's removals
 * said before the write, one commit, the report answered, then the
 * summaries of --summarize with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "commit.h"

struct importing {
	const struct migrate_commit_request *rq;
	struct migrate_commit_result *res;
	int unanswered;			/* answered stopped the summaries */
};

/* before the import is written: it will take the store over the limit */
static void
say_limit(const struct migrate_commit_request *rq,
    const struct migrate_result *res, long limit, size_t n, char **ids)
{
	struct buf origin = { 0 }, line = { 0 };
	size_t i, mine = 0;

	if (n == 0 || rq->say == NULL)
		return;
	for (i = 0; i < n; i++)
		mine += migrate_was_imported(res, ids[i]);
	settings_origin(&origin, rq->settings, SET_MAX_CONVERSATIONS);
	buf_addf(&line, "importing %zu conversation%s takes the store past "
	    "max_conversations (%ld, %s): the %zu oldest ended (%zu of them "
	    "imported here) %s removed as it is written; see convctl-prune(1)",
	    migrate_imported(res), migrate_imported(res) == 1 ? "" : "s",
	    limit, origin.data, n, mine, n == 1 ? "is" : "are");
	rq->say(rq->say_arg, line.data);
	buf_free(&line);
	buf_free(&origin);
}

/* under the lock: the import; what the rolling limit will remove said
 * before it is written (dry_run: kept, nothing written) */
static int
import(void *arg, struct store *st, struct ending_result *ending)
{
	struct importing *im = arg;
	struct migrate_commit_result *res = im->res;
	struct commit_report limit;

	/* on error the store in memory may hold part of it: it is not saved */
	if (migrate_run(st, im->rq->rq, &res->res, &res->error) < 0)
		return 1;
	if ((ending->unchanged = !migrate_changed(res->res)))
		return 0;
	if (lifecycle_commit_preview(st, im->rq->settings, &limit,
	    &res->error) < 0)
		return 1;
	if (im->rq->rq->dry_run) {
		res->pruned = limit.pruned;
		res->npruned = limit.npruned;
		return 0;
	}
	say_limit(im->rq, res->res, limit.limit, limit.npruned, limit.pruned);
	strv_free(limit.pruned);
	return 0;
}

/* after the write, the lock held: the report */
static int
imported(void *arg, struct store *st, const struct ending_result *ending)
{
	struct importing *im = arg;
	struct migrate_commit_result *res = im->res;
	size_t i;

	(void)st;
	res->unchanged = ending->unchanged;
	if (!im->rq->rq->dry_run && ending->npruned > 0) {
		res->pruned = xmalloc((ending->npruned + 1) * sizeof(char *));
		for (i = 0; i < ending->npruned; i++)
			res->pruned[i] = xstrdup(ending->pruned[i]);
		res->pruned[i] = NULL;
		res->npruned = ending->npruned;
	}
	if (im->rq->answered != NULL && im->rq->answered(im->rq->arg,
	    res) != 0)
		return im->unanswered = 1;
	return 0;
}

/* summarize: the conversations imported that want a summary */
static struct summary_job **
to_summarize(void *arg, struct store *st, const struct ending_result *ending,
    size_t *n)
{
	struct importing *im = arg;

	(void)ending;
	return migrate_summary_jobs(st, im->res->res, &im->res->cf,
	    im->res->pruned, im->res->npruned, n);
}

enum ops_status
migrate_prepare(const struct migrate_commit_request *rq,
    struct migrate_commit_result *res)
{
	long max;

	memset(res, 0, sizeof(*res));
	if (rq->summarize) {
		switch (summary_config_resolve(&res->cf, rq->settings,
		    &rq->flags, &res->error)) {
		case SUMMARY_SETUP_OK:
			break;
		case SUMMARY_SETUP_BAD_FLAG:
			res->arg = "summarizer";
			return res->status = OPS_BAD_ARG;
		case SUMMARY_SETUP_BAD_SETTING:
			return res->status = OPS_FAILED;
		}
		if (res->cf.kind == SUMMARY_NONE) {
			error_set(&res->error, "--summarize, but summaries are "
			    "turned off (the summarizer is 'none'); see "
			    "--summarizer");
			return res->status = OPS_FAILED;
		}
		res->cf.llm.log = rq->llm_log;
		res->cf.llm.log_arg = rq->llm_log_arg;
	}
	if (lifecycle_idle_timeout(rq->settings, &rq->rq->idle_timeout,
	    &res->error) < 0 || ts_now(&rq->rq->now, &res->error) < 0 ||
	    settings_long(rq->settings, SET_MAX_INPUT_BYTES, &max,
	    &res->error) < 0)
		return res->status = OPS_FAILED;
	rq->rq->max_bytes = (size_t)max;
	return res->status = OPS_DONE;
}

enum ops_status
migrate_commit(const struct migrate_commit_request *rq,
    struct migrate_commit_result *res)
{
	struct importing im = { rq, res, 0 };
	struct ending_request er = { .kind = ENDING_IMPORT,
	    .settings = rq->settings, .dry_run = rq->rq->dry_run,
	    .cf = rq->summarize ? &res->cf : NULL, .change = import,
	    .committed = imported, .jobs = to_summarize, .arg = &im,
	    .report = rq->report, .report_arg = rq->report_arg };
	struct ending_result ending;
	enum ending_status st;

	/* stopped: the import's error, in res->error; or the report stopped
	 * the summaries */
	st = ending_run(&er, &ending);
	res->status = ops_ending_status(st, &ending, &res->error,
	    res->pending, im.unanswered ? OPS_DONE : OPS_FAILED);
	res->njobs = ending.njobs;
	res->unchanged = ending.unchanged;
	ending_result_free(&ending);
	return res->status;
}

void
migrate_commit_free(struct migrate_commit_result *res)
{
	size_t i;

	migrate_free(res->res);
	res->res = NULL;
	strv_free(res->pruned);
	res->pruned = NULL;
	for (i = 0; res->pending[i] != NULL; i++) {
		free(res->pending[i]);
		res->pending[i] = NULL;
	}
}
