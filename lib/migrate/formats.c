/*
 * formats.c - the formats migrate imports, one row each, and telling a
 * source's format from --format, its name or its content. It knows each
 * format's name, file endings and detect/read functions, not how they read,
 * and nothing of the store or the imports ledger.
 *
 * To add a format NAME (ChatGPT's export, a coding agent's log…):
 *  1. Add MIGRATE_NAME to enum migrate_format in lib/migrate/import.h, before
 *     MIGRATE_DETECT: that order is the one errors list the names in.
 *  2. Write lib/migrate/NAME.c (copy the smallest, messages.c): a
 *     mig_read_NAME() that checks the source's shape as it goes, fails on the
 *     first thing wrong with mig_bad() naming the JSON path (or the line),
 *     builds conversations with reader.h's helpers (mig_message(),
 *     mig_conversation_of(), mig_keep_extra() so no field is lost) and hands
 *     each to mig_add(); and a mig_detect_NAME() when its parsed content can
 *     be told from the others'. Declare both in formats.h.
 *  3. Add its row to mig_formats[] below, before any row whose shape would
 *     also take its files: rows are tried in order, most particular first.
 *     A format of JSON lines sets "lines" and a detect() that is given one
 *     line; a format that is not JSON at all (Markdown) a sniff() instead,
 *     given the text.
 *  4. Add fuzz/fuzz_migrate_NAME.c (copy one: FUZZ_FORMAT, FUZZ_EXT) to
 *     FUZZ_HARNESSES in the Makefile, its seeds to tests/fuzz-corpus/
 *     migrate_NAME/, tests to tests/cli/migrate-NAME.t, and the name to
 *     man/convctl-migrate.1, --format's help in cmd/migrate.c and
 *     completions/.
 */
#include <stdlib.h>
#include <string.h>

#include "formats.h"

static const char *const jsonl_suffixes[] = { ".jsonl", ".ndjson", NULL };
static const char *const md_suffixes[] = { ".md", ".markdown", NULL };
static const char *const aider_suffixes[] = { ".aider.chat.history.md",
    ".aider.input.history", NULL };

/* in the order content is tried against them, the most particular first */
const struct mig_format mig_formats[] = {
	/* our own first: a store, or one conversation as show writes it, in
	 * JSON or in Markdown */
	{ "convctl", MIGRATE_CONVCTL, NULL, 0, mig_detect_convctl,
	    mig_read_convctl, NULL, 1, 0 },
	/* aider's log, before markdown, whose ".md" its name ends with */
	{ "aider", MIGRATE_AIDER, aider_suffixes, 0, NULL, mig_read_aider,
	    mig_sniff_aider, 0, 0 },
	{ "markdown", MIGRATE_MARKDOWN, md_suffixes, 0, NULL,
	    mig_read_markdown, mig_sniff_markdown, 0, 0 },
	/* Gemini CLI's: lines, or an older release's session, checkpoint or
	 * log of prompts whole, each told by fields no other has */
	{ "gemini", MIGRATE_GEMINI, NULL, 1, mig_detect_gemini,
	    mig_read_gemini, NULL, 0, 0 },
	/* arrays whose first item says whose they are, before messages */
	{ "chatgpt", MIGRATE_CHATGPT, NULL, 0, mig_detect_chatgpt,
	    mig_read_chatgpt, NULL, 0, 1 },
	{ "claudeai", MIGRATE_CLAUDEAI, NULL, 0, mig_detect_claudeai,
	    mig_read_claudeai, NULL, 0, 1 },
	{ "llm", MIGRATE_LLM, NULL, 0, mig_detect_llm, mig_read_llm, NULL, 0, 0 },
	{ "messages", MIGRATE_MESSAGES, NULL, 0, mig_detect_messages,
	    mig_read_messages, NULL, 0, 0 },
	{ "smarthole", MIGRATE_SMARTHOLE, NULL, 0, mig_detect_smarthole,
	    mig_read_smarthole, NULL, 1, 0 },
	{ "aiwhisperer", MIGRATE_AIWHISPERER, NULL, 0, mig_detect_aiwhisperer,
	    mig_read_aiwhisperer, NULL, 0, 0 },
	{ "chatsidian", MIGRATE_CHATSIDIAN, NULL, 0, mig_detect_chatsidian,
	    mig_read_chatsidian, NULL, 0, 0 },
	/* JSON lines, told by their first lines that say whose they are */
	{ "claude", MIGRATE_CLAUDE, NULL, 1, mig_detect_claude,
	    mig_read_claude, NULL, 0, 0 },
	{ "codex", MIGRATE_CODEX, NULL, 1, mig_detect_codex, mig_read_codex,
	    NULL, 0, 0 },
	/* last: any object with a "role" is a log of one record, and any
	 * other JSON lines are this */
	{ "jsonl", MIGRATE_JSONL, jsonl_suffixes, 1, mig_detect_jsonl,
	    mig_read_jsonl, NULL, 0, 0 },
	{ NULL, MIGRATE_DETECT, NULL, 0, NULL, NULL, NULL, 0, 0 },
};

const struct mig_format *
mig_format(enum migrate_format id)
{
	const struct mig_format *f;

	for (f = mig_formats; f->name != NULL; f++)
		if (f->id == id)
			return f;
	return NULL;
}

int
migrate_format_parse(const char *s, enum migrate_format *id)
{
	const struct mig_format *f;

	for (f = mig_formats; f->name != NULL; f++)
		if (strcmp(s, f->name) == 0) {
			*id = f->id;
			return 0;
		}
	return -1;
}

const char *
migrate_format_name(enum migrate_format id)
{
	const struct mig_format *f = mig_format(id);

	return f != NULL ? f->name : "detect";
}

