/*
 * aider.c - migrate's aider format: the .aider.chat.history.md aider keeps in
 * a project, a Markdown log it appends to, each session under "# aider chat
 * started at TIME", one conversation each. It knows the reader interface
 * (reader.h) and nothing of the run.
 *
 * What aider writes (aider/io.py): a line of what the person typed is
 * "#### " and the line, each ending in two spaces; the model's reply is its
 * text, edit blocks and all, between blank lines; what aider itself says
 * (its start-up lines, the edits applied, commits, token counts, questions
 * and their answers) is "> " and the text, ending in two spaces, the rest
 * of a message of many lines following the first without "> ".
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats.h"

#define AIDER_START	"# aider chat started at "
#define AIDER_INPUT	".aider.input.history"

/* the first line that is not blank starts a session */
int
mig_sniff_aider(const char *text, size_t len)
{
	size_t i = 0, n = strlen(AIDER_START);

	while (i < len && (text[i] == '\n' || text[i] == '\r'))
		i++;
	return len - i >= n && memcmp(text + i, AIDER_START, n) == 0;
}

enum aider_kind { AK_BLANK, AK_USER, AK_TOOL, AK_TEXT, AK_START };

/* a line, its end without "\r" */
struct aider_line {
	const char *p;
	size_t n;
};

static int
starts(const struct aider_line *l, const char *s)
{
	size_t k = strlen(s);

	return l->n >= k && memcmp(l->p, s, k) == 0;
}

/* aider ends each line of the person's and its own with two spaces */
static int
broken(const struct aider_line *l)
{
	return l->n >= 2 && memcmp(l->p + l->n - 2, "  ", 2) == 0;
}

/* the line's text after its first skip bytes ("#### ", "> "), without the
 * two spaces aider ends it with */
static size_t
aider_body(const struct aider_line *l, size_t skip)
{
	size_t n = l->n > skip ? l->n - skip : 0;

	if (broken(l))
		n = n >= 2 ? n - 2 : 0;
	return n;
}

static enum aider_kind
aider_kind(const struct aider_line *l)
{
	size_t i;

	for (i = 0; i < l->n && (l->p[i] == ' ' || l->p[i] == '\t'); i++)
		;
	if (i == l->n)
		return AK_BLANK;
	if (starts(l, AIDER_START))
		return AK_START;
	if (starts(l, "#### ") || (l->n == 4 && starts(l, "####")))
		return AK_USER;
	if (starts(l, "> ") || (l->n == 1 && l->p[0] == '>'))
		return AK_TOOL;
	return AK_TEXT;
}

/* "YYYY-MM-DD HH:MM:SS", aider's local time, in epoch milliseconds */
static int
aider_time(const char *s, size_t n, int64_t *ms)
{
	struct tm tm = { 0 };
	char buf[32], *end;
	time_t t;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n != 19)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if ((end = strptime(buf, "%Y-%m-%d %H:%M:%S", &tm)) == NULL ||
	    *end != '\0')
		return -1;
	tm.tm_isdst = -1;
	if ((t = mktime(&tm)) == (time_t)-1)
		return -1;
	*ms = (int64_t)t * 1000;
	return 0;
}

struct aider_state {
	struct mig_reader *r;
	char place[9];		/* the file's, in the ids: 8 hex digits */
	json_t *starts;		/* start time -> sessions seen with it */
	/* the session being read */
	char *id;
	int64_t ms;
	size_t line;		/* of its start */
	json_t *msgs;
	/* the message being read */
	enum aider_kind kind;
	struct buf text;
	size_t blanks;		/* blank lines since its last line */
};

/* aider's answer for the person, when a group of questions had one: a
 * question it asked, "(Y)es/(N)o… [Yes]: a", not something they typed */
static int
aider_asked(const char *s, size_t n)
{
	return memmem(s, n, "(Y)es/(N)o", strlen("(Y)es/(N)o")) != NULL &&
	    memchr(s, '\n', n) == NULL && memmem(s, n, "]: ", 3) != NULL;
}

/* the message being read into the session's: the person's, the model's, or
 * aider's own (a tool message) */
