/*
 * summary.c - titles and summaries of ended conversations.
 *
 * A summary is made from a copy of the conversation (a job) while the store
 * is closed, so no lock is held during a request; the result is stored only
 * if the conversation is still there and exactly as it was copied. The model
 * is asked for SmartHole's two lines, TITLE: and SUMMARY:, and its reply is
 * read tolerantly; what it lacks comes from the offline summarizer, which
 * builds both from the conversation itself, the same way every time.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define TITLE_WORDS 8		/* the offline title: the request's first words */
#define TITLE_MAX 100		/* code points kept of any title */
#define QUOTE_MAX 160		/* of a message quoted in an offline summary */
#define SUMMARY_MAX 2000	/* of a model's summary */
#define TOOLS_MAX 10		/* tools named in an offline summary */

const char summary_instructions[] =
    "You title and summarize conversations between a user and an AI "
    "assistant, so they can be found and recalled later.\n"
    "Answer with exactly these two lines and nothing else:\n"
    "TITLE: a title of 5 to 8 words naming the main topic\n"
    "SUMMARY: 2 or 3 sentences covering the topics discussed, the actions "
    "taken and the outcomes\n"
    "Write plain text, no markdown. A line such as [... 1200 characters "
    "omitted ...] marks where the middle of a long conversation was left "
    "out.";

static const char *const kinds[] = {
	[SUMMARY_NONE] = "none", [SUMMARY_OFFLINE] = "offline",
	[SUMMARY_OPENAI] = "openai", [SUMMARY_ANTHROPIC] = "anthropic",
};

int
summary_kind_parse(const char *s, enum summary_kind *out)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(s, kinds[i]) == 0) {
			*out = (enum summary_kind)i;
			return 0;
		}
	return -1;
}

const char *
summary_kind_name(enum summary_kind k)
{
	return kinds[k];
}

/* how a setting is named where its value came from */
static int
bad_setting(const struct settings *st, enum setting s, const char *what,
    struct error *e)
{
	const char *v = settings_get(st, s);
	struct buf flag = { 0 };
	char *p;

	switch (st->source[s]) {
	case SRC_FLAG:
		buf_adds(&flag, setting_key(s));
		for (p = flag.data; *p != '\0'; p++)	/* api_base: --api-base */
			if (*p == '_')
				*p = '-';
		error_set(e, "invalid --%s '%s': %s", flag.data, v, what);
		buf_free(&flag);
		return -1;
	case SRC_FILE:
		return error_set(e, "invalid %s '%s' in '%s': %s", setting_key(s),
		    v, st->config_path, what);
	default:
		return error_set(e, "invalid %s '%s': %s", setting_env(s), v, what);
	}
}

static int
want_url(const struct settings *st, enum setting s, struct error *e)
{
	const char *v = settings_get(st, s);

	if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
		return bad_setting(st, s, "expected an http:// or https:// URL", e);
	return 0;
}

/* a key goes into a header line: a control character there could forge one */
static int
want_key(const struct settings *st, enum setting s, struct error *e)
{
	const unsigned char *k = (const unsigned char *)settings_get(st, s);

	for (; k != NULL && *k != '\0'; k++)
		if (*k < 0x20 || *k == 0x7f) {
			if (st->source[s] == SRC_FILE)
				return error_set(e, "the %s in '%s' holds a "
				    "control character", setting_key(s),
				    st->config_path);
			return error_set(e, "the key in %s holds a control "
			    "character", setting_env(s));
		}
	return 0;
}

int
summary_config_load(struct summary_config *cf, const struct settings *st,
    struct error *e)
{
	const char *kind = settings_get(st, SET_SUMMARIZER), *ca;
	struct llm_config *l = &cf->llm;

	memset(cf, 0, sizeof(*cf));
	if (kind != NULL) {
		if (summary_kind_parse(kind, &cf->kind) < 0)
			return bad_setting(st, SET_SUMMARIZER, "expected openai, "
			    "anthropic, offline or none", e);
	} else if (settings_get(st, SET_API_KEY) != NULL ||
	    settings_get(st, SET_API_BASE) != NULL)
		cf->kind = SUMMARY_OPENAI;
	else if (settings_get(st, SET_ANTHROPIC_API_KEY) != NULL)
		cf->kind = SUMMARY_ANTHROPIC;
	else
		cf->kind = SUMMARY_OFFLINE;
	if (cf->kind != SUMMARY_OPENAI && cf->kind != SUMMARY_ANTHROPIC)
		return 0;

