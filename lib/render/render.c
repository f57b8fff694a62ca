/*
 * render.c - conversations as text for people, scripts and other LLM tools
 * (text, markdown, OpenAI messages, JSON lines), and what resume, fork and
 * tag print; knows nothing of files, the lock or the network: it fills a
 * buffer the caller prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../summary/summary.h"	/* summary_cp_offset */

const struct name_table render_formats[] = {
	{ "text", FMT_TEXT }, { "markdown", FMT_MARKDOWN }, { "json", FMT_JSON },
	{ "openai", FMT_OPENAI }, { "jsonl", FMT_JSONL }, { NULL, 0 },
};

/* SmartHole's speaker names: User, Assistant; and for the roles it lacks */
static const char *
speaker(const char *role)
{
	if (strcmp(role, "user") == 0)
		return "User";
	if (strcmp(role, "system") == 0)
		return "System";
	if (strcmp(role, "tool") == 0)
		return "Tool";
	return "Assistant";
}

/* "a, b" of a message's toolsUsed, or "": each name escaped as
 * buf_add_printable does, so a stored name (an older convctl, a hand-edited
 * store) can never start a line that reads as the next message */
static void
add_tools(struct buf *b, json_t *m, const char *before, const char *after)
{
	json_t *tools = json_object_get(m, "toolsUsed"), *t;
	size_t i;

	if (json_array_size(tools) == 0)
		return;
	buf_adds(b, before);
	json_array_foreach(tools, i, t) {
		if (i > 0)
			buf_adds(b, ", ");
		buf_add_printable_n(b, json_string_value(t),
		    json_string_length(t));
	}
	buf_adds(b, after);
}

static void
add_content(struct buf *b, json_t *m, int terminal)
{
	size_t len;
	const char *s = json_str(m, "content", &len);

	buf_add_text(b, s, len, terminal);
}

/* one message as SmartHole's context prompt writes it */
static void
message_text(struct buf *b, json_t *m, int terminal)
{
	buf_addf(b, "[%s]\n%s: ", json_str(m, "timestamp", NULL),
	    speaker(json_str(m, "role", NULL)));
	add_content(b, m, terminal);
	add_tools(b, m, " [used: ", "]");
}

/*
 * the content, each line that starts with backslashes and "### " given one
 * backslash more: a line of the text can never read back as the next
 * message's header, and Markdown shows it as it was (migrate's markdown
 * reader takes the backslash off)
 */
static void
add_content_markdown(struct buf *b, json_t *m, int terminal)
{
	size_t len, k;
	const char *s = json_str(m, "content", &len), *end = s + len, *nl;

	for (; s < end; s = nl) {
		for (k = 0; s + k < end && s[k] == '\\'; k++)
			;
		if ((size_t)(end - s) >= k + 4 && memcmp(s + k, "### ", 4) == 0)
			buf_addc(b, '\\');
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		else
			nl++;
		buf_add_text(b, s, (size_t)(nl - s), terminal);
	}
}

static void
message_markdown(struct buf *b, json_t *m, int terminal)
{
	buf_addf(b, "### %s · %s\n\n", speaker(json_str(m, "role", NULL)),
	    json_str(m, "timestamp", NULL));
	add_content_markdown(b, m, terminal);
	add_tools(b, m, "\n\n*Tools used: ", "*");
}

/* a message for a chat-completions request: role and content, and the
 * fields that API reads when they are there */
static json_t *
message_openai_json(json_t *m)
{
	const char *role = json_str(m, "role", NULL);
	const char *call = json_str(m, "tool_call_id", NULL);
	json_t *o;
	struct buf content = { 0 };

	if (strcmp(role, "tool") == 0 && call == NULL) {
		/* the API rejects a tool message without the call it answers */
		role = "user";
		buf_adds(&content, "Tool output:\n");
	}
	add_content(&content, m, 0);
	o = json_pack("{s:s, s:s%}", "role", role, "content", content.data,
	    content.len);
	if (call != NULL)
		json_object_set(o, "tool_call_id", json_object_get(m, "tool_call_id"));
	buf_free(&content);
	return o;
}

