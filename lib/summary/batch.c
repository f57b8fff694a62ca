/*
 * batch.c - a batch of summaries, made with no lock held.
 *
 * The conversations are copied out of the store (jobs), the store is closed,
 * each is summarized, and the results are written under the lock only where
 * the conversation is still there and unchanged. With a model, what was made
 * is written before each request and at the end, so an interrupted batch
 * keeps what it made. A local summarizer, which sends nothing, may instead
 * work inside the caller's locked store, so that one write carries the
 * caller's change and the summaries (summarize_local: end). It knows the
 * store only through store_open, store_save
 * and summary_store, and the summarizers only through summary_make; it never
 * prints: progress, errors and --verbose lines go to the caller's report.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

struct batch {
	const struct summarize_request *rq;
	struct summarize_item *items;
	size_t n;
	char *unstored;		/* made, not yet written */
};

static void
report(const struct batch *b, enum summarize_event_kind kind, size_t done,
    size_t total, const char *id, const char *msg)
{
	struct summarize_event ev = { kind, done, total, id, msg };

	if (b->rq->report != NULL)
		b->rq->report(b->rq->report_arg, &ev);
}

static void
fail(struct batch *b, size_t i, enum summary_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* marks item i as not done and reports why; the words stay for --json */
static void
fail(struct batch *b, size_t i, enum summary_status st, const char *fmt, ...)
{
	struct summarize_item *it = &b->items[i];
	struct buf msg = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	free(it->error);
	it->error = buf_detach(&msg);
	it->status = st;
	b->unstored[i] = 0;
	report(b, SUMMARIZE_ERROR, 0, 0, summary_job_id(it->job), it->error);
}

/* a line lifecycle_commit_said says, as a note */
static void
say_note(void *arg, const char *line)
{
	report(arg, SUMMARIZE_NOTE, 0, 0, NULL, line);
}

enum commit_status
summarize_commit(struct store *st, const struct summarize_request *rq,
    struct error *e)
{
	struct batch b = { rq, NULL, 0, NULL };

	return lifecycle_commit_said(st, rq->settings, say_note, &b, e);
}

/* the rolling limit applied and written, saying what else that did;
 * -1: not written; -2: not written now (a server gone, a read-only
 * standby), said in out, when out is not NULL, and not reported */
static int
commit(struct batch *b, struct store *st, struct error *out)
{
	struct error own, *e = out != NULL ? out : &own;

	if (summarize_commit(st, b->rq, e) != COMMIT_FAILED)
		return 0;
	if (out != NULL && e->kind == ERROR_TEMPORARY)
		return -2;	/* the caller's to say, once */
	report(b, SUMMARIZE_ERROR, 0, 0, NULL, e->msg);
	return -1;
}

static void
not_stored(struct batch *b, size_t i)
{
	fail(b, i, SUMMARY_FAILED, "summary of '%s' not stored: the store "
	    "cannot be written", summary_job_id(b->items[i].job));
}

/* stores the result of item i in st; 1 when it was */
static int
store_one(struct batch *b, struct store *st, size_t i)
{
	struct summarize_item *it = &b->items[i];
	const char *id = summary_job_id(it->job);
	struct error e;

	switch (summary_store(st, it->job, &it->res, &e)) {
	case SUMMARY_STORED:
		it->status = SUMMARY_DONE;
		return 1;
	case SUMMARY_STORE_GONE:
		fail(b, i, SUMMARY_GONE, "'%s' was removed while it was "
		    "summarized; its summary is dropped", id);
		return 0;
	case SUMMARY_STORE_CHANGED:
		fail(b, i, SUMMARY_CHANGED, "'%s' changed while it was "
		    "summarized; its summary is dropped (summarize it again)", id);
		return 0;
	case SUMMARY_STORE_FAILED:
		break;
	}
	fail(b, i, SUMMARY_FAILED, "%s", e.msg);
	return 0;
}

/* writes every result made and not yet written, under the lock */
static void
flush(struct batch *b)
{
	struct store *st = NULL;
	struct error e;
	size_t i, stored = 0;
	int rc = 0;

	for (i = 0; i < b->n && !b->unstored[i]; i++)
		;
	if (i == b->n)
		return;
	report(b, SUMMARIZE_STORING, 0, 0, NULL, NULL);
	if (lifecycle_begin(b->rq->settings, STORE_WRITE, &st, &e) < 0) {
		report(b, SUMMARIZE_ERROR, 0, 0, NULL, e.msg);
		for (i = 0; i < b->n; i++)
			if (b->unstored[i]) {
				not_stored(b, i);
				b->items[i].again = e.kind == ERROR_TEMPORARY;
			}
		return;
	}
	for (i = 0; i < b->n; i++)
		if (b->unstored[i])
			stored += (size_t)store_one(b, st, i);
	if (stored > 0)
		rc = commit(b, st, NULL);
	for (i = 0; i < b->n; i++) {
		if (!b->unstored[i])
			continue;
		b->unstored[i] = 0;
		if (rc < 0 && b->items[i].status == SUMMARY_DONE)
			not_stored(b, i);
	}
	store_close(st);
}

/* what a dry run does for item i: says what it would send */
static void
dry_run(struct batch *b, size_t i, int network)
{
	const struct summary_config *cf = b->rq->cf;
	char *prompt;

	b->items[i].status = SUMMARY_WOULD;
	if (network && cf->llm.log != NULL) {
		prompt = summary_prompt(b->items[i].job, cf->context_chars);
		report(b, SUMMARIZE_VERBOSE, 0, 0, summary_job_id(
		    b->items[i].job), prompt);
		free(prompt);
	}
}

/* summarizes item i, leaving the result to be stored */
static void
make_one(struct batch *b, size_t i)
{
	const struct summary_config *cf = b->rq->cf;
	struct summarize_item *it = &b->items[i];
	struct error e;

	if (summary_make(cf, it->job, &it->res, &e) < 0) {
		fail(b, i, SUMMARY_FAILED, "cannot summarize '%s': %s",
		    summary_job_id(it->job), e.msg);
		return;
	}
	if (it->res.offline_title && cf->llm.log != NULL)
		report(b, SUMMARIZE_VERBOSE, 0, 0, summary_job_id(it->job),
		    "the reply has no TITLE: line; the offline title stands in");
	b->unstored[i] = 1;
}

/* how many of the items to do were done (or would be) */
static enum summarize_outcome
outcome(const struct summarize_item *items, size_t n)
{
	size_t i, done = 0, failed = 0, again = 0;

	for (i = 0; i < n; i++) {
		if (!items[i].todo)
			continue;
		if (items[i].status == SUMMARY_DONE ||
		    items[i].status == SUMMARY_WOULD)
			done++;
		else {
			failed++;
			again += items[i].status == SUMMARY_FAILED &&
			    items[i].again;
		}
	}
	if (failed == 0)
		return SUMMARIZE_DONE_ALL;
	if (done > 0)
		return SUMMARIZE_DONE_SOME;
	return again == failed ? SUMMARIZE_AGAIN : SUMMARIZE_DONE_NONE;
}

/* every item failed until done, or skipped; how many are to do */
static size_t
begin(struct batch *b)
{
	size_t i, ntodo = 0;

	b->unstored = xmalloc(b->n + 1);
	memset(b->unstored, 0, b->n + 1);
	for (i = 0; i < b->n; i++) {
		b->items[i].status = b->items[i].todo ? SUMMARY_FAILED :
		    SUMMARY_SKIPPED;
		b->items[i].again = 0;
		ntodo += b->items[i].todo != 0;
	}
	report(b, SUMMARIZE_BEGIN, 0, ntodo, NULL, NULL);
	return ntodo;
}

int
summarize_local(struct store *st, const struct summarize_request *rq,
    struct summarize_item *items, size_t n, struct error *e)
{
	struct batch b = { rq, items, n, NULL };
	size_t i, ntodo, k = 0, stored = 0;
	int rc = 0;

	/* a request made here would be made with the lock held */
	if (!summary_local(rq->cf) || rq->dry_run)
		abort();
	ntodo = begin(&b);
	for (i = 0; i < n; i++) {
		if (!items[i].todo)
			continue;
		report(&b, SUMMARIZE_ITEM, ++k, ntodo,
		    summary_job_id(items[i].job), NULL);
		make_one(&b, i);
		if (b.unstored[i])
			stored += (size_t)store_one(&b, st, i);
	}
	if (stored > 0) {
		report(&b, SUMMARIZE_STORING, 0, 0, NULL, NULL);
		rc = commit(&b, st, e);
	}
	for (i = 0; i < n; i++) {
		if (rc == -1 && b.unstored[i] && items[i].status == SUMMARY_DONE)
			not_stored(&b, i);
		else if (rc == -2 && b.unstored[i])
			items[i].status = SUMMARY_FAILED;
		b.unstored[i] = 0;
	}
	free(b.unstored);
	return rc;
}

enum summarize_outcome
summarize_run(const struct summarize_request *rq,
    struct summarize_item *items, size_t n)
{
	struct batch b = { rq, items, n, NULL };
	size_t i, ntodo, k = 0;
	int network = rq->cf->kind == SUMMARY_OPENAI ||
	    rq->cf->kind == SUMMARY_ANTHROPIC;

	ntodo = begin(&b);
	for (i = 0; i < n; i++) {
		if (!items[i].todo)
			continue;
		/* nothing made is ever waiting while a request is out */
		if (network && !rq->dry_run)
			flush(&b);
		report(&b, SUMMARIZE_ITEM, ++k, ntodo,
		    summary_job_id(items[i].job), NULL);
		if (rq->dry_run)
			dry_run(&b, i, network);
		else
			make_one(&b, i);
	}
	flush(&b);
	if (network)
		llm_cleanup();
	free(b.unstored);
	return outcome(items, n);
}

int
summarize_select(struct store *st, const struct summarize_selection *sel,
    struct summarize_item **out, size_t *nout, struct error *e)
{
	struct conv **ended, *one = NULL, **v;
	struct summarize_item *items;
	size_t n, nv, i, k = 0;
	int stale;

	if ((sel->which == SUMMARIZE_ID ? store_load_id(st, sel->id, e) :
	    store_load_ended(st, sel->which == SUMMARIZE_LATEST ? 1 : SIZE_MAX,
	    0, e)) < 0)
		return -1;
	ended = store_ended(st, &n);
	if (sel->which == SUMMARIZE_ID) {
		if ((one = store_find(st, sel->id)) == NULL) {
			free(ended);
			return error_set(e, "no conversation '%s' in '%s'",
			    sel->id, store_path(st));
		}
		if (conv_ended(one) < 0) {
			free(ended);
			return error_set(e, "'%s' is still active; end it first "
			    "(convctl end)", conv_id(one));
		}
	} else if (sel->which == SUMMARIZE_LATEST) {
		if (n == 0) {
			free(ended);
			return error_set(e, "no ended conversations in '%s'",
			    store_path(st));
		}
		one = ended[0];
	}
	v = one != NULL ? &one : ended;
	nv = one != NULL ? 1 : n;
	items = xmalloc((nv + 1) * sizeof(*items));
	memset(items, 0, (nv + 1) * sizeof(*items));
	for (i = 0; i < nv; i++) {
		stale = conv_summary(v[i]) == NULL || conv_summary_stale(v[i]);
		if (sel->which == SUMMARIZE_PENDING && !stale)
			continue;
		if (conv_load(st, v[i], e) < 0) {
			summarize_items_free(items, k);
			free(ended);
			return -1;
		}
		items[k].job = summary_job_new(v[i]);
		items[k].todo = sel->force || stale;
		/* --force: a title set by hand is redone too */
		if (sel->force)
			summary_job_keep_title(items[k].job, 0);
		k++;
	}
	free(ended);
	*out = items;
	*nout = k;
	return 0;
}

int
summarize_pending_window(struct store *st, size_t window, const char *skip,
    struct summarize_item *items, size_t *n, struct error *e)
{
	struct conv **v;
	size_t nv, i;

	if (store_load_ended(st, window, 1, e) < 0)
		return -1;
	v = store_ended(st, &nv);
	for (i = 0; i < nv && i < window; i++) {
		if (conv_summary(v[i]) != NULL ||
		    (skip != NULL && strcmp(conv_id(v[i]), skip) == 0))
			continue;
		items[*n].job = summary_job_new(v[i]);
		items[*n].todo = 1;
		(*n)++;
	}
	free(v);
	return 0;
}

void
summarize_item_clear(struct summarize_item *it)
{
	summary_job_free(it->job);
	summary_result_free(&it->res);
	free(it->error);
	memset(it, 0, sizeof(*it));
}

void
summarize_items_free(struct summarize_item *items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		summarize_item_clear(&items[i]);
	free(items);
}

void
summarize_render(struct buf *b, const struct summarize_item *items, size_t n,
    int json)
{
	static const char *const status[] = {
		[SUMMARY_DONE] = "summarized", [SUMMARY_WOULD] = "would-summarize",
		[SUMMARY_SKIPPED] = "skipped", [SUMMARY_FAILED] = "failed",
		[SUMMARY_CHANGED] = "changed", [SUMMARY_GONE] = "removed",
	};
	const struct summarize_item *it;
	int done;
	json_t *arr;
	size_t i;

	if (!json) {
		for (i = 0; i < n; i++)
			if (items[i].status == SUMMARY_DONE) {
				buf_add_printable(b, summary_job_id(items[i].job));
				buf_addc(b, '\t');
				buf_add_printable(b, items[i].res.title);
				buf_addc(b, '\n');
			} else if (items[i].status == SUMMARY_WOULD) {
				buf_add_printable(b, summary_job_id(items[i].job));
				buf_addc(b, '\n');
			}
		return;
	}
	arr = json_array();
	for (i = 0; i < n; i++) {
		it = &items[i];
		done = it->status == SUMMARY_DONE;
		json_array_append_new(arr, json_pack("{s:s, s:s, s:s?, s:s?, s:s?}",
		    "id", summary_job_id(it->job), "status", status[it->status],
		    "title", done ? it->res.title : NULL,
		    "summary", done ? it->res.summary : NULL,
		    "error", it->error));
	}
	json_dump_buf(b, arr);
	buf_addc(b, '\n');
	json_decref(arr);
}
