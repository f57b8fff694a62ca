/*
 * source.c - a source's conversations, as readers hand them to the run: each
 * made ready (its message ids made unique, its tool names tidied, cut at
 * long gaps with --split: mig_add()) and kept in s->convs, an object or
 * packed as its text (mig_pack()), and read back through mig_conv() and the
 * like. It knows no format, and nothing of the store, the imports ledger or
 * the report.
 */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

static void
push(struct mig_source *s, json_t *c, int own)
{
	s->messages += json_array_size(json_object_get(c, "messages"));
	json_array_append_new(s->convs, c);
	json_array_append_new(s->own, json_boolean(own));
}

void
mig_conv_hash(json_t *conv, char out[SHA256_HEX_LEN])
{
	struct buf b = { 0 };

	json_dump_buf(&b, json_object_get(conv, "messages"));
	sha256_hex(b.data ? b.data : "", b.len, out);
	buf_free(&b);
}

/* a packed conversation: [text, id, messages, active, hash, summary] */
enum { PACK_TEXT, PACK_ID, PACK_MESSAGES, PACK_ACTIVE, PACK_HASH,
    PACK_SUMMARY };

static int
active(json_t *c)
{
	json_t *end = json_object_get(c, "endedAt");

	return end == NULL || json_is_null(end);
}

/* c (taken) as text, its hash h */
static json_t *
packed(json_t *c, const char *h)
{
	struct buf b = { 0 };
	json_t *p;

	json_dump_buf(&b, c);
	/* json_dump_buf() writes valid UTF-8 */
	p = json_pack("[o, O, I, b, s, b]", json_stringn_nocheck(b.data ?
	    b.data : "", b.len), json_object_get(c, "id"),
	    (json_int_t)json_array_size(json_object_get(c, "messages")),
	    active(c), h, json_is_string(json_object_get(c, "summary")));
	buf_free(&b);
	json_decref(c);
	return p;
}

void
mig_pack(struct mig_source *s, size_t i, const char *hash)
{
	json_t *c = json_array_get(s->convs, i);

	if (json_is_object(c))
		json_array_set_new(s->convs, i, packed(json_incref(c), hash));
}

int
mig_conv_packed(const struct mig_source *s, size_t i)
{
	return json_is_array(json_array_get(s->convs, i));
}

json_t *
mig_conv(const struct mig_source *s, size_t i)
{
	json_t *c = json_array_get(s->convs, i), *text;

	if (!json_is_array(c))
		return json_incref(c);
	text = json_array_get(c, PACK_TEXT);
	/* json_dump_buf()'s text: it parses, or this is a bug */
	if ((c = json_loadb(json_string_value(text), json_string_length(text),
	    JSON_LOAD_FLAGS, NULL)) == NULL)
		abort();
	return c;
}

void
mig_conv_put(struct mig_source *s, size_t i, json_t *c)
{
	json_t *p = json_array_get(s->convs, i);

	json_array_set_new(s->convs, i, json_is_array(p) ? packed(c,
	    json_string_value(json_array_get(p, PACK_HASH))) : c);
}

char *
mig_conv_give(struct mig_source *s, size_t i, size_t *len)
{
	json_t *p = json_array_get(s->convs, i),
	    *text = json_array_get(p, PACK_TEXT);
	char *t;

	*len = json_string_length(text);
	t = xmalloc(*len + 1);
	memcpy(t, json_string_value(text), *len + 1);
	json_array_set_new(p, PACK_TEXT, json_null());
	return t;
}

const char *
mig_conv_id(const struct mig_source *s, size_t i)
{
	json_t *c = json_array_get(s->convs, i);

	return json_is_array(c) ? json_string_value(json_array_get(c, PACK_ID)) :
	    json_str(c, "id", NULL);
}

size_t
mig_conv_messages(const struct mig_source *s, size_t i)
{
	json_t *c = json_array_get(s->convs, i);

	return json_is_array(c) ? (size_t)json_integer_value(json_array_get(c,
	    PACK_MESSAGES)) : json_array_size(json_object_get(c, "messages"));
}

int
mig_conv_active(const struct mig_source *s, size_t i)
{
	json_t *c = json_array_get(s->convs, i);

	return json_is_array(c) ? json_is_true(json_array_get(c, PACK_ACTIVE)) :
	    active(c);
}

int
mig_conv_summary(const struct mig_source *s, size_t i)
{
	json_t *c = json_array_get(s->convs, i);

	return json_is_array(c) ? json_is_true(json_array_get(c,
	    PACK_SUMMARY)) : json_is_string(json_object_get(c, "summary"));
}

void
mig_conv_hash_at(const struct mig_source *s, size_t i,
    char out[SHA256_HEX_LEN])
{
	json_t *c = json_array_get(s->convs, i);

	if (json_is_array(c))
		memcpy(out, json_string_value(json_array_get(c, PACK_HASH)),
		    SHA256_HEX_LEN);
	else
		mig_conv_hash(c, out);
}

/*
 * a message id the source gives twice (ChatGPT's message.id, Claude's uuid,
 * a provider's reused item id): the later ones ID-2, ID-3…, the next not
 * taken in the conversation, and said so; an id names one message
 */
