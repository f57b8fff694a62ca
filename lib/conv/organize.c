/*
 * organize.c - what a person does to any conversation, active or ended:
 * title it by hand, resume, edit or fork it, tag and pin it; and the marks
 * these leave that the lifecycle and the summarizers read (convctl(5)).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

/* the marks, as convctl(5) documents them */
#define F_HAND_TITLE	"titleByHand"	/* true: given (`title`, an import), kept */
#define F_STALE		"summaryStale"	/* true: changed since summarized */
#define F_RESUMED	"resumedAt"	/* when `resume` reopened it */
#define F_FORKED	"forkedFrom"	/* the conversation it was copied from */

int
conv_title_by_hand(struct conv *c)
{
	return conv_mark(c, F_HAND_TITLE, "\"" F_HAND_TITLE "\"");
}

int
conv_summary_stale(struct conv *c)
{
	return conv_mark(c, F_STALE, "\"" F_STALE "\"");
}

int64_t
conv_idle_from(struct conv *c)
{
	int64_t from = conv_last_activity(c), t;
	const char *s;

	if (conv_started(c) > from)
		from = conv_started(c);	/* a fork: its copied messages are older */
	if (conv_may_hold(c, "\"" F_RESUMED "\"") &&
	    (s = json_str(conv_head(c), F_RESUMED, NULL)) != NULL &&
	    ts_parse(s, &t) == 0 && t > from)
		from = t;
	return from;
}

void
conv_mark_summarized(json_t *obj, int title_too)
{
	json_object_del(obj, F_STALE);
	if (title_too)
		json_object_del(obj, F_HAND_TITLE);
}

/* changed by hand: a summary there is no longer of what is there */
static void
mark_stale(struct conv *c)
{
	if (conv_summary(c) != NULL || conv_title(c) != NULL)
		json_object_set_new(conv_json(c), F_STALE, json_true());
}

static int
check_text(const char *what, const char *s, size_t len, struct error *e)
{
	long bad;

	if (len == 0)
		return error_set(e, "empty %s", what);
	if ((bad = utf8_invalid_at(s, len)) >= 0)
		return error_set(e, "%s is not valid UTF-8 at byte %ld", what, bad);
	return 0;
}

void
conv_mark_title_given(json_t *obj)
{
	json_object_set_new(obj, F_HAND_TITLE, json_true());
}

int
conv_set_title(struct conv *c, const char *title, struct error *e)
{
	json_t *obj = conv_json(c);

	if (check_text("title", title, strlen(title), e) < 0 ||
	    label_check("title", title, TITLE_MAX_CHARS, e) < 0)
		return -1;
	json_object_set_new(obj, "title", json_string(title));
	conv_mark_title_given(obj);
	json_object_del(obj, F_TITLE_MARK);	/* the user's, not the source's */
	return conv_refresh(c, e);
}

int
conv_resume(struct store *st, struct conv *c, int64_t now, struct error *e)
{
	char ts[TS_LEN];
	json_t *obj;

	if (conv_ended(c) < 0)
		return error_set(e, "conversation '%s' is already active",
		    conv_id(c));
	if (store_load_active(st, e) < 0)
		return -1;
	if (store_active(st) != NULL)
		return error_set(e, "conversation '%s' is active; end it first",
		    conv_id(store_active(st)));
	obj = conv_json(c);
	ts_format(now, ts);
	json_object_set_new(obj, "endedAt", json_null());
	json_object_set_new(obj, F_RESUMED, json_string(ts));
	mark_stale(c);
	return conv_refresh(c, e);
}

