/*
 * remove.c - conversations removed for good, for `convctl delete` (by id,
 * conv_delete()'s rule) and `convctl prune` (the oldest ended, the rolling
 * limit's rule: conv_prune()): the store opened (to write, unless
 * dry_run), the removal, the commit with the rolling limit, whose lines
 * are said through the request's say.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

enum ops_status
ops_delete(const struct ops_delete_request *rq, struct ops_delete_result *res)
{
	struct store *st;

	memset(res, 0, sizeof(*res));
	if ((st = ops_open(rq->settings, rq->dry_run, &res->error,
	    &res->status)) == NULL)
		return res->status;
	res->status = OPS_FAILED;
	if (conv_delete(st, rq->ids, rq->nids, rq->force, rq->dry_run,
	    &res->ids, &res->nids, &res->error) < 0)
		;	/* said */
	else if (rq->dry_run || lifecycle_commit_said(st, rq->settings,
	    rq->say, rq->say_arg, &res->error) != COMMIT_FAILED)
		res->status = OPS_DONE;
	if (res->status != OPS_DONE)
		ops_delete_result_free(res);
	store_close(st);
	return res->status;
}

void
ops_delete_result_free(struct ops_delete_result *res)
{
	strv_free(res->ids);
	res->ids = NULL;
	res->nids = 0;
}

enum ops_status
ops_prune(const struct ops_prune_request *rq, struct ops_prune_result *res)
{
	struct prune_request pr = { .max = rq->max, .older_than = -1,
	    .dry_run = rq->dry_run, .progress = rq->progress,
	    .progress_arg = rq->progress_arg };
	struct store *st;
	int64_t now, span;

	memset(res, 0, sizeof(*res));
	res->status = OPS_FAILED;
	if (!rq->max_given && settings_long(rq->settings,
	    SET_MAX_CONVERSATIONS, &pr.max, &res->error) < 0)
		return res->status;
	if (rq->older_than != NULL) {
		if (duration_parse(rq->older_than, &span) < 0) {
			error_set(&res->error, "%s expects a duration such as "
			    "90m, 12h, 30d or 2w, not '%s'",
			    rq->older_than_name, rq->older_than);
			res->arg = "older-than";
			return res->status = OPS_BAD_ARG;
		}
		if (ts_now(&now, &res->error) < 0)
			return res->status;
		pr.older_than = now - span;
	}
	if ((st = ops_open(rq->settings, rq->dry_run, &res->error,
	    &res->status)) == NULL)
		return res->status;
	res->status = OPS_FAILED;
	/* nothing removed: the store is left as it is */
	if (conv_prune(st, &pr, &res->ids, &res->nids, &res->error) < 0)
		;	/* said */
	else if (rq->dry_run || res->nids == 0 || lifecycle_commit_said(st,
	    rq->settings, rq->say, rq->say_arg, &res->error) != COMMIT_FAILED)
		res->status = OPS_DONE;
	if (res->status != OPS_DONE)
		ops_prune_result_free(res);
	store_close(st);
	return res->status;
}

void
ops_prune_result_free(struct ops_prune_result *res)
{
	strv_free(res->ids);
	res->ids = NULL;
	res->nids = 0;
}
