/*
 * reader.c - the helpers every migrate format reader uses: handing a finished
 * conversation to the run (and --split's cut), notes, progress, times, the
 * source's bytes (read, and read again for an error's place), and
 * the store's shapes of a message and a conversation. It knows no format,
 * and nothing of the store, the imports ledger or the report.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader.h"

/*
 * s with each byte that is not UTF-8 replaced by U+FFFD: file names are bytes,
 * and jansson takes only valid strings (a name it refused would be lost)
 */
char *
mig_utf8_clean(const char *s)
{
	struct buf b = { 0 };
	size_t len = strlen(s);
	long bad;

	while ((bad = utf8_invalid_at(s, len)) >= 0) {
		buf_add(&b, s, (size_t)bad);
		buf_adds(&b, "\xef\xbf\xbd");
		s += bad + 1;
		len -= (size_t)bad + 1;
	}
	buf_add(&b, s, len);
	return buf_detach(&b);
}

json_t *
mig_clean_string(const char *s)
{
	char *c = mig_utf8_clean(s);
	json_t *v = json_string(c);

	free(c);
	return v;
}

/* a note quotes the source, as an error does: one printable line, of at
 * most NOTE_MAX bytes, as an error's message is */
#define NOTE_MAX 1024

static void
vnote(json_t *notes, const char *fmt, va_list ap)
{
	struct buf raw = { 0 };
	char msg[NOTE_MAX];

	buf_vaddf(&raw, fmt, ap);
	error_printable(msg, sizeof(msg), raw.data ? raw.data : "");
	buf_free(&raw);
	json_array_append_new(notes, mig_clean_string(msg));
}

void
mig_notes_add(json_t *notes, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(notes, fmt, ap);
	va_end(ap);
}

/* what readers call */

void
mig_note(struct mig_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(r->notes, fmt, ap);
	va_end(ap);
}

void
mig_progress(struct mig_reader *r, size_t done, size_t total)
{
	if (r->rq->progress != NULL)
		r->rq->progress(r->rq->progress_arg, r->src->file, done, total);
}

void
mig_skipped(struct mig_reader *r, const struct error *e)
{
	mig_note(r, "skipped (--skip-bad): %s", e->msg);
}

int
mig_is_epoch(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return 0;
	if (*p == '.' && p[1] >= '0' && p[1] <= '9')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	return *p == '\0';
}

/*
 * A time: an ISO 8601 string, or milliseconds since the epoch as a number or
 * a string of digits; below 1e11 they are taken as seconds (Python's
 * time.time()), since as milliseconds they would all fall in 1970.
 */
int
mig_time_of(json_t *v, int64_t *ms)
{
	double d;

	if (json_is_string(v) && !mig_is_epoch(json_string_value(v)))
		return ts_parse(json_string_value(v), ms);
	if (json_is_string(v))
		d = strtod(json_string_value(v), NULL);
	else if (json_is_number(v))
		d = json_number_value(v);
	else
		return -1;
	if (d < 0 || d > 253402300799999.0)	/* past 9999: not a time */
		return -1;
	if (d < 1e11)	/* seconds, with a fraction perhaps: to the nearest ms */
		d = d * 1000 + 0.5;
	*ms = (int64_t)d;
	return 0;
}

int64_t
mig_time(json_t *m)
{
	int64_t ms = 0;

	mig_time_of(json_object_get(m, "timestamp"), &ms);
	return ms;
}

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

/* "'FILE': " and the message (error_set bounds it) */
int
mig_bad(struct mig_reader *r, struct error *e, const char *fmt, ...)
{
	struct buf msg = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_set(e, "'%s': %s", r->src->file, msg.data ? msg.data : "");
	buf_free(&msg);
	return -1;
}

const char *
mig_path(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	b->len = 0;
	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
	return b->data;
}

/* d as short as it reads back, as a source would write it: 1e300, not
 * 1.0000000000000001e+300 */
