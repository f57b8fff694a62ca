/*
 * offline.c - the offline summarizer: a title and a summary built
 * from the conversation itself (its first request, its last answer, the
 * tools, the message count and the time span), the same way every time. It
 * needs no network and no setting, and knows nothing of models or replies.
 */
#include <stdlib.h>
#include <string.h>

#include "summary.h"

#define TITLE_WORDS 8		/* the offline title: the request's first words */
#define QUOTE_MAX 160		/* of a message quoted in an offline summary */
#define TOOLS_MAX 10		/* tools named in an offline summary */

static json_t *
first_with_role(json_t *msgs, const char *role, int last)
{
	size_t n = json_array_size(msgs), i;
	json_t *m;

	for (i = 0; i < n; i++) {
		m = json_array_get(msgs, last ? n - 1 - i : i);
		if (strcmp(json_str(m, "role", NULL), role) == 0)
			return m;
	}
	return NULL;
}

static void
offline_title(json_t *msgs, struct buf *t)
{
	json_t *m = first_with_role(msgs, "user", 0);
	struct buf flat = { 0 };
	const char *s;
	size_t len, words = 0, i;

	if (m == NULL)
		m = json_array_get(msgs, 0);
	if (m == NULL) {
		buf_adds(t, "Empty conversation");
		return;
	}
	s = json_str(m, "content", &len);
	summary_flatten(&flat, s, len);
	s = flat.data ? flat.data : "";
	while (*s != '\0' && strchr("#>*-_` ", *s) != NULL)
		s++;
	/* the first sentence, at most TITLE_WORDS words of it */
	for (i = 0; s[i] != '\0'; i++) {
		if (strchr(".!?", s[i]) != NULL && (s[i + 1] == ' ' ||
		    s[i + 1] == '\0')) {
			i++;
			break;
		}
		if (s[i] == ' ' && ++words == TITLE_WORDS)
			break;
	}
	buf_add(t, s, i);
	while (t->len > 0 && strchr(".,;:", t->data[t->len - 1]) != NULL)
		t->data[--t->len] = '\0';
	if (s[i] != '\0' && words == TITLE_WORDS)
		buf_adds(t, "\xe2\x80\xa6");
	if (t->len == 0)
		buf_addf(t, "Conversation %s", json_str(m, "timestamp", NULL));
	if (t->data[0] >= 'a' && t->data[0] <= 'z')
		t->data[0] = (char)(t->data[0] - 'a' + 'A');
	summary_shorten(t, TITLE_MAX);
	buf_free(&flat);
}

/* Label: "quoted message". */
static void
quote(struct buf *b, const char *label, json_t *m)
{
	struct buf q = { 0 };
	size_t len;
	const char *s = json_str(m, "content", &len);

	summary_flatten(&q, s, len);
	if (q.len == 0) {
		buf_free(&q);
		return;
	}
	summary_shorten(&q, QUOTE_MAX);
	if (b->len > 0)
		buf_addc(b, ' ');
	buf_addf(b, "%s \"%s\"", label, q.data);
	/* no full stop after a quote that ends a sentence already */
	if (strchr(".!?", q.data[q.len - 1]) == NULL &&
	    (q.len < 3 || strcmp(q.data + q.len - 3, "\xe2\x80\xa6") != 0))
		buf_addc(b, '.');
	buf_free(&q);
}

static void
tools_sentence(struct buf *b, json_t *msgs)
{
	json_t *seen = json_array(), *m, *t, *u;
	size_t i, j, k, n;
	int dup;

	json_array_foreach(msgs, i, m)
		json_array_foreach(json_object_get(m, "toolsUsed"), j, t) {
			dup = 0;
			json_array_foreach(seen, k, u)
				if (json_equal(t, u))
					dup = 1;
			if (!dup)
				json_array_append(seen, t);
		}
	n = json_array_size(seen);
	if (n > 0) {
		buf_adds(b, b->len ? " Tools used: " : "Tools used: ");
		json_array_foreach(seen, i, t) {
			if (i == TOOLS_MAX) {
				buf_addf(b, " and %zu more", n - TOOLS_MAX);
				break;
			}
			if (i > 0)
				buf_adds(b, ", ");
			buf_add_printable_n(b, json_string_value(t),
			    json_string_length(t));
		}
		buf_addc(b, '.');
	}
	json_decref(seen);
}

static void
add_span(struct buf *b, int64_t ms)
{
	int64_t min = ms / 60000, h = min / 60, d = h / 24;

	if (min < 1)
		buf_adds(b, "within a minute");
	else if (min < 60)
		buf_addf(b, "over %lld minute%s", (long long)min,
		    min == 1 ? "" : "s");
	else if (h < 48) {
		buf_addf(b, "over %lld hour%s", (long long)h, h == 1 ? "" : "s");
		if (min % 60)
			buf_addf(b, " %lld minute%s", (long long)(min % 60),
			    min % 60 == 1 ? "" : "s");
	} else
		buf_addf(b, "over %lld days", (long long)d);
}

/* "2026-02-04 17:26" of an ISO 8601 UTC time */
static void
add_minute(struct buf *b, int64_t ms, int with_date)
{
	char ts[TS_LEN];

	ts_format(ms, ts);
	ts[10] = ' ';
	if (with_date)
		buf_add(b, ts, 16);
	else
		buf_add(b, ts + 11, 5);
}

static void
span_sentence(struct buf *b, json_t *msgs)
{
	size_t n = json_array_size(msgs);
	int64_t first, last;

	if (b->len > 0)
		buf_addc(b, ' ');
	if (n == 0) {
		buf_adds(b, "No messages.");
		return;
	}
	ts_parse(json_str(json_array_get(msgs, 0), "timestamp", NULL), &first);
	ts_parse(json_str(json_array_get(msgs, n - 1), "timestamp", NULL), &last);
	if (n == 1) {
		buf_adds(b, "1 message, ");
		add_minute(b, first, 1);
		buf_adds(b, " UTC.");
		return;
	}
	buf_addf(b, "%zu messages ", n);
	add_span(b, last - first);
	buf_adds(b, ", ");
	add_minute(b, first, 1);
	if (last / 60000 != first / 60000) {
		buf_adds(b, " to ");
		/* the date again only when it changed */
		add_minute(b, last, last / 86400000 != first / 86400000);
	}
	buf_adds(b, " UTC.");
}

void
summary_offline(const struct summary_job *j, struct summary_result *r)
{
	json_t *msgs = json_object_get(j->conv, "messages"), *m;
	struct buf t = { 0 }, s = { 0 };

	memset(r, 0, sizeof(*r));
	offline_title(msgs, &t);
	if ((m = first_with_role(msgs, "user", 0)) != NULL)
		quote(&s, "User asked:", m);
	if ((m = first_with_role(msgs, "assistant", 1)) != NULL)
		quote(&s, "Assistant answered:", m);
	tools_sentence(&s, msgs);
	span_sentence(&s, msgs);
	r->title = buf_detach(&t);
	r->summary = buf_detach(&s);
}
