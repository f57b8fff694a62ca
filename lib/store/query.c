/*
 * query.c - a search's description (query.h): its filters, which every
 * executor applies through these, and the spellings of its text that the
 * SQL of the database engines looks for.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/lex.h"	/* lex_json() */
#include "query.h"
#include "shape.h"	/* F_TAGS */

void
query_clear(struct query *q)
{
	free(q->lit);
	free(q->fold);
	free(q->fold_of);
	q->lit = NULL;
	q->fold = NULL;
	q->fold_of = NULL;
	q->litlen = q->nfold = 0;
}

int
query_takes(const struct query *q, enum conv_role role, int64_t t)
{
	return (q->role < 0 || (int)role == q->role) &&
	    (q->since < 0 || t >= q->since) && (q->until < 0 || t < q->until);
}

int
query_names(json_t *arr, const char *s)
{
	json_t *t;
	size_t i;

	json_array_foreach(arr, i, t)
		if (json_is_text(t) && strcmp(json_string_value(t), s) == 0)
			return 1;
	return 0;
}

/* store.h's: a conversation's tags, parsed or read, name tag */
int
conv_has_tag(struct conv *c, const char *tag)
{
	return query_names(conv_tags(c), tag);
}

int
query_takes_tools(const struct query *q, json_t *tools)
{
	return q->tool == NULL || query_names(tools, q->tool);
}

/* the tags are looked for only where the text "tags" is, as conv_tags()
 * does */
int
query_tagged(const struct query *q, const char *doc, size_t len)
{
	static const char key[] = "\"" F_TAGS "\"";
	json_t *o, *t;
	int yes;

	if (q->tag == NULL)
		return 1;
	if (memmem(doc, len, key, sizeof(key) - 1) == NULL)
		return 0;
	o = lex_json(doc, len);
	t = json_object_get(o, F_TAGS);
	yes = json_is_array(t) && query_names(t, q->tag);
	json_decref(o);
	return yes;
}

int
query_json_msg(const struct query *q, json_t *m, const char *conv_id,
    int64_t pos, size_t seq, struct query_msg *out, struct error *e)
{
	enum conv_role role;
	int64_t t;

	if (role_parse(json_str(m, "role", NULL), &role) < 0 ||
	    (q->role >= 0 && (int)role != q->role))
		return 0;
	if (!query_takes_tools(q, json_object_get(m, "toolsUsed")))
		return 0;
	if (ts_parse(json_str(m, "timestamp", NULL), &t) < 0)
		return error_set(e, "conversation '%s': message %zu: bad "
		    "timestamp", conv_id, seq);
	if (!query_takes(q, role, t))
		return 0;
	out->conv_id = conv_id;
	out->pos = pos;
	out->seq = seq;
	out->id = json_str(m, "id", NULL);
	out->idlen = out->id != NULL ? strlen(out->id) : 0;
	out->time = t;
	out->role = role;
	out->text = json_str(m, "content", &out->len);
	return 1;
}

size_t
query_spell(const struct query *q, size_t i, size_t k, char out[8])
{
	struct buf one = { 0 };
	char c = q->lit[i];
	size_t j, n;

	out[0] = '\0';
	if (k == 0) {
		json_escape(&one, &c, 1);
		n = one.len < 8 ? one.len : 7;
		memcpy(out, one.data, n);
		out[n] = '\0';
		buf_free(&one);
		return n;
	}
	if (!q->icase)
		return 0;
	for (j = 0; j < q->nfold; j++)
		if (q->fold_of[j] == c && --k == 0) {
			n = strlen(q->fold[j]);
			memcpy(out, q->fold[j], n + 1);
			return n;
		}
	return 0;
}
