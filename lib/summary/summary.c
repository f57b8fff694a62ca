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

/* in the order a list of them is written: "openai, anthropic, offline or none" */
const struct name_table summary_kinds[] = {
	{ "openai", SUMMARY_OPENAI }, { "anthropic", SUMMARY_ANTHROPIC },
	{ "offline", SUMMARY_OFFLINE }, { "none", SUMMARY_NONE }, { NULL, 0 },
};

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

/* text helpers */

/* s[0..len) on one line: control characters (NUL too) and runs of white
 * space become one space; no space at either end */
void
summary_flatten(struct buf *out, const char *s, size_t len)
{
	size_t i;
	int space = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c == 0x7f) {
			space = 1;
			continue;
		}
		if (space && out->len > 0 && out->data[out->len - 1] != ' ')
			buf_addc(out, ' ');
		space = 0;
		buf_addc(out, (char)c);
	}
}

/* byte offset of code point n of s, or len */
size_t
summary_cp_offset(const char *s, size_t len, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n-- == 0)
			return i;
	return len;
}

/* cuts b to at most max code points, on a word boundary when one is near,
 * and marks the cut with an ellipsis */
void
summary_shorten(struct buf *b, size_t max)
{
	size_t at, sp;

	if (utf8_count(b->data, b->len) <= max)
		return;
	at = summary_cp_offset(b->data, b->len, max - 1);
	for (sp = at; sp > at / 2 && b->data[sp] != ' '; sp--)
		;
	if (sp > at / 2)
		at = sp;
	while (at > 0 && strchr(" ,;:", b->data[at - 1]) != NULL)
		at--;
	b->len = at;
	b->data[at] = '\0';
	buf_adds(b, "\xe2\x80\xa6");	/* … */
}

/* 1: s is empty or white space only */
int
summary_blank(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
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
