/*
 * ending.c - a conversation's end and its summaries, for end, resume, fork,
 * add and run alike (and migrate's import and its summaries): under the
 * lock the end (or the command's change that crosses the idle boundary),
 * one commit, the lock released, then the summaries. A local summarizer's
 * summaries of an end are made under the lock and written with it, in one
 * write; a model is asked only after the write, with no lock held. A
 * summary never undoes nor holds up the end.
 */
#include <stdlib.h>
#include <string.h>

#include "ending.h"

struct ending {
	const struct ending_request *rq;
	struct ending_result *res;
	struct summarize_request srq;
	struct summarize_item items[SUMMARIZE_PENDING_WINDOW + 1];
	size_t n;		/* items[0] is the one ended, or no job */
	int64_t idle;		/* the idle timeout, ms */
	int local;		/* the summaries are made under the lock */
	struct buf held;	/* their errors: id and text, each with its NUL
				 * (an empty id: none) */
	struct summary_job **jobs;	/* IMPORT: to summarize
					 * (res->njobs) */
};

static void
note(const struct ending *en, const char *fmt, const char *arg)
{
	struct summarize_event ev = { SUMMARIZE_NOTE, 0, 0, NULL, NULL };
	struct buf b = { 0 };

	buf_addf(&b, fmt, arg);
	ev.msg = b.data;
	if (en->rq->report != NULL)
		en->rq->report(en->rq->report_arg, &ev);
	buf_free(&b);
}

/* items[1..] for the conversations among the SUMMARIZE_PENDING_WINDOW that
 * ended last with no summary, but the one just ended; a warning when they
 * cannot be read: the end is what was asked for, and is done */
static void
pending_jobs(struct ending *en, struct store *st)
{
	struct error e;

	if (summarize_pending_window(st, SUMMARIZE_PENDING_WINDOW,
	    en->res->ended, en->items, &en->n, &e) < 0)
		note(en, "warning: %s", e.msg);
}

/*
 * A local summary's errors, held until it is known whether the end itself
 * was written: when the store cannot be written at all, its error, said
 * once by the end written alone, is the one true line.
 */
static void
held_report(void *arg, const struct summarize_event *ev)
{
	struct ending *en = arg;

	if (ev->kind == SUMMARIZE_ERROR) {
		buf_add(&en->held, ev->id ? ev->id : "", ev->id ?
		    strlen(ev->id) + 1 : 1);
		buf_add(&en->held, ev->msg, strlen(ev->msg) + 1);
	} else if (en->rq->report != NULL)
		en->rq->report(en->rq->report_arg, ev);
}

/* the errors held, said now (say) or dropped */
static void
held_flush(struct ending *en, int say)
{
	struct summarize_event ev = { SUMMARIZE_ERROR, 0, 0, NULL, NULL };
	size_t at;

	for (at = 0; say && en->rq->report != NULL && at < en->held.len;
	    at += strlen(en->held.data + at) + 1) {
		ev.id = *(en->held.data + at) != '\0' ? en->held.data + at :
		    NULL;
		at += strlen(en->held.data + at) + 1;
		ev.msg = en->held.data + at;
		en->rq->report(en->rq->report_arg, &ev);
	}
	buf_free(&en->held);
}

/* the one the idle boundary ended, when it is to be summarized now */
static void
idle_job(struct ending *en, struct store *st)
{
	const char *id = en->res->idle_ended;
	struct error e;
	int now;

	if (id == NULL || en->rq->cf == NULL)
		return;
	if ((now = summary_at_idle_end(en->rq->cf, en->rq->settings, &e)) < 0)
		note(en, "warning: %s", e.msg);
	if (now > 0) {
		en->items[0].job = summary_job_new(store_find(st, id));
		en->items[0].todo = 1;
	}
}

/* the end, asked for (END, SWITCH): res->ended, and the jobs with jobs */
static enum ending_status
end_active(struct ending *en, struct store *st, struct error *e)
{
	const char *id;

	switch (conv_end(st, en->rq->now, en->idle, &id, e)) {
	case END_FAILED:
		return ENDING_FAILED;
	case END_DONE:
		en->res->ended = xstrdup(id);	/* the rolling limit may drop it */
		en->res->ended_at = conv_ended(store_find(st, id));
		break;
	case END_NOTHING_ACTIVE:
		break;
	}
	return ENDING_DONE;
}

/* the jobs of an end: the one ended, and the pending ones (END always,
 * SWITCH when it ended one) */
