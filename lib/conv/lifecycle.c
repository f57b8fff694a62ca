/*
 * lifecycle.c - conversations start, take messages, end and are pruned; the
 * rules only, on the loaded store: the file, the lock and saving are store.c's.
 *
 * A message joins the active conversation unless that one has been idle longer
 * than the timeout; then it is ended at its last message's time and the
 * message starts a new conversation.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../internal.h"

/* *found: the conversation among the active one and the latest ended that
 * holds a message with this dedupeKey, or NULL */
static int
find_dedupe(struct store *st, const char *key, struct conv **found,
    struct error *e)
{
	struct conv *cand[2], **ended;
	json_t *m;
	const char *k;
	size_t n, i, j;

	*found = NULL;
	if (store_load_ended(st, 1, 1, e) < 0)
		return -1;
	cand[0] = store_active(st);
	ended = store_ended(st, &n);
	cand[1] = n > 0 ? ended[0] : NULL;
	free(ended);
	for (j = 0; j < 2; j++) {
		if (cand[j] == NULL)
			continue;
		json_array_foreach(json_object_get(conv_json(cand[j]), "messages"),
		    i, m)
			if ((k = json_str(m, "dedupeKey", NULL)) != NULL &&
			    strcmp(k, key) == 0) {
				*found = cand[j];
				return 0;
			}
	}
	return 0;
}

static int
set_ended(struct conv *c, int64_t at, struct error *e)
{
	char ts[TS_LEN];

	ts_format(at, ts);
	json_object_set_new(conv_json(c), "endedAt", json_string(ts));
	return conv_refresh(c, e);
}

int
message_text_check(size_t len, long bad, struct error *e)
{
	if (len == 0)
		return error_set(e, "empty message");
	if (bad >= 0)
		return error_set(e, "message text is not valid UTF-8 at byte %ld", bad);
	return 0;
}

int
tool_names_check(const char *const *tools, size_t n, struct error *e)
{
	return label_list_check("tool name", tools, n, TOOL_MAX_CHARS,
	    TOOL_MAX_COUNT, e);
}

/* what a message must be before anything is looked at */
static int
check_request(const struct add_request *rq, struct error *e)
{
	if (message_text_check(rq->len, rq->len == 0 ? -1 :
	    utf8_invalid_at(rq->text, rq->len), e) < 0)
		return -1;
	if (tool_names_check(rq->tools, rq->ntools, e) < 0)
		return -1;
	if (rq->dedupe_key != NULL && (*rq->dedupe_key == '\0' ||
	    utf8_invalid_at(rq->dedupe_key, strlen(rq->dedupe_key)) >= 0))
		return error_set(e, "dedupe key '%s' is empty or not UTF-8",
		    rq->dedupe_key);
	return 0;
}

/* --expect-conversation: the message would go to rq->expect_conv; checked
 * before anything changes, so a refused message ends nothing */
static enum add_status
check_expected(struct conv *c, const struct add_request *rq,
    const struct add_result *res, struct error *e)
{
	if (c == NULL) {
		error_set(e, "no active conversation; the message would start a "
		    "new one, not go to '%s'", rq->expect_conv);
		return ADD_ELSEWHERE;
	}
	if (strcmp(conv_id(c), rq->expect_conv) != 0) {
		error_set(e, "the active conversation is '%s', not '%s'",
		    conv_id(c), rq->expect_conv);
		return ADD_ELSEWHERE;
	}
	if (res->at - conv_idle_from(c) > rq->idle_timeout) {
		error_set(e, "conversation '%s' has been idle longer than the "
		    "idle timeout; the message would start a new one", conv_id(c));
		return ADD_ELSEWHERE;
	}
	return ADD_DONE;
}

/* the message, as rq says, at res->at, appended to c's messages */
static int
append_message(struct conv *c, const struct add_request *rq,
    const struct add_result *res, struct error *e)
{
	json_t *msgs = json_object_get(conv_json(c), "messages"), *msg, *tools;
	char ts[TS_LEN], *id = message_new_id(msgs, res->at);
	size_t i;

	ts_format(res->at, ts);
	/* check_request() checked the text: jansson need not again (it can
	 * be megabytes, from convctl run) */
	msg = json_pack("{s:s, s:s, s:s, s:o}", "id", id, "timestamp", ts,
	    "role", role_name(rq->role), "content",
	    json_stringn_nocheck(rq->text, rq->len));
	free(id);
	if (rq->ntools > 0) {
		tools = json_array();
		for (i = 0; i < rq->ntools; i++)
			json_array_append_new(tools, json_string(rq->tools[i]));
		json_object_set_new(msg, "toolsUsed", tools);
	}
	if (rq->dedupe_key != NULL)
		json_object_set_new(msg, "dedupeKey", json_string(rq->dedupe_key));
	json_array_append_new(msgs, msg);
	return conv_refresh(c, e);
}