static void
message_openai(struct buf *b, json_t *m)
{
	json_t *o = message_openai_json(m);

	json_dump_buf(b, o);
	json_decref(o);
}

size_t
tokens_estimate(const char *s, size_t len)
{
	return (utf8_count(s, len) + 3) / 4;
}

/* the text form's estimate of message m, its content replaced by content
 * when that is not NULL */
static size_t
message_tokens(json_t *m, const char *content, size_t len)
{
	struct buf b = { 0 };
	json_t *copy = NULL;
	size_t t;

	if (content != NULL) {
		copy = json_copy(m);
		json_object_set_new(copy, "content", json_stringn(content, len));
		m = copy;
	}
	message_text(&b, m, 0);
	t = tokens_estimate(b.data, b.len);
	buf_free(&b);
	json_decref(copy);
	return t;
}

static int
is_system(json_t *m)
{
	const char *r = json_str(m, "role", NULL);

	return r != NULL && strcmp(r, "system") == 0;
}

#define CUT_MARK "[... %zu characters cut ...]\n"

/* b: the mark and the last keep of the cps code points of s[0..len);
 * the tokens of m with that content */
static size_t
cut_tokens(json_t *m, const char *s, size_t len, size_t cps, size_t keep,
    struct buf *b)
{
	size_t off = summary_cp_offset(s, len, cps - keep);

	b->len = 0;
	buf_addf(b, CUT_MARK, cps - keep);
	buf_add(b, s + off, len - off);
	return message_tokens(m, b->data, b->len);
}

/*
 * m with its content cut from the start, behind CUT_MARK, so that it fits
 * in budget tokens; NULL when not even the mark and one character fit.
 * *cut: the code points cut.
 */
static json_t *
cut_message(json_t *m, size_t budget, size_t *cut)
{
	size_t len, cps, keep, t;
	const char *s = json_str(m, "content", &len);
	struct buf b = { 0 };
	json_t *copy = NULL;

	cps = utf8_count(s, len);
	keep = cps;
	/* each round keeps fewer, a token's worth per token over */
	while (keep > 0 && (t = cut_tokens(m, s, len, cps, keep, &b)) > budget)
		keep = (t - budget) * 4 < keep ? keep - (t - budget) * 4 : 0;
	/* that may be up to a token short (and the mark's digits vary) */
	while (keep > 0 && keep < cps &&
	    cut_tokens(m, s, len, cps, keep + 1, &b) <= budget)
		keep++;
	if (keep > 0) {
		cut_tokens(m, s, len, cps, keep, &b);
		copy = json_clone(m);
		json_object_set_new(copy, "content", json_stringn(b.data, b.len));
		*cut = cps - keep;
	}
	buf_free(&b);
	return copy;
}

/*
 * The messages to render under the request's limits, into sel: the system
 * messages that open the conversation always; then of the rest the newest
 * holding rq->last non-system ones, and of those the newest that fit in
 * rq->max_tokens with the opening ones counted; the newest cut from its
 * start when it alone does not fit.
 */
static int
select_messages(json_t *msgs, const struct prompt_request *rq, json_t *sel,
    size_t *cut, struct error *e)
{
	size_t n = json_array_size(msgs), head = 0, first, used = 0, t, i, k;
	const char *limit = rq->limit_name ? rq->limit_name : "--max-tokens";
	json_t *m;

	*cut = 0;
	while (head < n && is_system(json_array_get(msgs, head)))
		head++;
	first = head;
	if (rq->last >= 0) {
		for (first = n, k = 0; first > head && k < (size_t)rq->last;
		    first--)
			if (!is_system(json_array_get(msgs, first - 1)))
				k++;
	}
	if (rq->max_tokens >= 0) {
		for (i = 0; i < head; i++)
			used += message_tokens(json_array_get(msgs, i), NULL, 0);
		if (used > (size_t)rq->max_tokens)
			return error_set(e, "the system messages that open the "
			    "conversation take %zu tokens, more than %s %ld",
			    used, limit, rq->max_tokens);
		for (i = n; i > first; i--) {
			t = message_tokens(json_array_get(msgs, i - 1), NULL, 0);
			if (used + t > (size_t)rq->max_tokens)
				break;
			used += t;
		}
		if (i == n && i > first) {
			/* not even the newest fits: its end, marked */
			for (k = 0; k < head; k++)
				json_array_append(sel, json_array_get(msgs, k));
			m = cut_message(json_array_get(msgs, n - 1),
			    (size_t)rq->max_tokens - used, cut);
			if (m == NULL)
				return error_set(e, "%s %ld leaves no room for "
				    "the newest message", limit, rq->max_tokens);
			json_array_append_new(sel, m);
			return 0;
		}
		first = i;
	}
	for (i = 0; i < n; i++)
		if (i < head || i >= first)
			json_array_append(sel, json_array_get(msgs, i));
	return 0;
}