static void
end_jobs(struct ending *en, struct store *st)
{
	if (en->res->ended != NULL)
		en->items[0].job = summary_job_new(store_find(st,
		    en->res->ended));
	if (en->rq->kind == ENDING_END || en->res->ended != NULL)
		pending_jobs(en, st);
	/* items[0], when nothing was ended, is no job: not to do */
	en->items[0].todo = en->items[0].job != NULL;
}

/* 1: something is to be written */
static int
to_write(const struct ending *en)
{
	switch (en->rq->kind) {
	case ENDING_END:
		return en->res->ended != NULL;
	case ENDING_SWITCH:
		return !en->rq->dry_run;
	case ENDING_IMPORT:
		if (en->rq->dry_run)
			return 0;
		break;
	case ENDING_IDLE:
		break;
	}
	return !en->res->unchanged;
}

/* 1: the kind ends the active conversation itself */
static int
ends(const struct ending_request *rq)
{
	return rq->kind == ENDING_END || rq->kind == ENDING_SWITCH;
}

/* the write: summarize_commit's, reporting what the rolling limit removed;
 * an import's keeps their ids for the caller to name */
static enum commit_status
commit(struct ending *en, struct store *st, struct error *e)
{
	struct commit_report r;
	enum commit_status rc;

	if (en->rq->kind != ENDING_IMPORT)
		return summarize_commit(st, &en->srq, e);
	if ((rc = lifecycle_commit(st, en->rq->settings, &r, e)) ==
	    COMMIT_FAILED) {
		strv_free(r.pruned);
		return rc;
	}
	if (rc == COMMIT_UNFLUSHED)
		note(en, "warning: %s", e->msg);
	en->res->pruned = r.pruned;
	en->res->npruned = r.npruned;
	return rc;
}

/* END_UNWRITTEN: the end and its local summaries could not be written
 * together, nothing was: the end is to be tried alone */
#define END_UNWRITTEN 3

/*
 * One transaction: the end and the change under the lock, the commit (with
 * the local summaries, jobs set), the command's answer, the lock released.
 */
static int
write_once(struct ending *en, int jobs, struct error *e)
{
	const struct ending_request *rq = en->rq;
	struct store *st = NULL;
	int rc;

	if ((rc = lifecycle_begin(rq->settings, rq->dry_run ? STORE_READ :
	    STORE_WRITE, &st, e)) < 0)
		return rc == -2 ? ENDING_BAD_STORE : ENDING_FAILED;
	if (rq->check != NULL &&
	    (en->res->stopped = rq->check(rq->arg, st)) != 0) {
		rc = ENDING_STOPPED;
		goto out;
	}
	if (ends(rq) && (rc = end_active(en, st, e)) != ENDING_DONE)
		goto out;
	if (rq->change != NULL &&
	    (en->res->stopped = rq->change(rq->arg, st, en->res)) != 0) {
		rc = ENDING_STOPPED;
		goto out;
	}
	if (jobs && rq->kind == ENDING_IDLE)
		idle_job(en, st);
	else if (jobs && ends(rq))
		end_jobs(en, st);
	rc = ENDING_DONE;
	if (en->local && (en->res->ended != NULL || en->n > 1)) {
		/* a store that cannot be written now cannot take the end
		 * alone either: said once, in e */
		if ((rc = summarize_local(st, &en->srq, en->items, en->n,
		    e)) < 0) {
			rc = rc == -2 ? ENDING_FAILED : END_UNWRITTEN;
			goto out;
		}
	} else if (to_write(en) && commit(en, st, e) == COMMIT_FAILED) {
		rc = ENDING_FAILED;
		goto out;
	}
	if (rq->committed != NULL &&
	    (en->res->stopped = rq->committed(rq->arg, st, en->res)) != 0)
		rc = ENDING_STOPPED;
	else if (rq->kind == ENDING_IMPORT && rq->cf != NULL &&
	    !en->res->unchanged && rq->jobs != NULL)
		en->jobs = rq->jobs(rq->arg, st, en->res,
		    &en->res->njobs);
	/* the rolling limit may have removed the one ended by the idle
	 * boundary at once */
	if (rq->kind == ENDING_IDLE && en->items[0].job != NULL &&
	    store_find(st, summary_job_id(en->items[0].job)) == NULL)
		en->items[0].todo = 0;
out:
	store_close(st);	/* no lock is held while summarizing */
	return rc;
}

static void
clear(struct ending *en)
{
	size_t i;

	for (i = 0; i < en->n; i++)
		summarize_item_clear(&en->items[i]);
	en->n = 1;
	for (i = 0; i < en->res->njobs && en->jobs != NULL; i++)
		summary_job_free(en->jobs[i]);
	free(en->jobs);
	en->jobs = NULL;
}