/* add --template: the system message a new conversation opens with */
static int
append_first_system(struct conv *c, const struct add_request *rq,
    const struct add_result *res, struct error *e)
{
	struct add_request sys = { .role = ROLE_SYSTEM,
	    .text = rq->first_system, .len = rq->first_len };

	if (check_request(&sys, e) < 0)
		return -1;
	return append_message(c, &sys, res, e);
}

/* a new active conversation, started at `at' */
static struct conv *
start_conversation(struct store *st, int64_t at, struct error *e)
{
	char ts[TS_LEN], *cid = conv_new_id(st, at, e);
	json_t *obj;

	if (cid == NULL)
		return NULL;
	ts_format(at, ts);
	obj = json_pack("{s:s, s:s, s:n, s:n, s:n, s:[]}", "id", cid,
	    "startedAt", ts, "endedAt", "title", "summary", "messages");
	free(cid);
	return store_append(st, obj, e);
}

enum add_status
conv_add(struct store *st, const struct add_request *rq, struct add_result *res,
    struct error *e)
{
	struct conv *c, *dup = NULL;
	char ts[TS_LEN], last[TS_LEN];
	enum add_status rc;

	memset(res, 0, sizeof(*res));
	if (store_load_active(st, e) < 0)
		return ADD_FAILED;
	c = store_active(st);
	res->at = rq->at;
	res->last = c != NULL ? conv_last_activity(c) : -1;
	if (check_request(rq, e) < 0)
		return ADD_FAILED;
	if (rq->dedupe_key != NULL &&
	    find_dedupe(st, rq->dedupe_key, &dup, e) < 0)
		return ADD_FAILED;
	if (dup != NULL) {
		if (rq->expect_conv != NULL &&
		    strcmp(rq->expect_conv, conv_id(dup)) != 0) {
			error_set(e, "the message with dedupe key '%s' is in "
			    "conversation '%s', not '%s'", rq->dedupe_key,
			    conv_id(dup), rq->expect_conv);
			return ADD_ELSEWHERE;
		}
		res->conv_id = conv_id(dup);
		res->duplicate = 1;
		return ADD_DONE;
	}
	/* a message is never lost to a clock stepped back (NTP, a VM resumed):
	 * it goes at its conversation's last message's time, so the order
	 * holds and a negative gap neither ends nor starts a conversation */
	if (c != NULL && rq->at < res->last) {
		if (!rq->clock) {
			ts_format(rq->at, ts);
			ts_format(res->last, last);
			error_set(e, "time %s is before the last message of '%s' "
			    "(%s)", ts, conv_id(c), last);
			return ADD_BEFORE_LAST;
		}
		res->at = res->last;
	}
	if (rq->expect_conv != NULL &&
	    (rc = check_expected(c, rq, res, e)) != ADD_DONE)
		return rc;
	if (c != NULL && res->at - conv_idle_from(c) > rq->idle_timeout) {
		if (set_ended(c, conv_idle_from(c), e) < 0)
			return ADD_FAILED;
		res->ended_id = conv_id(c);
		c = NULL;
	}
	if (c == NULL) {
		if ((c = start_conversation(st, res->at, e)) == NULL)
			return ADD_FAILED;
		res->started = 1;
		if (rq->first_system != NULL &&
		    append_first_system(c, rq, res, e) < 0)
			return ADD_FAILED;
	}
	if (append_message(c, rq, res, e) < 0)
		return ADD_FAILED;
	res->conv_id = conv_id(c);
	return ADD_DONE;
}

enum end_status
conv_end(struct store *st, int64_t now, int64_t idle_timeout, const char **id,
    struct error *e)
{
	struct conv *c;
	int64_t from;

	if (store_load_active(st, e) < 0)
		return END_FAILED;
	if ((c = store_active(st)) == NULL)
		return END_NOTHING_ACTIVE;
	/* a clock behind the last message must not end it before it was said;
	 * one idle past the timeout ended then, as the next add would say */
	from = conv_idle_from(c);
	if (now < from || now - from > idle_timeout)
		now = from;
	if (set_ended(c, now, e) < 0)
		return END_FAILED;
	*id = conv_id(c);
	return END_DONE;
}