static void
real_text(struct buf *b, double d)
{
	char t[64], *x;
	int p;

	for (p = 1; p <= 17; p++) {
		snprintf(t, sizeof(t), "%.*g", p, d);
		if (strtod(t, NULL) == d)
			break;
	}
	if ((x = strchr(t, 'e')) != NULL) {	/* e+300 -> e300, e-05 -> e-5 */
		buf_add(b, t, (size_t)(x - t + 1));
		x++;
		if (*x == '-')
			buf_addc(b, *x);
		if (*x == '+' || *x == '-')
			x++;
		while (*x == '0' && x[1] != '\0')
			x++;
		buf_adds(b, x);
	} else
		buf_adds(b, t);
}

void
mig_add_keeping(struct mig_reader *r, json_t *c, json_t *keep)
{
	if (json_object_size(keep) > 0)
		json_object_set(c, "imported", keep);
	json_decref(keep);
	mig_add(r, c, 1, 1);
}

int
mig_want_conversation(struct mig_reader *r, json_t *conv, const char *at,
    const char *const *id_keys, const char *title_key, const char **id,
    const char **title, struct error *e)
{
	json_t *v = NULL;
	size_t i;

	if (!json_is_object(conv))
		return mig_bad(r, e, "%s: expected a conversation object", at);
	for (i = 0; id_keys[i] != NULL && !json_is_string(v); i++)
		v = json_object_get(conv, id_keys[i]);
	if (!json_is_string(v) || json_string_length(v) == 0)
		return mig_bad(r, e, "%s.%s: %s", at, id_keys[0], v == NULL ?
		    "missing" : "expected a non-empty string");
	*id = json_string_value(v);
	v = json_object_get(conv, title_key);
	if (v != NULL && !json_is_null(v) && !json_is_string(v))
		return mig_bad(r, e, "%s.%s: expected a string", at, title_key);
	*title = json_string_value(v);
	return 0;
}

/* v at path, which may be absent: its time, else the import time */
int
mig_want_time(struct mig_reader *r, json_t *v, const char *path, int64_t *ms,
    struct error *e)
{
	struct buf b = { 0 };

	if (v == NULL || json_is_null(v)) {
		*ms = r->rq->now;
		return 0;
	}
	if (mig_time_of(v, ms) == 0)
		return 0;
	if (json_is_real(v))
		real_text(&b, json_real_value(v));
	else
		json_dump_buf(&b, v);
	mig_bad(r, e, "%s: not a time (ISO 8601, or seconds or milliseconds "
	    "since the epoch): %.200s", path, b.data);
	buf_free(&b);
	return -1;
}

json_t *
mig_message(const char *id, int64_t ms, const char *role, const char *text,
    size_t len)
{
	char ts[TS_LEN];

	ts_format(ms, ts);
	return json_pack("{s:s, s:s, s:s, s:s%}", "id", id, "timestamp", ts,
	    "role", role, "content", text, len);
}

/* a message id for sources that give none: unique within the conversation */
void
mig_message_id(struct buf *b, int64_t ms, size_t index)
{
	b->len = 0;
	buf_addf(b, "m-%lld-%zu", (long long)ms, index);
}

json_t *
mig_conversation(const char *id, int64_t started, int64_t ended, const char *title,
    const char *summary)
{
	char s[TS_LEN], en[TS_LEN];
	json_t *c;

	ts_format(started, s);
	ts_format(ended, en);
	c = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:[]}", "id", id,
	    "startedAt", s, "endedAt", en, "title", title, "summary", summary,
	    "messages");
	return c;
}

/* the conversation's times from its messages, or the import time */
json_t *
mig_conversation_of(struct mig_reader *r, const char *id, json_t *msgs,
    const char *title)
{
	int64_t first = r->rq->now, last = r->rq->now;
	size_t n = json_array_size(msgs);
	json_t *c;

	if (n > 0) {
		ts_parse(json_str(json_array_get(msgs, 0), "timestamp", NULL), &first);
		ts_parse(json_str(json_array_get(msgs, n - 1), "timestamp", NULL),
		    &last);
	}
	c = mig_conversation(id, first, last, title, NULL);
	json_object_set(c, "messages", msgs);
	return c;
}