int
render_prompt(struct buf *b, struct conv *c, struct prompt_request *rq,
    struct error *e)
{
	json_t *sel = json_array(), *m;
	size_t i;
	int rc = -1;

	/* no conversation: nothing to say, an empty array in JSON */
	if (select_messages(c != NULL ? json_object_get(conv_json(c),
	    "messages") : NULL, rq, sel, &rq->cut, e) < 0)
		goto out;
	rc = 0;
	if (json_array_size(sel) == 0 && rq->format != FMT_OPENAI)
		goto out;
	switch (rq->format) {
	case FMT_TEXT:
	case FMT_MARKDOWN:
		buf_adds(b, "## Current Conversation\n");
		/* SmartHole's text runs on; Markdown wants a blank line */
		if (rq->format == FMT_MARKDOWN)
			buf_addc(b, '\n');
		json_array_foreach(sel, i, m) {
			if (i > 0)
				buf_adds(b, "\n\n");
			if (rq->format == FMT_TEXT)
				message_text(b, m, rq->terminal);
			else
				message_markdown(b, m, rq->terminal);
		}
		buf_addc(b, '\n');
		break;
	case FMT_OPENAI:
		buf_addc(b, '[');
		json_array_foreach(sel, i, m) {
			if (i > 0)
				buf_adds(b, ",\n ");
			message_openai(b, m);
		}
		buf_adds(b, "]\n");
		break;
	case FMT_JSONL:
		json_array_foreach(sel, i, m) {
			json_dump_buf(b, m);
			buf_addc(b, '\n');
		}
		break;
	default:
		rc = error_set(e, "a prompt cannot be written as %s",
		    enum_name(render_formats, rq->format));
	}
out:
	json_decref(sel);
	return rc;
}

json_t *
render_prompt_json(struct conv *c, struct prompt_request *rq,
    struct error *e)
{
	json_t *sel = json_array(), *out = NULL, *m;
	size_t i;

	if (select_messages(c != NULL ? json_object_get(conv_json(c),
	    "messages") : NULL, rq, sel, &rq->cut, e) == 0) {
		out = json_array();
		json_array_foreach(sel, i, m)
			json_array_append_new(out, message_openai_json(m));
	}
	json_decref(sel);
	return out;
}

static void
add_time_or(struct buf *b, int64_t ms, const char *none)
{
	char ts[TS_LEN];

	if (ms < 0) {
		buf_adds(b, none);
		return;
	}
	ts_format(ms, ts);
	buf_adds(b, ts);
}

/* head, then stored text (an id, a title, a summary) as one printable line, never
 * a raw control character: an import or an older convctl may have stored
 * a newline, a tab or an escape (--json carries it as it is); then tail */
static void
add_line(struct buf *b, const char *head, const char *text, const char *tail)
{
	buf_adds(b, head);
	buf_add_printable(b, text);
	buf_adds(b, tail);
}

/* "pinned" and each tag as #TAG, space-separated, after a tab (a tag that
 * is no plain word in quotes: #"a b"); nothing for a conversation with
 * neither */
