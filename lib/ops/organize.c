/*
 * organize.c - what a person sets on a conversation, for `convctl title`,
 * `convctl tag` (and their MCP tools), `convctl edit` and `convctl pin`:
 * the text checked before the store is opened, the store opened (to write,
 * unless dry_run), the change (lib/conv/organize.c), then the commit with
 * the rolling limit, whose removals are said through the request's say.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

enum ops_status
ops_title(const struct ops_title_request *rq, struct ops_title_result *res)
{
	struct store *st;
	struct conv *c;

	memset(res, 0, sizeof(*res));
	/* a typo, found before the store is opened */
	if (label_check("title", rq->title, TITLE_MAX_CHARS, &res->error) < 0) {
		res->arg = "title";
		return res->status = OPS_BAD_ARG;
	}
	if ((st = ops_open(rq->settings, rq->dry_run, &res->error,
	    &res->status)) == NULL)
		return res->status;
	res->status = OPS_FAILED;
	if ((c = store_get(st, rq->id, &res->error)) == NULL)
		;	/* said */
	else if (conv_set_title(c, rq->title, &res->error) < 0)
		res->arg = "title";
	else if (rq->dry_run || lifecycle_commit_said(st, rq->settings,
	    rq->say, rq->say_arg, &res->error) != COMMIT_FAILED)
		res->status = OPS_DONE;
	store_close(st);
	return res->status;
}

/* the tags c has, copied out */
static void
tags_of(struct conv *c, struct ops_tag_result *res)
{
	json_t *t = conv_tags(c), *v;
	size_t i;

	res->tags = xmalloc((json_array_size(t) + 1) * sizeof(char *));
	json_array_foreach(t, i, v)
		if (json_is_text(v))
			res->tags[res->ntags++] = xstrdup(json_string_value(v));
	res->tags[res->ntags] = NULL;
}

enum ops_status
ops_tag(const struct ops_tag_request *rq, struct ops_tag_result *res)
{
	struct store *st;
	struct conv *c;
	int changed;

	memset(res, 0, sizeof(*res));
	/* a typo, found before the store is opened */
	if (tags_check(rq->tags, rq->ntags, &res->error) < 0) {
		res->arg = "tags";
		return res->status = OPS_BAD_ARG;
	}
	if ((st = ops_open(rq->settings, rq->dry_run, &res->error,
	    &res->status)) == NULL)
		return res->status;
	res->status = OPS_FAILED;
	if ((c = store_get(st, rq->id, &res->error)) == NULL)
		;	/* said */
	else if (conv_tag(c, rq->tags, rq->ntags, rq->remove, &changed,
	    &res->error) < 0)
		res->arg = "tags";
	else if (rq->dry_run || !changed || lifecycle_commit_said(st,
	    rq->settings, rq->say, rq->say_arg, &res->error) != COMMIT_FAILED) {
		tags_of(c, res);
		res->status = OPS_DONE;
	}
	store_close(st);
	return res->status;
}

void
ops_tag_result_free(struct ops_tag_result *res)
{
	strv_free(res->tags);
	res->tags = NULL;
	res->ntags = 0;
}

enum ops_status
ops_edit(const struct ops_edit_request *rq, struct ops_edit_result *res)
{
	struct store *st;
	struct conv *c;
	long i;

	memset(res, 0, sizeof(*res));
	if (rq->text != NULL && lifecycle_message_size(rq->settings, rq->len,
	    rq->text_name, &res->error) < 0)
		return res->status = OPS_FAILED;
	if ((st = ops_open(rq->settings, rq->dry_run, &res->error,
	    &res->status)) == NULL)
		return res->status;
	res->status = OPS_FAILED;
	if ((c = store_get(st, rq->id, &res->error)) == NULL ||
	    (i = conv_message_find(c, rq->message, &res->error)) < 0 ||
	    conv_edit(c, i, rq->text, rq->len, &res->error) < 0)
		;	/* said */
	else if (rq->dry_run || lifecycle_commit_said(st, rq->settings,
	    rq->say, rq->say_arg, &res->error) != COMMIT_FAILED)
		res->status = OPS_DONE;
	store_close(st);
	return res->status;
}

enum ops_status
ops_pin(const struct ops_pin_request *rq, struct ops_pin_result *res)
{
	struct store *st;
	size_t i;
	int changed, any = 0;

	memset(res, 0, sizeof(*res));
	if ((st = ops_open(rq->settings, rq->dry_run, &res->error,
	    &res->status)) == NULL)
		return res->status;
	res->status = OPS_FAILED;
	/* every id checked first: one unknown pins none */
	for (i = 0; i < rq->nids; i++)
		if (store_get(st, rq->ids[i], &res->error) == NULL)
			goto out;
	for (i = 0; i < rq->nids; i++) {
		conv_pin(store_find(st, rq->ids[i]), !rq->remove, &changed);
		any |= changed;
	}
	if (rq->dry_run || !any || lifecycle_commit_said(st, rq->settings,
	    rq->say, rq->say_arg, &res->error) != COMMIT_FAILED)
		res->status = OPS_DONE;
out:
	store_close(st);
	return res->status;
}