json_t *
mig_session_of(struct mig_reader *r, const char *id, json_t *msgs,
    const char *title)
{
	if (json_array_size(msgs) == 0) {
		mig_note(r, "'%s': no messages in it", r->src->file);
		return NULL;
	}
	return mig_conversation_of(r, id, msgs, title);
}

/* a generated conversation id, as SmartHole names them; the run makes it unique */
char *
mig_generated_id(json_t *msgs, int64_t now)
{
	struct buf b = { 0 };
	int64_t ms = now;

	if (json_array_size(msgs) > 0)
		ts_parse(json_str(json_array_get(msgs, 0), "timestamp", NULL), &ms);
	buf_addf(&b, "conv-%lld", (long long)ms);
	return buf_detach(&b);
}

static int
is_one_of(const char *key, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		if (strcmp(key, *keys) == 0)
			return 1;
	return 0;
}

/* copies src's fields but those named, and those dst already has, into dst */
void
mig_keep_extra(json_t *dst, json_t *src, const char *const *skip)
{
	const char *key;
	json_t *v;

	json_object_foreach(src, key, v)
		if (!is_one_of(key, skip) && json_object_get(dst, key) == NULL)
			json_object_set(dst, key, v);
}

/* appends name to tools unless it is there: distinct, in first-seen order */
void
mig_tool_add(json_t *tools, const char *name)
{
	json_t *t;
	size_t i;

	if (name == NULL || *name == '\0')
		return;
	json_array_foreach(tools, i, t)
		if (strcmp(json_string_value(t), name) == 0)
			return;
	json_array_append_new(tools, json_string(name));
}

void
mig_set_tools(json_t *msg, json_t *tools)
{
	if (json_array_size(tools) > 0)
		json_object_set(msg, "toolsUsed", tools);
}

/*
 * The text of content: a string as it is, null as empty, an array of parts
 * as its text parts joined by newlines (*partial set when other parts, say
 * images, were there), anything else as its JSON text.
 */
void
mig_content_text(json_t *v, struct buf *b, int *partial)
{
	json_t *part;
	const char *t;
	size_t i, len, n = 0;

	*partial = 0;
	if (v == NULL || json_is_null(v))
		return;
	if (json_is_string(v)) {
		buf_add(b, json_string_value(v), json_string_length(v));
		return;
	}
	if (!json_is_array(v)) {
		json_dump_buf(b, v);
		return;
	}
	json_array_foreach(v, i, part) {
		if (json_is_string(part)) {
			t = json_string_value(part);
			len = json_string_length(part);
		} else if ((t = json_str(part, "text", &len)) == NULL) {
			*partial = 1;
			continue;
		}
		if (n++ > 0)
			buf_addc(b, '\n');
		buf_add(b, t, len);
	}
}

/* [p, end) holds only bytes of set (no NUL) */
static int
only(const char *p, const char *end, const char *set)
{
	for (; p < end; p++)
		if (*p == '\0' || strchr(set, *p) == NULL)
			return 0;
	return 1;
}

/*
 * a line that is not JSON: an error, unless it is the last and no newline
 * ends it (nl is end), torn by a crash mid-write: then a note, and 1 to stop
 * reading. A whole line, newline and all, that is not JSON is bad input
 */
static int
bad_line(struct mig_reader *r, size_t line, const json_error_t *je,
    const char *nl, const char *end, struct error *e)
{
	if (nl == end) {
		mig_note(r, "'%s':%zu: the last line is torn (%s at column %d); "
		    "skipped it", r->src->file, line, je->text, je->column);
		return 1;
	}
	return error_set(e, "'%s':%zu:%d: %s", r->src->file, line, je->column,
	    je->text);
}

json_t *
mig_item(struct mig_reader *r, const struct mig_input *in, size_t i,
    struct error *e)
{
	const struct mig_span *it = &in->items[i];
	json_error_t je, whole;
	struct buf again = { 0 };
	const char *text = in->text;
	size_t len = in->len;
	json_t *v;
	int line, column;

