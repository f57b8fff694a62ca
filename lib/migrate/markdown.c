/*
 * markdown.c - migrate's markdown format: one conversation as `convctl show
 * --format markdown` writes it (lib/render/render.c), read back to the same roles,
 * contents and tools. It knows the reader interface (reader.h) and nothing
 * of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

#define TOOLS_OPEN "\n\n*Tools used: "

/* "# TITLE" and "- **Id:** " within its first lines: what show writes */
int
mig_sniff_markdown(const char *text, size_t len)
{
	const char *id;
	size_t head = len < 4096 ? len : 4096;

	if (len < 2 || memcmp(text, "# ", 2) != 0)
		return 0;
	id = memmem(text, head, "\n- **Id:** ", strlen("\n- **Id:** "));
	return id != NULL;
}

/* the speaker a header names, as a role; NULL when it names none */
static const char *
md_role(const char *s, size_t n)
{
	static const char *const names[][2] = { { "User", "user" },
	    { "Assistant", "assistant" }, { "System", "system" },
	    { "Tool", "tool" } };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i][0]) == n && memcmp(s, names[i][0], n) == 0)
			return names[i][1];
	return NULL;
}

/*
 * the line at p (to nl) as a message header, "### SPEAKER · TIME": its role
 * and time; 0 when it is not one
 */
static int
md_header(const char *p, const char *nl, const char **role, int64_t *ms)
{
	static const char dot[] = " \xc2\xb7 ";	/* " · " */
	const char *sep;
	char ts[64];
	size_t n;

	if ((size_t)(nl - p) < 4 || memcmp(p, "### ", 4) != 0)
		return 0;
	p += 4;
	if ((sep = memmem(p, (size_t)(nl - p), dot, strlen(dot))) == NULL ||
	    (*role = md_role(p, (size_t)(sep - p))) == NULL)
		return 0;
	sep += strlen(dot);
	if ((n = (size_t)(nl - sep)) >= sizeof(ts))
		return 0;
	memcpy(ts, sep, n);
	ts[n] = '\0';
	return ts_parse(ts, ms) == 0;
}

/* the value of the "- **KEY:** " line of the header block, or NULL */
static char *
md_field(const char *text, const char *end, const char *key)
{
	struct buf k = { 0 };
	const char *p, *nl;
	char *v = NULL;

	buf_addf(&k, "\n- **%s:** ", key);
	if ((p = memmem(text, (size_t)(end - text), k.data, k.len)) != NULL) {
		p += k.len;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		v = xmalloc((size_t)(nl - p) + 1);
		memcpy(v, p, (size_t)(nl - p));
		v[nl - p] = '\0';
	}
	buf_free(&k);
	return v;
}

/* one message's text, [p, end): its content, and its tools line's names */
static json_t *
md_message(const char *p, const char *end, const char *role, int64_t ms,
    size_t index)
{
	const char *t = NULL, *q, *name, *nl;
	struct buf id = { 0 }, one = { 0 }, text = { 0 };
	json_t *m, *tools = json_array();
	size_t k;

	/* the last "*Tools used: a, b*" paragraph, if the text ends with one */
	for (q = p; (q = memmem(q, (size_t)(end - q), TOOLS_OPEN,
	    strlen(TOOLS_OPEN))) != NULL; q++)
		t = q;
	if (t != NULL && end[-1] == '*' && memchr(t + 2, '\n',
	    (size_t)(end - t - 2)) == NULL && end - 1 > t + strlen(TOOLS_OPEN)) {
		for (name = t + strlen(TOOLS_OPEN); name < end - 1; name = q + 2) {
			if ((q = memmem(name, (size_t)(end - 1 - name), ", ", 2)) ==
			    NULL)
				q = end - 1;
			one.len = 0;
			buf_add(&one, name, (size_t)(q - name));
			mig_tool_add(tools, one.data);
		}
		end = t;
	}
	/* show's escape undone: "\\### " at a line's start was "### " */
	for (q = p; q < end; q = nl) {
		for (k = 0; q + k < end && q[k] == '\\'; k++)
			;
		if ((nl = memchr(q, '\n', (size_t)(end - q))) == NULL)
			nl = end;
		else
			nl++;
		if (k > 0 && (size_t)(end - q) >= k + 4 &&
		    memcmp(q + k, "### ", 4) == 0)
			q++;
		buf_add(&text, q, (size_t)(nl - q));
	}
	mig_message_id(&id, ms, index);
	m = mig_message(id.data, ms, role, text.data ? text.data : "",
	    text.len);
	mig_set_tools(m, tools);
	json_decref(tools);
	buf_free(&id);
	buf_free(&one);
	buf_free(&text);
	return m;
}