static void
aider_flush(struct aider_state *st)
{
	struct buf id = { 0 };
	const char *role, *t = st->text.data ? st->text.data : "";
	size_t n = st->text.len;
	json_t *msg, *tools;

	if (st->kind == AK_BLANK || st->msgs == NULL)
		goto out;
	role = st->kind == AK_USER ? "user" : st->kind == AK_TOOL ? "tool" :
	    "assistant";
	/* an empty line submitted: aider writes "<blank>", and does nothing */
	if (st->kind == AK_USER && n == strlen("<blank>") &&
	    memcmp(t, "<blank>", n) == 0)
		goto out;
	if (st->kind == AK_USER && aider_asked(t, n))
		role = "tool";
	buf_addf(&id, "%s-%zu", st->id, json_array_size(st->msgs));
	msg = mig_message(id.data, st->ms, role, t, n);
	if (st->kind == AK_TEXT && memmem(t, n, "<<<<<<< SEARCH",
	    strlen("<<<<<<< SEARCH")) != NULL) {
		tools = json_array();
		mig_tool_add(tools, "edit");
		mig_set_tools(msg, tools);
		json_decref(tools);
	}
	json_array_append_new(st->msgs, msg);
out:
	buf_free(&id);
	st->text.len = 0;
	st->kind = AK_BLANK;
	st->blanks = 0;
}

/* the session read so far into a conversation */
static void
aider_end(struct aider_state *st)
{
	json_t *c;

	aider_flush(st);
	if (st->msgs == NULL)
		return;
	if (json_array_size(st->msgs) > 0) {
		c = mig_conversation_of(st->r, st->id, st->msgs, NULL);
		mig_add(st->r, c, 1, 1);
	} else
		mig_note(st->r, "'%s': line %zu: a session with no message; "
		    "skipped", st->r->src->file, st->line);
	json_decref(st->msgs);
	st->msgs = NULL;
	free(st->id);
	st->id = NULL;
}

/*
 * a session's id: aider-PLACE-YYYYMMDDTHHMMSS, PLACE the file's, and -N for
 * the Nth session of the file to start in the same second: the same session
 * has it on every import, however the file grows
 */
static int
aider_start(struct aider_state *st, const struct aider_line *l, size_t line,
    struct error *e)
{
	const char *s = l->p + strlen(AIDER_START);
	size_t n = l->n - strlen(AIDER_START), k;
	struct buf id = { 0 }, key = { 0 };
	json_t *seen;

	aider_end(st);
	if (aider_time(s, n, &st->ms) < 0)
		return mig_bad(st->r, e, "line %zu: '%.*s': expected a time, "
		    "YYYY-MM-DD HH:MM:SS", line, (int)(n > 40 ? 40 : n), s);
	buf_add(&key, s, 19);
	seen = json_object_get(st->starts, key.data);
	k = seen != NULL ? (size_t)json_integer_value(seen) + 1 : 1;
	json_object_set_new(st->starts, key.data, json_integer((json_int_t)k));
	buf_addf(&id, "aider-%s-%.4s%.2s%.2sT%.2s%.2s%.2s", st->place, s, s + 5,
	    s + 8, s + 11, s + 14, s + 17);
	if (k > 1)
		buf_addf(&id, "-%zu", k);
	st->id = buf_detach(&id);
	st->line = line;
	st->msgs = json_array();
	buf_free(&key);
	return 0;
}

/*
 * 1: the "> " line that ends at nl, which does not end as aider ends its
 * lines, starts aider's message of many lines (only its first has "> "):
 * one of the lines after it ends so, before a blank line; else it is a
 * quote in the model's reply
 */
static int
aider_ahead(const char *nl, const char *end)
{
	struct aider_line m;
	const char *q;
	enum aider_kind k;

	for (m.p = nl; m.p < end; m.p = q) {
		m.p++;
		if ((q = memchr(m.p, '\n', (size_t)(end - m.p))) == NULL)
			q = end;
		m.n = (size_t)(q - m.p);
		if (m.n > 0 && m.p[m.n - 1] == '\r')
			m.n--;
		k = aider_kind(&m);
		if (k == AK_BLANK || k == AK_START || k == AK_USER)
			return 0;
		if (broken(&m))
			return 1;
	}
	return 0;
}