	if (settings_long(st, SET_CONTEXT_CHARS, 1000, 100000000,
	    &cf->context_chars, e) < 0 ||
	    settings_double(st, SET_CONNECT_TIMEOUT, 0.001, 3600,
	    &l->connect_timeout, e) < 0 ||
	    settings_double(st, SET_TIMEOUT, 0.001, 86400, &l->timeout, e) < 0 ||
	    settings_long(st, SET_RETRIES, 0, 3, &l->retries, e) < 0)
		return -1;
	if ((ca = settings_get(st, SET_CA_BUNDLE)) != NULL) {
		if (access(ca, R_OK) < 0)
			return error_errno(e, "cannot read ca_bundle '%s'", ca);
		l->ca_bundle = ca;
	}
	l->model = settings_get(st, SET_MODEL);
	if (cf->kind == SUMMARY_ANTHROPIC) {
		l->api = LLM_ANTHROPIC;
		l->base = settings_get(st, SET_ANTHROPIC_BASE);
		l->key = settings_get(st, SET_ANTHROPIC_API_KEY);
		if (l->model == NULL)
			l->model = "claude-3-5-haiku-latest";
		if (want_url(st, SET_ANTHROPIC_BASE, e) < 0 ||
		    want_key(st, SET_ANTHROPIC_API_KEY, e) < 0)
			return -1;
		if (l->key == NULL)
			return error_set(e, "the anthropic summarizer needs an API "
			    "key: set ANTHROPIC_API_KEY, or anthropic_api_key in "
			    "'%s'", st->config_path);
		return 0;
	}
	l->api = LLM_OPENAI;
	l->key = settings_get(st, SET_API_KEY);
	if (want_key(st, SET_API_KEY, e) < 0)
		return -1;
	if ((l->base = settings_get(st, SET_API_BASE)) == NULL) {
		l->base = "https://api.openai.com/v1";
		/* a local server needs no key; OpenAI's own API does */
		if (l->key == NULL)
			return error_set(e, "the openai summarizer needs an API "
			    "key for %s: set CONVCTL_API_KEY or OPENAI_API_KEY, or "
			    "CONVCTL_API_BASE for a local server", l->base);
	} else if (want_url(st, SET_API_BASE, e) < 0)
		return -1;
	if (l->model == NULL)
		l->model = "gpt-4o-mini";
	return 0;
}

enum summary_setup
summary_config_resolve(struct summary_config *cf, struct settings *st,
    const struct summary_flags *fl, struct error *e)
{
	const struct {
		const char *value;
		enum setting s;
	} flags[] = {
		{ fl->summarizer, SET_SUMMARIZER },
		{ fl->model, SET_MODEL },
		{ fl->api_base, SET_API_BASE },
	};
	enum summary_kind k;
	size_t i;

	if (fl->summarizer != NULL && summary_kind_parse(fl->summarizer, &k) < 0) {
		error_set(e, "unknown summarizer '%s' (expected openai, "
		    "anthropic, offline or none)", fl->summarizer);
		return SUMMARY_SETUP_BAD_FLAG;
	}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].value != NULL)
			settings_set(st, flags[i].s, flags[i].value, SRC_FLAG,
			    NULL);
	if (summary_config_load(cf, st, e) < 0)
		return SUMMARY_SETUP_BAD_SETTING;
	return SUMMARY_SETUP_OK;
}

/* jobs */

struct summary_job {
	char *id;
	json_t *conv;		/* a deep copy */
};

struct summary_job *
summary_job_new(struct conv *c)
{
	struct summary_job *j = xmalloc(sizeof(*j));

	j->id = xstrdup(conv_id(c));
	j->conv = json_deep_copy(conv_json(c));
	return j;
}

const char *
summary_job_id(const struct summary_job *j)
{
	return j->id;
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
static void
flatten(struct buf *out, const char *s, size_t len)
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
static size_t
cp_offset(const char *s, size_t len, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n-- == 0)
			return i;
	return len;
}

/* cuts b to at most max code points, on a word boundary when one is near,
 * and marks the cut with an ellipsis */
static void
shorten(struct buf *b, size_t max)
{
	size_t at, sp;

	if (utf8_count(b->data, b->len) <= max)
		return;
	at = cp_offset(b->data, b->len, max - 1);
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

/* the offline summarizer */

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
	flatten(&flat, s, len);
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
	shorten(t, TITLE_MAX);
	buf_free(&flat);
}