static void
add_marks(struct buf *b, struct conv *c)
{
	json_t *tags = conv_tags(c), *t;
	const char *sep = "\t";
	size_t i;

	if (conv_pinned(c)) {
		buf_adds(b, "\tpinned");
		sep = " ";
	}
	json_array_foreach(tags, i, t)
		if (json_is_text(t)) {
			buf_addf(b, "%s#", sep);
			buf_add_quoted_word(b, json_string_value(t));
			sep = " ";
		}
}

/* "Tags:     a, b" and "Pinned:   yes" lines, or markdown's list items; a
 * tag that is no plain word in quotes, so "a, b" is one tag */
static void
add_organized(struct buf *b, struct conv *c, int markdown)
{
	json_t *tags = conv_tags(c), *t;
	size_t i, k = 0;

	json_array_foreach(tags, i, t)
		if (json_is_text(t)) {
			buf_adds(b, k++ == 0 ? (markdown ? "- **Tags:** " :
			    "Tags:     ") : ", ");
			buf_add_quoted_word(b, json_string_value(t));
		}
	if (k > 0)
		buf_addc(b, '\n');
	if (conv_pinned(c))
		buf_adds(b, markdown ? "- **Pinned:** yes\n" : "Pinned:   yes\n");
}

int
render_conv(struct buf *b, struct conv *c, enum format f, int terminal,
    struct error *e)
{
	json_t *msgs = json_object_get(conv_json(c), "messages"), *m;
	void (*message)(struct buf *, json_t *, int);
	size_t i;

	switch (f) {
	case FMT_JSON:
		json_dump_buf(b, conv_json(c));
		buf_addc(b, '\n');
		return 0;
	case FMT_TEXT:
		add_line(b, "conversation ", conv_id(c), "\n");
		if (conv_title(c))
			add_line(b, "Title:    ", conv_title(c), "\n");
		buf_adds(b, "Started:  ");
		add_time_or(b, conv_started(c), "");
		buf_adds(b, "\nEnded:    ");
		add_time_or(b, conv_ended(c), "(active)");
		buf_addf(b, "\nMessages: %zu\n", conv_message_count(c));
		add_organized(b, c, 0);
		if (conv_summary(c))
			add_line(b, "Summary:  ", conv_summary(c), "\n");
		message = message_text;
		break;
	case FMT_MARKDOWN:
		if (conv_title(c))
			add_line(b, "# ", conv_title(c), "\n\n");
		else
			add_line(b, "# Conversation ", conv_id(c), "\n\n");
		add_line(b, "- **Id:** ", conv_id(c), "\n- **Started:** ");
		add_time_or(b, conv_started(c), "");
		buf_adds(b, "\n- **Ended:** ");
		add_time_or(b, conv_ended(c), "active");
		buf_addf(b, "\n- **Messages:** %zu\n", conv_message_count(c));
		add_organized(b, c, 1);
		if (conv_summary(c))
			add_line(b, "\n> ", conv_summary(c), "\n");
		message = message_markdown;
		break;
	default:
		return error_set(e, "a conversation cannot be shown as %s",
		    enum_name(render_formats, f));
	}
	/* the header, then each message after a blank line */
	json_array_foreach(msgs, i, m) {
		buf_addc(b, '\n');
		message(b, m, terminal);
		buf_addc(b, '\n');
	}
	return 0;
}

json_t *
render_recent_json(struct conv **v, size_t n)
{
	char started[TS_LEN], ended[TS_LEN];
	json_t *arr = json_array(), *tags;
	size_t i;

	for (i = 0; i < n; i++) {
		ts_format(conv_started(v[i]), started);
		ts_format(conv_ended(v[i]), ended);
		tags = conv_tags(v[i]);
		json_array_append_new(arr, json_pack("{s:s, s:s?, s:s?, s:s, "
		    "s:s, s:I, s:o, s:b}", "id", conv_id(v[i]), "title",
		    conv_title(v[i]), "summary", conv_summary(v[i]),
		    "startedAt", started, "endedAt", ended,
		    "messageCount", (json_int_t)conv_message_count(v[i]),
		    "tags", tags != NULL ? json_deep_copy(tags) : json_array(),
		    "pinned", conv_pinned(v[i])));
	}
	return arr;
}