/* where each message header starts: a line "### SPEAKER · TIME" after a
 * blank line and before one */
static size_t
md_headers(const char *text, const char *end, const char **at, size_t max)
{
	const char *p, *nl, *role;
	size_t n = 0;
	int64_t ms;

	for (p = text; p < end && n < max; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		if (p - text >= 2 && p[-2] == '\n' && nl + 1 < end &&
		    nl[1] == '\n' && md_header(p, nl, &role, &ms))
			at[n++] = p;
	}
	return n;
}

/* the summary: "> " after the header's list, up to stop (the first
 * message), without its last newlines */
static void
md_summary(struct buf *summary, const char *text, const char *stop)
{
	const char *body = memmem(text, (size_t)(stop - text), "\n\n> ", 4);

	if (body == NULL)
		return;
	body += 4;
	buf_add(summary, body, (size_t)(stop - body));
	while (summary->len > 0 && summary->data[summary->len - 1] == '\n')
		summary->data[--summary->len] = '\0';
}

/* the n messages whose headers start at at[], the text ending at end */
static void
md_messages(json_t *msgs, const char *const *at, size_t n, const char *end)
{
	const char *nl, *role, *body, *stop;
	int64_t ms;
	size_t i;

	for (i = 0; i < n; i++) {
		nl = memchr(at[i], '\n', (size_t)(end - at[i]));
		md_header(at[i], nl, &role, &ms);
		body = nl + 2;
		/* up to the blank line before the next header, or the end's
		 * newline */
		stop = i + 1 < n ? at[i + 1] - 2 : end;
		if (i + 1 == n && stop > body && stop[-1] == '\n')
			stop--;
		if (stop < body)
			stop = body;
		json_array_append_new(msgs, md_message(body, stop, role, ms, i));
	}
}

int
mig_read_markdown(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	const char *text = in->text, *end = text + in->len, *nl, *stop;
	const char **at = NULL;
	char *id = NULL, *started = NULL, *ended = NULL, *count = NULL;
	struct buf title = { 0 }, summary = { 0 };
	json_t *msgs = json_array(), *c;
	int64_t s_ms, e_ms = -1;
	size_t n, max = in->len / 8 + 1;
	long bad;
	int rc = -1;

	if ((bad = utf8_invalid_at(text, in->len)) >= 0) {
		mig_bad(r, e, "byte %ld: not UTF-8", bad + 1);
		goto out;
	}
	if (!mig_sniff_markdown(text, in->len)) {
		mig_bad(r, e, "line 1: expected '# TITLE' and a '- **Id:** ' line, "
		    "as convctl show --format markdown writes");
		goto out;
	}
	at = xmalloc(max * sizeof(*at));
	n = md_headers(text, end, at, max);
	stop = n > 0 ? at[0] - 1 : end;
	id = md_field(text, stop, "Id");
	started = md_field(text, stop, "Started");
	ended = md_field(text, stop, "Ended");
	count = md_field(text, stop, "Messages");
	if (id == NULL || *id == '\0' || started == NULL || ts_parse(started,
	    &s_ms) < 0 || (ended != NULL && strcmp(ended, "active") != 0 &&
	    ts_parse(ended, &e_ms) < 0)) {
		mig_bad(r, e, "the header: expected '- **Id:** ID' and '- "
		    "**Started:** TIME' (ISO 8601), and '- **Ended:** TIME' or "
		    "'active'");
		goto out;
	}
	if (count != NULL && strtoul(count, NULL, 10) != n) {
		mig_bad(r, e, "the header says %s messages, %zu found (a line "
		    "'### SPEAKER · TIME' between blank lines starts one)", count,
		    n);
		goto out;
	}
	nl = memchr(text, '\n', (size_t)(end - text));
	buf_add(&title, text + 2, (size_t)((nl ? nl : end) - text - 2));
	md_summary(&summary, text, stop);
	md_messages(msgs, at, n, end);
	c = mig_conversation(id, s_ms, e_ms < 0 ? s_ms : e_ms, NULL,
	    summary.len > 0 ? summary.data : NULL);
	if (e_ms < 0)
		json_object_set_new(c, "endedAt", json_null());
	/* "# Conversation ID" is what show writes when there is no title */
	buf_adds(&title, "");
	if (!(strncmp(title.data, "Conversation ", 13) == 0 &&
	    strcmp(title.data + 13, id) == 0))
		json_object_set_new(c, "title", json_string(title.data));
	json_object_set(c, "messages", msgs);
	mig_add(r, c, 1, 1);
	rc = 0;
out:
	free(at);
	free(id);
	free(started);
	free(ended);
	free(count);
	buf_free(&title);
	buf_free(&summary);
	json_decref(msgs);
	return rc;
}