/* a position as written: digits, or "-" and digits; never "+1", nor "1.0" */
static int
is_position(const char *s)
{
	if (*s == '-')
		s++;
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/*
 * An id that is there wins; else a position. Every position that names no
 * message (0, past either end, too long for a number) is said one way,
 * with the range there is; anything else is an id that is not there.
 */
long
conv_message_find(struct conv *c, const char *ref, struct error *e)
{
	json_t *msgs = json_object_get(conv_json(c), "messages"), *m;
	size_t i, n = json_array_size(msgs), same = 0;
	const char *id;
	char *end;
	long p, at = -1;

	json_array_foreach(msgs, i, m)
		if ((id = json_str(m, "id", NULL)) != NULL &&
		    strcmp(id, ref) == 0 && same++ == 0)
			at = (long)i;
	/* a store of an older version may hold an id twice: never guess */
	if (same > 1) {
		error_set(e, "message id '%s' names %zu messages in conversation "
		    "'%s'; give the position instead", ref, same, conv_id(c));
		return -1;
	}
	if (at >= 0)
		return at;
	if (!is_position(ref)) {
		error_set(e, "no message '%s' in conversation '%s': no message "
		    "has that id, and a position is 1 the first, -1 the newest",
		    ref, conv_id(c));
		return -1;
	}
	errno = 0;
	p = strtol(ref, &end, 10);
	if (errno != 0 || p == 0 || (p > 0 && (size_t)p > n) ||
	    (p < 0 && (size_t)-(p + 1) >= n)) {
		if (n == 0)
			error_set(e, "no message at position %s in conversation "
			    "'%s': it has none", ref, conv_id(c));
		else
			error_set(e, "no message at position %s in conversation "
			    "'%s': it has %zu, 1 to %zu or -1 to -%zu", ref,
			    conv_id(c), n, n, n);
		return -1;
	}
	return p > 0 ? p - 1 : (long)n + p;
}

int
conv_edit(struct conv *c, long i, const char *text, size_t len,
    struct error *e)
{
	json_t *msgs = json_object_get(conv_json(c), "messages");

	if (text == NULL) {
		json_array_remove(msgs, (size_t)i);
	} else {
		if (check_text("message", text, len, e) < 0)
			return -1;
		json_object_set_new(json_array_get(msgs, (size_t)i), "content",
		    json_stringn(text, len));
	}
	mark_stale(c);
	return conv_refresh(c, e);
}

struct conv *
conv_fork(struct store *st, struct conv *src, long upto, int64_t now,
    struct error *e)
{
	json_t *from = json_object_get(conv_json(src), "messages"), *msgs, *m;
	json_t *obj;
	char ts[TS_LEN], *id;
	int64_t at;
	size_t i;

	if (store_load_active(st, e) < 0)
		return NULL;
	if (store_active(st) != NULL) {
		error_set(e, "conversation '%s' is active; end it first",
		    conv_id(store_active(st)));
		return NULL;
	}
	msgs = json_array();
	for (i = 0; (long)i <= upto && i < json_array_size(from); i++) {
		m = json_clone(json_array_get(from, i));
		if (ts_parse(json_str(m, "timestamp", NULL), &at) < 0)
			at = now;	/* the shape was checked: not reached */
		id = message_new_id(msgs, at);
		json_object_set_new(m, "id", json_string(id));
		free(id);
		json_array_append_new(msgs, m);
	}
	ts_format(now, ts);
	if ((id = conv_new_id(st, now, e)) == NULL) {
		json_decref(msgs);
		return NULL;
	}
	obj = json_pack("{s:s, s:s, s:n, s:n, s:n, s:s, s:o}", "id", id,
	    "startedAt", ts, "endedAt", "title", "summary", F_FORKED,
	    conv_id(src), "messages", msgs);
	free(id);
	return store_append(st, obj, e);
}

int
tags_check(char *const *tags, size_t n, struct error *e)
{
	size_t i;

	if (label_count_check("tag", n, TAGS_MAX, e) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (label_check("tag", tags[i], TAG_MAX_CHARS, e) < 0)
			return -1;
	return 0;
}

/* tags[0..n) as the store keeps them: tags_check()'s, and not empty, UTF-8
 * (the rule tool names share) */
static int
check_tags(char *const *tags, size_t n, struct error *e)
{
	return label_list_check("tag", (const char *const *)tags, n,
	    TAG_MAX_CHARS, TAGS_MAX, e);
}

/* each given tag takes away the first of its copies in t not taken yet:
 * one pass over t, the given ones counted in a hash table (set) */
static void
tags_remove(json_t *obj, json_t *t, json_t *set, char *const *tags,
    size_t n, int *changed)
{
	json_t *kept = json_array(), *v, *left;
	size_t i;

	for (i = 0; i < n; i++) {
		left = json_object_get(set, tags[i]);
		json_object_set_new_nocheck(set, tags[i], json_integer(left ?
		    json_integer_value(left) + 1 : 1));
	}
	json_array_foreach(t, i, v) {
		if (json_is_text(v) && (left = json_object_get(set,
		    json_string_value(v))) != NULL &&
		    json_integer_value(left) > 0) {
			json_integer_set(left, json_integer_value(left) - 1);
			*changed = 1;
			continue;
		}
		json_array_append(kept, v);
	}
	if (*changed)
		json_object_set(obj, F_TAGS, kept);
	json_decref(kept);
}

int
conv_tag(struct conv *c, char *const *tags, size_t n, int remove,
    int *changed, struct error *e)
{
	json_t *obj = conv_json(c), *t = json_object_get(obj, F_TAGS), *v;
	json_t *set = NULL, *add = NULL;
	size_t i;
	int rc = -1;

	*changed = 0;
	if (check_tags(tags, n, e) < 0)
		return -1;
	if (t != NULL && !json_is_array(t))
		return error_set(e, "conversation '%s': its tags are not an array; "
		    "left as they are", conv_id(c));
	if (t == NULL && remove)
		return 0;
	set = json_object();
	if (remove) {
		tags_remove(obj, t, set, tags, n, changed);
		rc = 0;
		goto out;
	}
	/* those it has, then each given one not among them, once */
	add = json_array();
	json_array_foreach(t, i, v)
		if (json_is_text(v))
			json_object_set_nocheck(set, json_string_value(v),
			    json_true());
	for (i = 0; i < n; i++)
		if (json_object_get(set, tags[i]) == NULL) {
			json_object_set_nocheck(set, tags[i], json_true());
			json_array_append_new(add, json_string(tags[i]));
		}
	if (json_array_size(add) > 0 &&
	    json_array_size(t) + json_array_size(add) > TAGS_MAX) {
		error_set(e, "conversation '%s' would have %zu tags; at most %d "
		    "are kept on one", conv_id(c), json_array_size(t) +
		    json_array_size(add), TAGS_MAX);
		goto out;
	}
	if (json_array_size(add) > 0) {
		if (t == NULL) {
			t = json_array();
			json_object_set_new(obj, F_TAGS, t);
		}
		json_array_extend(t, add);
		*changed = 1;
	}
	rc = 0;
out:
	json_decref(set);
	json_decref(add);
	return rc;
}

int
conv_pin(struct conv *c, int on, int *changed)
{
	json_t *obj = conv_json(c);

	*changed = conv_pinned(c) != on;
	if (on)
		json_object_set_new(obj, F_PINNED, json_true());
	else
		json_object_del(obj, F_PINNED);
	return 0;
}