void
strv_free(char **v)
{
	char **p;

	if (v == NULL)
		return;
	for (p = v; *p != NULL; p++)
		free(*p);
	free(v);
}

/* whether the i-th newest ended conversation c stays */
static int
prune_keeps(const struct prune_request *rq, const struct conv *c, size_t i,
    size_t keep)
{
	return i < keep && (rq->older_than < 0 || conv_ended(c) >= rq->older_than);
}

/* what prune never removes, nor counts: the pinned (organize.c) */
static int
prune_exempt(struct conv *c)
{
	return conv_pinned(c);
}

/* v[0..n) less the exempt, in order; the new n */
static size_t
prune_candidates(struct conv **v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!prune_exempt(v[i]))
			v[k++] = v[i];
	return k;
}

int
conv_prune(struct store *st, const struct prune_request *rq, char ***ids,
    size_t *n, struct error *e)
{
	struct conv **ended, **gone;
	size_t nended, i, k = 0, keep, total = 0;
	char **out;

	if (store_load_ended(st, SIZE_MAX, 0, e) < 0)
		return -1;
	ended = store_ended(st, &nended);	/* newest first */
	if (rq->older_than >= 0 || (rq->max >= 0 && nended > (size_t)rq->max))
		nended = prune_candidates(ended, nended);
	out = xmalloc((nended + 1) * sizeof(*out));
	gone = xmalloc((nended + 1) * sizeof(*gone));
	keep = rq->max < 0 || (size_t)rq->max > nended ? nended : (size_t)rq->max;
	for (i = 0; i < nended; i++)
		if (!prune_keeps(rq, ended[i], i, keep))
			total++;
	/* oldest first: walk from the end of the newest-first list */
	for (i = nended; i-- > 0;) {
		if (prune_keeps(rq, ended[i], i, keep))
			continue;
		gone[k] = ended[i];
		out[k++] = xstrdup(conv_id(ended[i]));
		if (rq->progress != NULL)
			rq->progress(rq->progress_arg, k, total);
	}
	out[k] = NULL;
	if (!rq->dry_run)
		store_remove(st, gone, k);
	free(gone);
	free(ended);
	if (ids != NULL)
		*ids = out;
	else
		strv_free(out);
	if (n != NULL)
		*n = k;
	return 0;
}

int
conv_delete(struct store *st, char *const *ids, size_t n, int force,
    int dry_run, char ***out, size_t *nout, struct error *e)
{
	struct conv **victims;
	char **names;
	size_t i, j, k = 0;
	int rc = -1;

	victims = xmalloc((n + 1) * sizeof(*victims));
	names = xmalloc((n + 1) * sizeof(*names));
	names[0] = NULL;
	for (i = 0; i < n; i++) {
		struct conv *c;

		if (store_load_id(st, ids[i], e) < 0)
			goto out;
		if ((c = store_find(st, ids[i])) == NULL) {
			error_set(e, "no conversation '%s' in '%s'", ids[i],
			    store_path(st));
			goto out;
		}
		if (conv_ended(c) < 0 && !force) {
			error_set(e, "conversation '%s' is active; --force "
			    "deletes it", ids[i]);
			goto out;
		}
		for (j = 0; j < k; j++)
			if (victims[j] == c)
				break;
		if (j < k)
			continue;
		victims[k] = c;
		names[k++] = xstrdup(ids[i]);
		names[k] = NULL;
	}
	if (!dry_run)
		store_remove(st, victims, k);
	*out = names;
	*nout = k;
	names = NULL;
	rc = 0;
out:
	strv_free(names);
	free(victims);
	return rc;
}

int
lifecycle_idle_timeout(const struct settings *set, int64_t *ms,
    struct error *e)
{
	long minutes;

	if (settings_long(set, SET_IDLE_TIMEOUT, &minutes, e) < 0)
		return -1;
	*ms = (int64_t)minutes * 60000;
	return 0;
}

int
lifecycle_message_size(const struct settings *set, size_t len,
    const char *what, struct error *e)
{
	long max;

	if (settings_long(set, SET_MAX_MESSAGE_BYTES, &max, e) < 0)
		return -1;
	if (len > (size_t)max)
		return error_set(e, "%s is larger than the limit of %ld bytes "
		    "(the %s setting)", what, max,
		    setting_table[SET_MAX_MESSAGE_BYTES].key);
	return 0;
}

/* transactions */

int
lifecycle_begin(const struct settings *set, enum store_mode mode,
    struct store **st, struct error *e)
{
	return lifecycle_open(set, settings_get(set, SET_STORE), mode, st, e);
}