	v = json_loadb(in->text + it->off, it->len, JSON_LOAD_FLAGS |
	    JSON_DECODE_ANY, &je);
	if (v != NULL)
		return v;
	/* the whole text's error, as a source parsed whole gets it (read
	 * again where its first items' bytes were let go of) */
	if (r->gone > 0) {
		if (mig_source_again(r, &again, e) < 0)
			return NULL;
		text = again.data ? again.data : "";
		len = again.len;
	}
	if ((v = json_loadb(text, len, JSON_LOAD_FLAGS, &whole)) != NULL) {
		json_decref(v);
		mig_bad(r, e, "[%zu]: %s", i, je.text);
	} else {
		json_error_place(text, len, &whole, &line, &column);
		error_set(e, "'%s':%d:%d: %s", r->src->file, line, column,
		    whole.text);
	}
	buf_free(&again);
	return NULL;
}

/* what mig_text_done() gives back at once, at least */
#define GIVE_BACK (4 << 20)

void
mig_text_done(struct mig_reader *r, const struct mig_input *in, size_t upto)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t base = (uintptr_t)in->own, from, to;

	if (in->own == NULL || page == 0 || (page & (page - 1)) != 0)
		return;
	from = (base + r->gone + page - 1) & ~(uintptr_t)(page - 1);
	to = (base + upto) & ~(uintptr_t)(page - 1);
	if (to < from + GIVE_BACK)
		return;
	/* the pages read as zeros if touched again: the text before upto is
	 * never looked at again, but by mig_item()'s error, which reads the
	 * source again */
	if (madvise((void *)from, to - from, MADV_DONTNEED) == 0)
		r->gone = to - base;
}

void
mig_item_done(struct mig_reader *r, const struct mig_input *in, size_t i)
{
	mig_text_done(r, in, i + 1 < in->nitems ? in->items[i + 1].off :
	    in->len);
}

int
mig_each_item(struct mig_reader *r, const struct mig_input *in,
    const char *not_array,
    int (*one)(struct mig_reader *, json_t *, size_t, struct error *),
    struct error *e)
{
	json_t *item;
	size_t i, before, n = in->root == NULL ? in->nitems :
	    json_array_size(in->root);
	int rc;

	if (in->root == NULL ? in->items == NULL : !json_is_array(in->root))
		return mig_bad(r, e, "%s", not_array);
	for (i = 0; i < n; i++) {
		/* an item at a time, each let go of once read: the source is
		 * never held parsed whole */
		if (in->root != NULL)
			item = json_incref(json_array_get(in->root, i));
		else if ((item = mig_item(r, in, i, e)) == NULL)
			return -1;
		before = json_array_size(r->src->convs);
		rc = one(r, item, i, e);
		json_decref(item);
		/* its conversations held as text from now on */
		if (r->pack != NULL && r->pack(r, before, e) < 0)
			return -1;
		if (rc > 0)
			return 0;
		if (rc < 0) {
			if (!r->rq->skip_bad)
				return -1;
			mig_skipped(r, e);
		}
		if (in->root == NULL)
			mig_item_done(r, in, i);
		mig_progress(r, i + 1, n);
	}
	return 0;
}

/* how deep mig_array_items() lets an item nest: below jansson's limit
 * (2048), counting the array, so an item parses alone as in the array */
#define ITEM_DEPTH 2000

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