/* "smarthole, messages, …" in convctl.h's order; made once, kept */
const char *
migrate_format_list(void)
{
	static struct buf list;
	const struct mig_format *f;
	int id;

	if (list.len > 0)
		return list.data;
	for (id = 0; id < MIGRATE_DETECT; id++)
		if ((f = mig_format((enum migrate_format)id)) != NULL)
			buf_addf(&list, "%s%s", list.len > 0 ? ", " : "",
			    f->name);
	return list.data;
}

/* telling the format */

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* the format the file's name says, or NULL */
static const struct mig_format *
by_name(const char *file)
{
	const struct mig_format *f;
	const char *const *x;

	for (f = mig_formats; f->name != NULL; f++)
		for (x = f->suffixes; x != NULL && *x != NULL; x++)
			if (has_suffix(file, *x))
				return f;
	return NULL;
}

/* the first text format text is, or NULL */
static const struct mig_format *
by_sniff(const char *text, size_t len)
{
	const struct mig_format *f;

	for (f = mig_formats; f->name != NULL; f++)
		if (f->sniff != NULL && f->sniff(text, len))
			return f;
	return NULL;
}

/* the first format whose shape root has, or NULL */
static const struct mig_format *
by_shape(json_t *root)
{
	const struct mig_format *f;

	for (f = mig_formats; f->name != NULL; f++)
		if (f->detect != NULL && f->detect(root))
			return f;
	return NULL;
}

/* how many lines by_lines() looks at before it takes the last lines format */
#define DETECT_LINES 20

/*
 * the first lines format one of the first lines of text has the shape of,
 * else the last lines format (jsonl, which takes any)
 */
static const struct mig_format *
by_lines(const char *text, size_t len)
{
	const struct mig_format *f, *last = NULL;
	const char *p = text, *end = text + len, *nl;
	json_t *line;
	int n = 0;

	for (f = mig_formats; f->name != NULL; f++)
		if (f->lines)
			last = f;
	for (; p < end && n < DETECT_LINES; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((line = json_loadb(p, (size_t)(nl - p), JSON_LOAD_FLAGS,
		    NULL)) == NULL)
			continue;
		n++;
		for (f = mig_formats; f->name != NULL; f++)
			if (f->lines && f != last && f->detect(line))
				break;
		json_decref(line);
		if (f->name != NULL)
			return f;
	}
	return last;
}

/*
 * text as one JSON value; *lines set instead when detecting and more than one
 * value follows another, the next an object: JSON lines, not garbage
 */
static json_t *
parse(struct mig_source *s, const char *text, size_t len, int detecting,
    int *lines, struct error *e)
{
	json_error_t je;
	json_t *v;
	size_t i;
	int line, column;

	*lines = 0;
	v = json_loadb(text, len, JSON_LOAD_FLAGS | JSON_DISABLE_EOF_CHECK, &je);
	if (v != NULL) {
		for (i = je.position; i < len; i++)
			if (strchr(" \t\r\n", text[i]) == NULL)
				break;
		if (i < len) {
			/* more after the first value: JSON lines, or garbage */
			json_decref(v);
			if (detecting && text[i] == '{') {
				*lines = 1;
				return NULL;
			}
			v = json_loadb(text, len, JSON_LOAD_FLAGS, &je);
		}
	}
	if (v == NULL) {
		json_error_place(text, len, &je, &line, &column);
		error_set(e, "'%s':%d:%d: %s", s->file, line, column, je.text);
	}
	return v;
}

int
mig_detect(struct mig_reader *r, const char *text, size_t len, json_t **root,
    struct error *e)
{
	struct mig_source *s = r->src;
	const struct mig_format *f = mig_format(r->rq->format);
	int lines;

	*root = NULL;
	/* named, or text that is not JSON (Markdown), or named by its name */
	if (f == NULL && (f = by_sniff(text, len)) == NULL &&
	    (f = by_name(s->file)) != NULL && f->lines)
		f = by_lines(text, len);	/* JSON lines: whose, lines say */
	if (f != NULL && (f->lines || f->sniff != NULL)) {	/* read as text */
		s->format = f->id;
		return 0;
	}
	*root = parse(s, text, len, f == NULL, &lines, e);
	if (lines)
		f = by_lines(text, len);
	else if (*root == NULL)
		return -1;
	else if (f == NULL)
		f = by_shape(*root);
	if (f == NULL)
		return error_set(e, "'%s': cannot tell its format; name it with "
		    "--format (%s)", s->file, migrate_format_list());
	s->format = f->id;
	if (f->lines) {		/* read as text, line by line */
		json_decref(*root);
		*root = NULL;
	}
	return 0;
}

int
mig_detect_items(struct mig_reader *r, struct mig_input *in)
{
	const struct mig_format *f = mig_format(r->rq->format), *g;
	json_t *first, *probe;
	struct mig_span *v;
	size_t n;

	if (f != NULL ? !f->items : by_sniff(in->text, in->len) != NULL ||
	    by_name(r->src->file) != NULL)
		return 0;
	if (mig_array_items(in->text, in->len, &v, &n) < 0)
		return 0;
	/* the formats' detect() look at an array's first item */
	first = json_loadb(in->text + v[0].off, v[0].len, JSON_LOAD_FLAGS |
	    JSON_DECODE_ANY, NULL);
	probe = json_array();
	if (first != NULL)
		json_array_append_new(probe, first);
	g = f != NULL ? f : first != NULL ? by_shape(probe) : NULL;
	json_decref(probe);
	if (g == NULL || !g->items) {
		free(v);
		return 0;
	}
	r->src->format = g->id;
	in->items = v;
	in->nitems = n;
	return 1;
}