static void
unique_ids(struct mig_reader *r, json_t *c)
{
	json_t *msgs = json_object_get(c, "messages"), *seen = json_object(), *m;
	struct buf fresh = { 0 };
	const char *id;
	size_t i, n;

	json_array_foreach(msgs, i, m)
		if ((id = json_str(m, "id", NULL)) != NULL)
			json_object_set_new(seen, id, json_integer(0));
	json_array_foreach(msgs, i, m) {
		if ((id = json_str(m, "id", NULL)) == NULL)
			continue;
		/* the first with an id keeps it */
		if (json_integer_value(json_object_get(seen, id)) == 0) {
			json_object_set_new(seen, id, json_integer(1));
			continue;
		}
		n = 2;
		do {
			fresh.len = 0;
			buf_addf(&fresh, "%s-%zu", id, n++);
		} while (json_object_get(seen, fresh.data) != NULL);
		mig_note(r, "'%s': conversation '%s': message id '%s' is there "
		    "more than once; message %zu is '%s'", r->src->file,
		    json_str(c, "id", NULL), id, i + 1, fresh.data);
		json_object_set_new(seen, fresh.data, json_integer(1));
		json_object_set_new(m, "id", json_string(fresh.data));
	}
	json_decref(seen);
	buf_free(&fresh);
}

/*
 * Tool names by the rule add keeps (tool_names_check), said per message:
 * a name that is not one printable line of at most TOOL_MAX_CHARS is kept
 * escaped and cut (label_tidy), an empty one and those past TOOL_MAX_COUNT
 * are left out. Tidied, not refused: a source's names are not the user's
 * typing, and the rest of the history is worth having. A name no text
 * output can show raw, and none that forges a line of a prompt.
 */
static void
tidy_tools(struct mig_reader *r, json_t *c)
{
	json_t *msgs = json_object_get(c, "messages"), *m, *tools, *t, *kept;
	struct error e;
	const char *name;
	size_t i, j, len, dropped, tidied;
	char *tidy;

	json_array_foreach(msgs, i, m) {
		tools = json_object_get(m, "toolsUsed");
		/* fine as it is, or no array of strings: the shape's to say */
		if (!json_is_array(tools) || json_array_size(tools) == 0)
			continue;
		json_array_foreach(tools, j, t)
			if (!json_is_string(t))
				break;
		if (j < json_array_size(tools))
			continue;
		kept = json_array();
		dropped = tidied = 0;
		json_array_foreach(tools, j, t) {
			name = json_string_value(t);
			len = json_string_length(t);
			if (json_array_size(kept) == TOOL_MAX_COUNT || len == 0) {
				dropped++;
				continue;
			}
			if (strlen(name) == len && label_check("tool name", name,
			    TOOL_MAX_CHARS, &e) == 0) {
				json_array_append(kept, t);
				continue;
			}
			if (strlen(name) != len)
				error_set(&e, "tool name has a NUL byte");
			tidy = label_tidy(name, len, TOOL_MAX_CHARS);
			mig_note(r, "'%s': conversation '%s': message %zu: %s; "
			    "kept as '%s'", r->src->file, json_str(c, "id", NULL),
			    i + 1, e.msg, tidy);
			json_array_append_new(kept, json_string(tidy));
			free(tidy);
			tidied++;
		}
		if (dropped > 0)
			mig_note(r, "'%s': conversation '%s': message %zu: %zu "
			    "tool %s left out (empty, or past the %d a message "
			    "keeps)", r->src->file, json_str(c, "id", NULL), i + 1,
			    dropped, dropped == 1 ? "name" : "names", TOOL_MAX_COUNT);
		if (dropped > 0 || tidied > 0)
			json_object_set_new(m, "toolsUsed", kept);
		else
			json_decref(kept);
	}
}

/*
 * --split: a conversation cut where its messages are further apart than the
 * idle timeout. The first piece keeps the id and every field; the others are
 * ID-2, ID-3… with their own times and "splitFrom" naming the first.
 */
void
mig_add(struct mig_reader *r, json_t *c, int own, int splittable)
{
	json_t *msgs = json_object_get(c, "messages"), *piece, *part, *first;
	char ts[TS_LEN];
	struct buf id = { 0 };
	size_t i, start = 0, n = json_array_size(msgs), k = 1;

	unique_ids(r, c);
	tidy_tools(r, c);
	if (!r->rq->split || !splittable || n < 2) {
		push(r->src, c, own);
		return;
	}
	first = json_copy(c);
	part = json_array();
	for (i = 0; i <= n; i++) {
		if (i < n && (i == 0 || mig_time(json_array_get(msgs, i)) -
		    mig_time(json_array_get(msgs, i - 1)) <= r->rq->idle_timeout)) {
			json_array_append(part, json_array_get(msgs, i));
			continue;
		}
		/* a piece ends at i: the first keeps the conversation's fields */
		if (start == 0)
			piece = first;
		else {
			id.len = 0;
			buf_addf(&id, "%s-%zu", json_str(c, "id", NULL), ++k);
			ts_format(mig_time(json_array_get(part, 0)), ts);
			piece = json_pack("{s:s, s:s, s:n, s:O?, s:n, s:s}", "id",
			    id.data, "startedAt", ts, "endedAt", "title",
			    json_object_get(c, "title"), "summary", "splitFrom",
			    json_str(c, "id", NULL));
		}
		json_object_set(piece, "messages", part);
		if (i < n) {	/* not the last piece: ended at its last message */
			ts_format(mig_time(json_array_get(part,
			    json_array_size(part) - 1)), ts);
			json_object_set_new(piece, "endedAt", json_string(ts));
		} else if (start > 0)
			json_object_set(piece, "endedAt", json_object_get(c,
			    "endedAt"));
		push(r->src, piece, own);
		json_decref(part);
		if (i == n)
			break;
		part = json_array();
		json_array_append(part, json_array_get(msgs, i));
		start = i;
	}
	buf_free(&id);
	json_decref(c);
}

void
mig_add_keeping(struct mig_reader *r, json_t *c, json_t *keep)
{
	if (json_object_size(keep) > 0)
		json_object_set(c, "imported", keep);
	json_decref(keep);
	mig_add(r, c, 1, 1);
}
