/*
 * organize.c - what a person sets on a conversation, for `convctl title`,
 * `convctl tag` and their MCP tools: the text checked before the store is
 * opened, the store opened (to write, unless dry_run), the change
 * (lib/conv/organize.c), then the commit with the rolling limit, whose
 * removals are said through the request's say.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "ops.h"

/* the store the settings name, for the operation's write (or dry_run's
 * read); NULL with *status set */
static struct store *
open_for(const struct settings *set, int dry_run, struct error *e,
    enum ops_status *status)
{
	struct store *st = NULL;
	int rc;

	if ((rc = lifecycle_begin(set, dry_run ? STORE_READ : STORE_WRITE, &st,
	    e)) < 0) {
		*status = rc == -2 ? OPS_BAD_STORE : OPS_FAILED;
		return NULL;
	}
	return st;
}

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
	if ((st = open_for(rq->settings, rq->dry_run, &res->error,
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
	if ((st = open_for(rq->settings, rq->dry_run, &res->error,
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
