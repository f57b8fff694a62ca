/*
 * summary.c - titles and summaries of ended conversations: what a job and a
 * result are, which summarizer makes one, how it is stored, and the text
 * helpers the summarizers share.
 *
 * A summary is made from a copy of the conversation (a job) while the store
 * is closed, so no lock is held during a request; the result is stored only
 * if the conversation is still there and exactly as it was copied. What a
 * model's reply lacks comes from the offline summarizer. This file knows no
 * prompt wording or reply format (model.c), no offline sentence
 * (offline.c), no setting (setup.c) and no HTTP (llm.c).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

/* jobs */

struct summary_job *
summary_job_new(struct conv *c)
{
	struct summary_job *j = xmalloc(sizeof(*j));

	j->id = xstrdup(conv_id(c));
	j->conv = json_clone(conv_json(c));
	j->keep_title = conv_title_by_hand(c);
	return j;
}

const char *
summary_job_id(const struct summary_job *j)
{
	return j->id;
}

void
summary_job_keep_title(struct summary_job *j, int keep)
{
	j->keep_title = keep;
}

void
summary_job_free(struct summary_job *j)
{
	if (j == NULL)
		return;
	json_decref(j->conv);
	free(j->id);
	free(j);
}

void
summary_result_free(struct summary_result *r)
{
	free(r->title);
	free(r->summary);
	memset(r, 0, sizeof(*r));
}

/* making and storing */

/* a title set by hand is the result's, what the model said or not */
static void
keep_hand_title(const struct summary_job *j, struct summary_result *r)
{
	const char *t = json_str(j->conv, "title", NULL);

	if (!j->keep_title || t == NULL)
		return;
	free(r->title);
	r->title = xstrdup(t);
	r->offline_title = 0;
}

int
summary_make(const struct summary_config *cf, const struct summary_job *j,
    struct summary_result *r, struct error *e)
{
	struct summary_result off;
	char *prompt = NULL, *reply = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	summary_offline(j, &off);
	keep_hand_title(j, &off);
	/* nothing to send for a conversation without messages */
	if (cf->kind == SUMMARY_OFFLINE ||
	    json_array_size(json_object_get(j->conv, "messages")) == 0) {
		*r = off;
		return 0;
	}
	if (cf->kind == SUMMARY_NONE) {
		error_set(e, "summaries are turned off (summarizer none)");
		goto out;
	}
	prompt = summary_prompt(j, cf->context_chars);
	if (llm_chat(&cf->llm, summary_instructions, prompt, &reply, e) < 0)
		goto out;
	if (summary_blank(reply)) {
		error_set(e, "the model '%s' gave an empty reply", cf->llm.model);
		goto out;
	}
	summary_parse_reply(reply, &r->title, &r->summary);
	keep_hand_title(j, r);
	if (r->title == NULL) {
		r->title = off.title;
		off.title = NULL;
		r->offline_title = 1;
	}
	if (r->summary == NULL) {
		r->summary = off.summary;
		off.summary = NULL;
		r->offline_summary = 1;
	}
	rc = 0;
out:
	summary_result_free(&off);
	free(prompt);
	free(reply);
	return rc;
}

enum summary_stored
summary_store(struct store *st, const struct summary_job *j,
    const struct summary_result *r, struct error *e)
{
	struct conv *c;
	json_t *obj;

	if (store_load_id(st, j->id, e) < 0)
		return SUMMARY_STORE_FAILED;
	if ((c = store_find(st, j->id)) == NULL)
		return SUMMARY_STORE_GONE;
	obj = conv_json(c);
	if (!json_same(obj, j->conv))
		return SUMMARY_STORE_CHANGED;
	if (!j->keep_title)
		json_object_set_new(obj, "title", json_string(r->title));
	json_object_set_new(obj, "summary", json_string(r->summary));
	conv_mark_summarized(obj, !j->keep_title);
	if (conv_refresh(c, e) < 0)
		return SUMMARY_STORE_FAILED;
	return SUMMARY_STORED;
}