int
lifecycle_open(const struct settings *set, const char *path,
    enum store_mode mode, struct store **st, struct error *e)
{
	double wait = 0;
	long max;

	/* "" would read as a missing store and then fail to be written */
	if (path == NULL || *path == '\0')
		return error_set(e, "the store path is empty (see -s, "
		    "CONVCTL_STORE)");
	if ((mode == STORE_WRITE &&
	    settings_double(set, SET_WAIT, &wait, e) < 0) ||
	    settings_long(set, SET_MAX_INPUT_BYTES, &max, e) < 0)
		return -1;
	return store_open_max(st, path, mode, wait, (size_t)max, e);
}

/* the rolling limit, max_conversations, applied (or not, dry_run) */
static int
rolling_limit(struct store *st, const struct settings *set, int dry_run,
    struct commit_report *r, struct error *e)
{
	struct prune_request limit = { .older_than = -1, .dry_run = dry_run };
	size_t nended;

	memset(r, 0, sizeof(*r));
	if (settings_long(set, SET_MAX_CONVERSATIONS, &limit.max, e) < 0 ||
	    store_count_ended(st, &nended, e) < 0)
		return -1;
	/* the ended ones are listed only when there are too many */
	if (limit.max >= 0 && nended > (size_t)limit.max) {
		if (conv_prune(st, &limit, &r->pruned, &r->npruned, e) < 0)
			return -1;
	} else {
		r->pruned = xmalloc(sizeof(*r->pruned));
		r->pruned[0] = NULL;
	}
	r->limit = limit.max;
	return 0;
}

int
lifecycle_commit_preview(struct store *st, const struct settings *set,
    struct commit_report *r, struct error *e)
{
	return rolling_limit(st, set, 1, r, e);
}

enum commit_status
lifecycle_commit(struct store *st, const struct settings *set,
    struct commit_report *r, struct error *e)
{
	int rc;

	if (rolling_limit(st, set, 0, r, e) < 0)
		return COMMIT_FAILED;
	if ((rc = store_save(st, e)) < 0)
		return COMMIT_FAILED;
	return rc > 0 ? COMMIT_UNFLUSHED : COMMIT_DONE;
}

void
lifecycle_prune_note(struct buf *b, const struct commit_report *r,
    const struct settings *set)
{
	if (r->npruned == 0)
		return;
	buf_addf(b, "removed %zu oldest ended conversation%s to keep %ld "
	    "(max_conversations, ", r->npruned, r->npruned == 1 ? "" : "s",
	    r->limit);
	settings_origin(b, set, SET_MAX_CONVERSATIONS);
	buf_adds(b, "; see convctl-prune(1))");
}

enum commit_status
lifecycle_commit_said(struct store *st, const struct settings *set,
    void (*say)(void *arg, const char *line), void *arg, struct error *e)
{
	struct commit_report r;
	struct buf line = { 0 };
	enum commit_status rc;

	if ((rc = lifecycle_commit(st, set, &r, e)) == COMMIT_FAILED) {
		strv_free(r.pruned);
		return rc;
	}
	if (rc == COMMIT_UNFLUSHED) {
		buf_addf(&line, "warning: %s", e->msg);
		say(arg, line.data);
		line.len = 0;
	}
	lifecycle_prune_note(&line, &r, set);
	if (line.len > 0)
		say(arg, line.data);
	buf_free(&line);
	strv_free(r.pruned);
	return rc;
}

int
conv_default(struct store *st, int ended_too, struct conv **c,
    struct error *e)
{
	struct conv **ended;
	size_t n;

	*c = NULL;
	if (store_load_active(st, e) < 0)
		return -1;
	if ((*c = store_active(st)) != NULL || !ended_too)
		return 0;
	if (store_load_ended(st, 1, 1, e) < 0)
		return -1;
	ended = store_ended(st, &n);
	*c = n > 0 ? ended[0] : NULL;
	free(ended);
	return 0;
}

int
conv_recent(struct store *st, size_t limit, const char *tag,
    struct conv ***out, size_t *n, struct error *e)
{
	struct conv **v;
	size_t i, k;

	/* with a tag, the newest limit are among all those it keeps */
	if (store_load_ended(st, tag != NULL ? SIZE_MAX : limit, 0, e) < 0)
		return -1;
	v = store_ended(st, n);
	if (tag != NULL) {
		for (i = k = 0; i < *n; i++)
			if (conv_has_tag(v[i], tag))
				v[k++] = v[i];
		*n = k;
	}
	if (*n > limit)
		*n = limit;
	*out = v;
	return 0;
}
