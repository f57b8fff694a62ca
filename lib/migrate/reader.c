/*
 * reader.c - the helpers every migrate format reader calls as it reads:
 * notes and progress, an error naming the file and a JSON path, times
 * (ISO 8601 or epoch seconds or milliseconds), and the store's shapes of a
 * message and a conversation built from what the source said. A finished
 * conversation goes to the run through source.c; the source's bytes are
 * input.c's. It knows no format, and nothing of the store, the imports
 * ledger or the report.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