void
render_recent(struct buf *b, struct conv **v, size_t n, int json)
{
	char ended[TS_LEN];
	json_t *arr;
	size_t i;

	if (!json) {
		for (i = 0; i < n; i++) {
			ts_format(conv_ended(v[i]), ended);
			add_line(b, "", conv_id(v[i]), "\t");
			buf_addf(b, "%s\t%zu\t", ended, conv_message_count(v[i]));
			add_line(b, "", conv_title(v[i]) ? conv_title(v[i]) : "",
			    "");
			add_marks(b, v[i]);
			buf_addc(b, '\n');
		}
		return;
	}
	arr = render_recent_json(v, n);
	json_dump_buf(b, arr);
	buf_addc(b, '\n');
	json_decref(arr);
}

void
render_ids(struct buf *b, char *const *ids, size_t n, int json)
{
	json_t *arr;
	size_t i;

	if (!json) {
		for (i = 0; i < n; i++)
			add_line(b, "", ids[i], "\n");
		return;
	}
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_string(ids[i]));
	json_dump_buf(b, arr);
	buf_addc(b, '\n');
	json_decref(arr);
}

/* "1.2 MiB": n bytes to one decimal of the largest unit it reaches */
static void
add_size(struct buf *b, int64_t n)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = -1;

	buf_addf(b, "%lld bytes", (long long)n);
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u >= 0)
		buf_addf(b, " (%.1f %s)", v, unit[u]);
}

/* "NAME N, NAME N", the busiest first; "none" */
static void
add_names(struct buf *b, const char *head, const struct stats_name *v,
    size_t n)
{
	size_t i;

	buf_adds(b, head);
	for (i = 0; i < n; i++) {
		buf_adds(b, i > 0 ? ", " : "");
		buf_add_printable_n(b, v[i].name, v[i].len);
		buf_addf(b, " %llu", (unsigned long long)v[i].n);
	}
	buf_adds(b, n == 0 ? "none\n" : "\n");
}

static json_t *
names_json(const struct stats_name *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s%, s:I}", "name",
		    v[i].name, v[i].len, "count", (json_int_t)v[i].n));
	return a;
}

static json_t *
first_json(const char *id, int64_t at)
{
	char ts[TS_LEN];

	if (id == NULL)
		return json_null();
	ts_format(at, ts);
	return json_pack("{s:s, s:s}", "id", id, "startedAt", ts);
}