/* a line's text into the message being read, kind its kind */
static void
aider_add(struct aider_state *st, enum aider_kind kind, const char *p,
    size_t n)
{
	if (st->kind != kind)
		aider_flush(st);
	if (st->kind == kind) {
		/* the model's blank lines are its; between the lines of the
		 * person's or aider's they end one and start the next */
		if (st->text.len > 0 || st->blanks > 0)
			buf_addc(&st->text, '\n');
		while (st->blanks > 0) {
			buf_addc(&st->text, '\n');
			st->blanks--;
		}
	}
	st->kind = kind;
	buf_add(&st->text, p, n);
}

/* the file's place in the ids: from its real path, so that the file and the
 * directory that holds it, named any way, give the same */
static void
aider_place(struct aider_state *st)
{
	char real[PATH_MAX], sha[SHA256_HEX_LEN];
	const char *f = st->r->src->file;

	if (realpath(f, real) != NULL)
		f = real;
	sha256_hex(f, strlen(f), sha);
	memcpy(st->place, sha, 8);
	st->place[8] = '\0';
}

int
mig_read_aider(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	struct aider_state st = { 0 };
	struct aider_line l;
	const char *p = in->text, *end = in->text + in->len, *nl, *base;
	enum aider_kind kind;
	size_t line = 0, k;
	int rc = -1;

	base = strrchr(r->src->file, '/');
	base = base != NULL ? base + 1 : r->src->file;
	if (strcmp(base, AIDER_INPUT) == 0)
		return mig_bad(r, e, "only what was typed is in it, and "
		    ".aider.chat.history.md beside it has that too, with the "
		    "replies: import that");
	st.r = r;
	st.starts = json_object();
	aider_place(&st);
	for (; p < end; p = nl + 1) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		l.p = p;
		l.n = (size_t)(nl - p);
		if (l.n > 0 && l.p[l.n - 1] == '\r')
			l.n--;
		kind = aider_kind(&l);
		if (kind == AK_START) {
			if (aider_start(&st, &l, line, e) < 0)
				goto out;
			/* the sessions before it are converted: their text
			 * is not read again */
			mig_text_done(r, in, (size_t)(p - in->text));
			continue;
		}
		if (st.msgs == NULL) {
			if (kind == AK_BLANK)
				continue;
			mig_bad(r, e, "line %zu: text before the first '%sTIME'",
			    line, AIDER_START);
			goto out;
		}
		if (kind == AK_BLANK) {
			/* a blank line ends what the person typed, and what
			 * aider said */
			if (st.kind == AK_USER || st.kind == AK_TOOL)
				aider_flush(&st);
			else if (st.kind == AK_TEXT)
				st.blanks++;
			continue;
		}
		if (kind == AK_USER) {
			k = l.n > 4 ? 5 : 4;
			aider_add(&st, AK_USER, l.p + k, aider_body(&l, k));
			continue;
		}
		/* the model's reply starts after a blank line, so a "> "
		 * line right after a line of it is its quote; and nothing
		 * follows aider's own lines without one but more of them: a
		 * line right after them is the rest of a message of many */
		if (kind == AK_TOOL && st.kind == AK_TEXT && st.blanks == 0)
			kind = AK_TEXT;
		if (kind == AK_TEXT && st.kind == AK_TOOL) {
			aider_add(&st, AK_TOOL, l.p, aider_body(&l, 0));
			continue;
		}
		if (kind == AK_TOOL && (broken(&l) || aider_ahead(nl, end))) {
			k = l.n > 1 ? 2 : 1;
			aider_add(&st, AK_TOOL, l.p + k, aider_body(&l, k));
			continue;
		}
		aider_add(&st, AK_TEXT, l.p, l.n);
	}
	aider_end(&st);
	rc = 0;
out:
	json_decref(st.msgs);	/* a session left when a line was wrong */
	json_decref(st.starts);
	buf_free(&st.text);
	free(st.id);
	return rc;
}