/* Label: "quoted message". */
static void
quote(struct buf *b, const char *label, json_t *m)
{
	struct buf q = { 0 };
	size_t len;
	const char *s = json_str(m, "content", &len);

	flatten(&q, s, len);
	if (q.len == 0) {
		buf_free(&q);
		return;
	}
	shorten(&q, QUOTE_MAX);
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
			buf_adds(b, json_string_value(t));
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

/* the request */

char *
summary_prompt(const struct summary_job *j, long max)
{
	json_t *msgs = json_object_get(j->conv, "messages"), *m, *tools, *t;
	struct buf text = { 0 }, out = { 0 };
	const char *role, *s;
	size_t i, k, len, total, head, tail, cut, resume;

	json_array_foreach(msgs, i, m) {
		if (i > 0)
			buf_adds(&text, "\n\n");
		role = json_str(m, "role", NULL);
		buf_addf(&text, "[%s]\n%c%s: ", json_str(m, "timestamp", NULL),
		    toupper((unsigned char)role[0]), role + 1);
		s = json_str(m, "content", &len);
		for (k = 0; k < len; k++)	/* a NUL would end the request text */
			buf_addc(&text, s[k] != '\0' ? s[k] : ' ');
		tools = json_object_get(m, "toolsUsed");
		json_array_foreach(tools, k, t)
			buf_addf(&text, "%s%s%s", k ? ", " : " [used: ",
			    json_string_value(t),
			    k + 1 == json_array_size(tools) ? "]" : "");
	}
	buf_addf(&out, "Conversation %s, %zu message%s:\n\n", j->id,
	    json_array_size(msgs), json_array_size(msgs) == 1 ? "" : "s");
	total = utf8_count(text.data ? text.data : "", text.len);
	if (max < 2 || total <= (size_t)max) {
		buf_add(&out, text.data ? text.data : "", text.len);
	} else {
		/* the start and the end, each cut at a line break when one
		 * is in its outer half */
		head = cp_offset(text.data, text.len, (size_t)max / 2);
		tail = cp_offset(text.data, text.len, total - ((size_t)max -
		    (size_t)max / 2));
		for (cut = head; cut > head / 2 && text.data[cut - 1] != '\n'; cut--)
			;
		if (cut > head / 2)
			head = cut;
		for (resume = tail; resume < tail + (text.len - tail) / 2 &&
		    resume < text.len && text.data[resume] != '\n'; resume++)
			;
		if (resume < text.len && text.data[resume] == '\n')
			tail = resume + 1;
		buf_add(&out, text.data, head);
		buf_addf(&out, "\n[... %zu characters omitted ...]\n",
		    utf8_count(text.data + head, tail - head));
		buf_add(&out, text.data + tail, text.len - tail);
	}
	buf_free(&text);
	return buf_detach(&out);
}

/* reading a reply */

/* drops <think>…</think>, which reasoning models put before the answer */
static void
drop_thinking(struct buf *b)
{
	char *open, *close;

	while ((open = strcasestr(b->data, "<think>")) != NULL &&
	    (close = strcasestr(open, "</think>")) != NULL) {
		close += strlen("</think>");
		memmove(open, close, strlen(close) + 1);
		b->len = strlen(b->data);
	}
}

/* the value after a "TITLE:" style label on line s (decorations such as
 * "## ", "**", "- " or "1. " allowed around it), or NULL */
static const char *
label_value(const char *s, const char *label)
{
	size_t n = strlen(label);

	while (*s != '\0' && (strchr(" \t#*_->`", *s) != NULL ||
	    (isdigit((unsigned char)*s) && (s[1] == '.' || s[1] == ')'))))
		s += isdigit((unsigned char)*s) ? 2 : 1;
	if (strncasecmp(s, label, n) != 0)
		return NULL;
	s += n;
	while (*s != '\0' && strchr(" *_`", *s) != NULL)
		s++;
	if (*s != ':')
		return NULL;
	s++;
	/* the rest of "**Title:**" */
	while (*s != '\0' && strchr(" \t*", *s) != NULL)
		s++;
	return s;
}

static int
is_label(const char *line)
{
	return label_value(line, "title") != NULL ||
	    label_value(line, "summary") != NULL;
}

static int
blank(const char *s)
{
	for (; *s != '\0'; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

/* a value as stored: one line, without the quotes, brackets or emphasis a
 * model may wrap it in; NULL when nothing is left */
static char *
tidy(const char *s, size_t len, size_t max, int title)
{
	static const char *const pairs[][2] = {
		{ "\"", "\"" }, { "'", "'" }, { "\xe2\x80\x9c", "\xe2\x80\x9d" },
		{ "[", "]" }, { "**", "**" }, { "*", "*" }, { "`", "`" },
		{ "_", "_" },
	};
	struct buf b = { 0 };
	size_t i, ol, cl;
	int again = 1;

	flatten(&b, s, len);
	while (again && b.len > 0) {
		again = 0;
		for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			ol = strlen(pairs[i][0]);
			cl = strlen(pairs[i][1]);
			if (b.len >= ol + cl && strncmp(b.data, pairs[i][0], ol) == 0 &&
			    strcmp(b.data + b.len - cl, pairs[i][1]) == 0) {
				memmove(b.data, b.data + ol, b.len - ol - cl);
				b.len -= ol + cl;
				b.data[b.len] = '\0';
				again = 1;
			}
		}
		while (b.len > 0 && b.data[b.len - 1] == ' ')
			b.data[--b.len] = '\0';
		while (b.len > 0 && b.data[0] == ' ') {
			memmove(b.data, b.data + 1, b.len--);
		}
	}
	if (title)
		while (b.len > 0 && strchr(".,;:", b.data[b.len - 1]) != NULL)
			b.data[--b.len] = '\0';
	if (b.len == 0) {
		buf_free(&b);
		return NULL;
	}
	shorten(&b, max);
	return buf_detach(&b);
}

void
summary_parse_reply(const char *reply, char **title, char **summary)
{
	struct buf text = { 0 }, sum = { 0 }, rest = { 0 };
	char **lines = NULL, *p, *nl;
	const char *v;
	size_t n = 0, i, title_at = (size_t)-1;
	int in_summary = 0, seen_summary = 0;

	*title = *summary = NULL;
	buf_adds(&text, reply);
	drop_thinking(&text);
	for (p = text.data; p != NULL; p = nl ? nl + 1 : NULL) {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl = '\0';
		if (nl != NULL && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		lines = xrealloc(lines, (n + 1) * sizeof(*lines));
		lines[n++] = p;
	}
	for (i = 0; i < n; i++) {
		if (*title == NULL && (v = label_value(lines[i], "title")) != NULL) {
			in_summary = 0;
			/* "TITLE:" alone: the title is on the next line */
			if (blank(v) && i + 1 < n && !is_label(lines[i + 1]))
				v = lines[++i];
			*title = tidy(v, strlen(v), TITLE_MAX, 1);
			title_at = i;
			continue;
		}
		if (!seen_summary &&
		    (v = label_value(lines[i], "summary")) != NULL) {
			in_summary = seen_summary = 1;
			buf_adds(&sum, v);
			continue;
		}
		if (in_summary) {
			if (is_label(lines[i]) || (blank(lines[i]) && !blank(sum.data)))
				in_summary = 0;
			else {
				buf_addc(&sum, ' ');
				buf_adds(&sum, lines[i]);
			}
			continue;
		}
		/* lines that are neither: the summary, when no line says so */
		if (strncmp(lines[i], "```", 3) != 0 && i != title_at) {
			buf_addc(&rest, ' ');
			buf_adds(&rest, lines[i]);
		}
	}
	if (seen_summary)
		*summary = tidy(sum.data ? sum.data : "", sum.len, SUMMARY_MAX, 0);
	else if (rest.len > 0)
		*summary = tidy(rest.data, rest.len, SUMMARY_MAX, 0);
	free(lines);
	buf_free(&text);
	buf_free(&sum);
	buf_free(&rest);
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
	if (blank(reply)) {
		error_set(e, "the model '%s' gave an empty reply", cf->llm.model);
		goto out;
	}
	summary_parse_reply(reply, &r->title, &r->summary);
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
	struct conv *c = store_find(st, j->id);
	json_t *obj;

	if (c == NULL)
		return SUMMARY_STORE_GONE;
	obj = conv_json(c);
	if (!json_equal(obj, j->conv))
		return SUMMARY_STORE_CHANGED;
	json_object_set_new(obj, "title", json_string(r->title));
	json_object_set_new(obj, "summary", json_string(r->summary));
	if (conv_refresh(c, e) < 0)
		return SUMMARY_STORE_FAILED;
	return SUMMARY_STORED;
}
