/*
 * model.c - what a model is sent and how its reply is read: the
 * instructions, the conversation as text with a marked gap when it is too
 * long, and SmartHole's two lines, TITLE: and SUMMARY:, read tolerantly
 * (markdown, quotes, <think> blocks, labels on their own line). It is the
 * same for every provider: it knows nothing of HTTP, APIs or keys (llm.c),
 * nor of the store.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

#define SUMMARY_MAX 2000	/* of a model's summary */

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
		/* the names escaped, as prompt writes them: none forges a
		 * message line of the model's input */
		tools = json_object_get(m, "toolsUsed");
		json_array_foreach(tools, k, t) {
			buf_adds(&text, k ? ", " : " [used: ");
			buf_add_printable_n(&text, json_string_value(t),
			    json_string_length(t));
			if (k + 1 == json_array_size(tools))
				buf_addc(&text, ']');
		}
	}
	buf_adds(&out, "Conversation ");
	buf_add_printable(&out, j->id);
	buf_addf(&out, ", %zu message%s:\n\n", json_array_size(msgs),
	    json_array_size(msgs) == 1 ? "" : "s");
	total = utf8_count(text.data ? text.data : "", text.len);
	if (max < 2 || total <= (size_t)max) {
		buf_add(&out, text.data ? text.data : "", text.len);
	} else {
		/* the start and the end, each cut at a line break when one
		 * is in its outer half */
		head = summary_cp_offset(text.data, text.len, (size_t)max / 2);
		tail = summary_cp_offset(text.data, text.len, total - ((size_t)max -
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

	summary_flatten(&b, s, len);
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
	summary_shorten(&b, max);
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
			if (summary_blank(v) && i + 1 < n && !is_label(lines[i + 1]))
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
			if (is_label(lines[i]) || (summary_blank(lines[i]) && !summary_blank(sum.data)))
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