int
mig_array_items(const char *text, size_t len, struct mig_span **v, size_t *n)
{
	const char *p = text, *end = text + len, *start, *last;
	struct mig_span *items = NULL;
	size_t depth, k = 0, cap = 0;

	p = skip_blanks(p, end);
	if (p == end || *p++ != '[')
		return -1;
	for (;;) {
		start = p = skip_blanks(p, end);
		for (depth = 0; p < end; p++) {
			if (*p == '"') {
				for (p++; p < end && *p != '"'; p++)
					if (*p == '\\')
						p++;
				if (p >= end)
					goto no;
			} else if (*p == '{' || *p == '[') {
				if (++depth > ITEM_DEPTH)
					goto no;
			} else if (*p == '}' || *p == ']') {
				if (depth == 0)
					break;
				depth--;
			} else if (*p == ',' && depth == 0)
				break;
		}
		if (p == end || *p == '}')
			goto no;
		for (last = p; last > start && (last[-1] == ' ' ||
		    last[-1] == '\t' || last[-1] == '\n' || last[-1] == '\r');)
			last--;
		if (last == start)	/* [], [1,,2], [1,] */
			goto no;
		if (k == cap) {
			cap = cap ? 2 * cap : 64;
			items = xrealloc(items, cap * sizeof(*items));
		}
		items[k].off = (size_t)(start - text);
		items[k++].len = (size_t)(last - start);
		if (*p++ == ']')
			break;
	}
	if (skip_blanks(p, end) != end)
		goto no;
	*v = items;
	*n = k;
	return 0;
no:
	free(items);
	return -1;
}

/* each line's JSON value to each(), parsed and freed one at a time */
int
mig_lines(struct mig_reader *r, const char *text, size_t len,
    int (*each)(struct mig_reader *, void *, json_t *, size_t,
    struct error *), void *arg, struct error *e)
{
	json_error_t je;
	json_t *rec;
	const char *p, *end = text + len, *nl, *q;
	size_t line = 0, nlines = 0, llen;
	int rc;

	for (q = text; q < end && (q = memchr(q, '\n', (size_t)(end - q))); q++)
		nlines++;
	for (p = text; p < end; p = nl < end ? nl + 1 : end) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		llen = (size_t)(nl - p);
		if (llen > 0 && p[llen - 1] == '\r')
			llen--;
		if (only(p, p + llen, " \t"))
			continue;
		/* torn: the lines before it are read, and that is all */
		if ((rec = json_loadb(p, llen, JSON_LOAD_FLAGS, &je)) == NULL) {
			if ((rc = bad_line(r, line, &je, nl, end, e)) >= 0)
				return 0;
			if (!r->rq->skip_bad)
				return -1;
			mig_skipped(r, e);
			continue;
		}
		rc = each(r, arg, rec, line, e);
		json_decref(rec);
		if (rc < 0 && !r->rq->skip_bad)
			return -1;
		if (rc < 0)
			mig_skipped(r, e);
		mig_progress(r, line, nlines + 1);
	}
	return 0;
}

/* the source's bytes */

int
migrate_read(const char *file, size_t max, struct buf *b, struct error *e)
{
	struct stat sb;
	int fd, rc = -1;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return error_errno(e, "cannot open '%s'", file);
	if (fstat(fd, &sb) < 0)
		error_errno(e, "cannot stat '%s'", file);
	else if (max > 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
		error_set(e, "'%s' is %jd bytes, larger than the limit of %zu "
		    "bytes (the max_input_bytes setting)", file,
		    (intmax_t)sb.st_size, max);
	else if (max > 0)
		rc = buf_read_max(b, fd, file, max, "max_input_bytes", e);
	else
		rc = buf_read_fd(b, fd, file, e);
	close(fd);
	return rc;
}

/* s's bytes: the caller's (read before the store was locked), or the file's */
int
mig_source_text(const struct migrate_request *rq, const struct mig_source *s,
    struct buf *text, struct error *e)
{
	if (rq->data != NULL && strcmp(s->file, rq->path) == 0) {
		buf_add(text, rq->data, rq->len);
		return 0;
	}
	return migrate_read(s->file, rq->max_bytes, text, e);
}

/* a byte order mark (Windows editors write one) is not JSON */
void
mig_no_bom(struct buf *text)
{
	if (text->len >= 3 && memcmp(text->data, "\xef\xbb\xbf", 3) == 0) {
		memmove(text->data, text->data + 3, text->len - 2);
		text->len -= 3;
	}
}

int
mig_source_again(struct mig_reader *r, struct buf *text, struct error *e)
{
	if (mig_source_text(r->rq, r->src, text, e) < 0)
		return -1;
	mig_no_bom(text);
	return 0;
}