/* IMPORT: the jobs summarized, taken; some failing is done in part */
static enum ending_status
summarize_jobs(struct ending *en)
{
	size_t i, n = en->res->njobs;
	struct summarize_item *items;
	enum summarize_outcome o;

	if (n == 0)
		return ENDING_DONE;
	items = xmalloc(n * sizeof(*items));
	memset(items, 0, n * sizeof(*items));
	for (i = 0; i < n; i++) {
		items[i].job = en->jobs[i];
		items[i].todo = 1;
		en->jobs[i] = NULL;
	}
	o = summarize_run(&en->srq, items, n);
	summarize_items_free(items, n);
	return o == SUMMARIZE_DONE_ALL ? ENDING_DONE : ENDING_PENDING;
}

/* after the write, with no lock held: the summaries not made under it */
static enum ending_status
summarize_after(struct ending *en)
{
	const struct ending_request *rq = en->rq;
	struct summarize_item *it = &en->items[0];

	if (rq->kind == ENDING_IMPORT)
		return summarize_jobs(en);
	if (rq->kind == ENDING_IDLE) {
		if (it->todo && summarize_run(&en->srq, it, 1) !=
		    SUMMARIZE_DONE_ALL)
			note(en, "warning: '%s', ended by the idle timeout, "
			    "has no summary yet (convctl summarize --pending)",
			    summary_job_id(it->job));
		return ENDING_DONE;
	}
	if (en->res->ended == NULL && en->n == 1)
		return ENDING_DONE;
	if (rq->cf == NULL)	/* a summarizer not set up: rq->setup_error */
		return en->res->ended != NULL ? ENDING_PENDING : ENDING_DONE;
	if (!en->local)
		summarize_run(&en->srq, en->items, en->n);
	/* the others failing leave them pending, as they were */
	if (en->res->ended != NULL && it->status != SUMMARY_DONE)
		return ENDING_PENDING;
	return ENDING_DONE;
}

/* what done in part says: why the summary is pending, and what to do */
static void
pending_lines(const struct ending_request *rq, struct ending_result *res)
{
	struct buf b = { 0 };
	size_t n = 0;

	if (rq->kind == ENDING_IMPORT) {
		buf_adds(&b, "the import stands; 'convctl summarize --pending' "
		    "summarizes those left without a summary, 'convctl "
		    "summarize ID --force' one that kept migrate's");
		res->pending[0] = buf_detach(&b);
		return;
	}
	if (rq->setup_error != NULL) {
		buf_addf(&b, "no summary: %s", rq->setup_error);
		res->pending[n++] = buf_detach(&b);
	}
	buf_addf(&b, "'%s' is ended; its summary is pending (convctl "
	    "summarize --pending)", res->ended);
	res->pending[n] = buf_detach(&b);
}

enum ending_status
ending_run(const struct ending_request *rq, struct ending_result *res)
{
	struct ending en = { .rq = rq, .res = res, .n = 1 };
	struct error *e = &res->error;
	int rc, jobs = rq->cf != NULL && !rq->dry_run;

	memset(res, 0, sizeof(*res));
	en.srq = (struct summarize_request){ .cf = rq->cf,
	    .settings = rq->settings, .report = rq->report,
	    .report_arg = rq->report_arg };
	en.local = jobs && ends(rq) && summary_local(rq->cf);
	if (en.local) {
		en.srq.report = held_report;
		en.srq.report_arg = &en;
	}
	if (ends(rq) && lifecycle_idle_timeout(rq->settings, &en.idle, e) < 0)
		return res->status = ENDING_FAILED;
	rc = write_once(&en, jobs, e);
	if (rc == END_UNWRITTEN) {
		/* the end alone, its summaries pending */
		clear(&en);
		free(res->ended);
		memset(res, 0, sizeof(*res));
		en.local = 0;
		rc = write_once(&en, 0, e);
		held_flush(&en, rc == ENDING_DONE);	/* else e is the line */
		if (rc == ENDING_DONE && res->ended != NULL)
			rc = ENDING_PENDING;
		goto out;
	}
	held_flush(&en, 1);
	if (rc != ENDING_DONE ||
	    (rq->cf == NULL && rq->setup_error == NULL) || rq->dry_run)
		goto out;
	rc = summarize_after(&en);
out:
	clear(&en);
	if (rc == ENDING_PENDING)
		pending_lines(rq, res);
	return res->status = (enum ending_status)rc;
}

void
ending_result_free(struct ending_result *res)
{
	size_t i;

	free(res->ended);
	res->ended = NULL;
	strv_free(res->pruned);
	res->pruned = NULL;
	for (i = 0; res->pending[i] != NULL; i++) {
		free(res->pending[i]);
		res->pending[i] = NULL;
	}
}