/* the weeks as one bar each: a space for none, else one of eight heights */
static void
add_chart(struct buf *b, const uint64_t *week, size_t n, uint64_t most,
    int ascii)
{
	static const char *const block[] = { "\u2581", "\u2582", "\u2583",
	    "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char level[] = "._-~=+*#";
	size_t i, h;

	for (i = 0; i < n; i++) {
		if (week[i] == 0) {
			buf_addc(b, ' ');
			continue;
		}
		h = (size_t)((week[i] * 8 + most - 1) / most) - 1;
		if (ascii)
			buf_addc(b, level[h]);
		else
			buf_adds(b, block[h]);
	}
}

void
render_stats(struct buf *b, const struct store_stats *s,
    const struct stats_request *rq, int json, int ascii)
{
	uint64_t msgs = 0, most = 0;
	char ts[TS_LEN];
	json_t *o, *weeks;
	size_t i;

	for (i = 0; i < 4; i++)
		msgs += s->role[i];
	for (i = 0; i < STATS_WEEKS; i++)
		if (s->week[i] > most)
			most = s->week[i];
	ts_format(rq->now, ts);
	if (json) {
		weeks = json_array();
		for (i = 0; i < STATS_WEEKS; i++)
			json_array_append_new(weeks,
			    json_integer((json_int_t)s->week[i]));
		o = json_pack("{s:{s:I, s:I, s:I, s:I}, "
		    "s:{s:I, s:I, s:I, s:I, s:I}, s:o, s:o, s:o, s:o, s:o, "
		    "s:{s:s, s:o}}",
		    "conversations", "total", (json_int_t)(s->active + s->ended),
		    "active", (json_int_t)s->active,
		    "ended", (json_int_t)s->ended,
		    "pinned", (json_int_t)s->pinned,
		    "messages", "total", (json_int_t)msgs,
		    "user", (json_int_t)s->role[ROLE_USER],
		    "assistant", (json_int_t)s->role[ROLE_ASSISTANT],
		    "system", (json_int_t)s->role[ROLE_SYSTEM],
		    "tool", (json_int_t)s->role[ROLE_TOOL],
		    "bytes", s->bytes >= 0 ? json_integer(s->bytes) : json_null(),
		    "oldest", first_json(s->oldest, s->oldest_at),
		    "newest", first_json(s->newest, s->newest_at),
		    "tags", names_json(s->tag, s->ntag),
		    "tools", names_json(s->tool, s->ntool),
		    "weeks", "end", ts, "counts", weeks);
		json_dump_buf(b, o);
		buf_addc(b, '\n');
		json_decref(o);
		return;
	}
	buf_addf(b, "conversations  %llu: %llu active, %llu ended, "
	    "%llu pinned\n", (unsigned long long)(s->active + s->ended),
	    (unsigned long long)s->active, (unsigned long long)s->ended,
	    (unsigned long long)s->pinned);
	buf_addf(b, "messages       %llu: %llu user, %llu assistant, "
	    "%llu system, %llu tool\n", (unsigned long long)msgs,
	    (unsigned long long)s->role[ROLE_USER],
	    (unsigned long long)s->role[ROLE_ASSISTANT],
	    (unsigned long long)s->role[ROLE_SYSTEM],
	    (unsigned long long)s->role[ROLE_TOOL]);
	if (s->bytes >= 0) {
		buf_adds(b, "size           ");
		add_size(b, s->bytes);
		buf_addc(b, '\n');
	}
	buf_adds(b, "oldest         ");
	if (s->oldest != NULL) {
		ts_format(s->oldest_at, ts);
		add_line(b, "", s->oldest, "");
		buf_addf(b, ", started %s\n", ts);
	} else
		buf_adds(b, "none\n");
	buf_adds(b, "newest         ");
	if (s->newest != NULL) {
		ts_format(s->newest_at, ts);
		add_line(b, "", s->newest, "");
		buf_addf(b, ", started %s\n", ts);
	} else
		buf_adds(b, "none\n");
	add_names(b, "tags           ", s->tag, s->ntag);
	add_names(b, "tools          ", s->tool, s->ntool);
	ts_format(rq->now, ts);
	buf_adds(b, "per week       |");
	add_chart(b, s->week, STATS_WEEKS, most, ascii);
	buf_addf(b, "| %d weeks to %.10s, at most %llu a week\n", STATS_WEEKS,
	    ts, (unsigned long long)most);
}

void
render_switch(struct buf *b, const char *id, const char *ended,
    const json_t *forked_from, int json)
{
	json_t *o;

	if (!json) {
		buf_add_printable(b, id);
		buf_addc(b, '\n');
		return;
	}
	o = json_pack("{s:s, s:s?, s:O?}", "id", id, "ended", ended,
	    "forkedFrom", (json_t *)forked_from);
	json_dump_buf(b, o);
	buf_addc(b, '\n');
	json_decref(o);
}

void
render_tags(struct buf *b, struct conv *c, int json)
{
	json_t *t = conv_tags(c), *v, *arr;
	size_t i;

	if (!json) {
		json_array_foreach(t, i, v)
			if (json_is_text(v)) {
				buf_add_printable(b, json_string_value(v));
				buf_addc(b, '\n');
			}
		return;
	}
	arr = json_array();
	json_array_foreach(t, i, v)
		if (json_is_text(v))
			json_array_append(arr, v);
	json_dump_buf(b, arr);
	buf_addc(b, '\n');
	json_decref(arr);
}
