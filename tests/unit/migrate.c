/*
 * migrate.c - the table of migrate's formats (lib/migrate/formats.c) is
 * whole: one row per enum value, each named once, readable, and told apart
 * by its name or its content; the names convctl lists come from it.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate/formats.h"
#include "tap.h"

/* the format mig_detect() tells from file's name and text, or "error" */
static const char *
told(const char *file, const char *text)
{
	struct migrate_request rq = { .format = MIGRATE_DETECT };
	struct mig_source src = { .file = (char *)file };
	struct mig_reader r = { .rq = &rq, .src = &src };
	struct error e;
	json_t *root = NULL;
	int rc = mig_detect(&r, text, strlen(text), &root, &e);

	json_decref(root);
	return rc < 0 ? "error" : migrate_format_name(src.format);
}

/* shapes more than one format would take go to the one tried first */
static void
detection(struct buf *name)
{
	static const struct { const char *file, *text, *want; } cases[] = {
		{ "a.json", "[]", "messages" },
		{ "a.json", "{\"conversations\": [], \"tasks\": {}}", "smarthole" },
		{ "a.json", "{\"tasks\": {}, \"id\": \"x\", \"messages\": []}",
		    "aiwhisperer" },
		{ "a.json", "{\"id\": \"x\", \"messages\": [], \"role\": 1}",
		    "chatsidian" },
		{ "a.json", "{\"role\": \"user\", \"tasks\": {}}", "aiwhisperer" },
		{ "a.json", "{\"role\": \"user\"}", "jsonl" },
		{ "a.json", "{\"role\": \"user\"}\n{\"role\": \"user\"}", "jsonl" },
		{ "a.json", "[] []", "error" },
		{ "a.json", "{\"other\": 1}", "error" },
		{ "a.jsonl", "[]", "jsonl" },
		{ "a.ndjson", "not json", "jsonl" },
		{ "a.json", "[{\"mapping\": {}}]", "chatgpt" },
		{ "a.json", "[{\"datetime_utc\": 1, \"response\": 2}]", "llm" },
		{ "a.json", "[{\"role\": \"user\", \"response\": 2}]",
		    "messages" },
		{ "a.json", "{\"id\": \"x\", \"startedAt\": 1, "
		    "\"messages\": []}", "convctl" },
		{ "a.json", "{\"version\": 1, \"conversations\": []}",
		    "convctl" },
		{ "a.json", "{\"lastMigrated\": 1, \"conversations\": []}",
		    "smarthole" },
		{ "a.txt", "# T\n\n- **Id:** x\n", "markdown" },
		{ "a.md", "# T\n", "markdown" },
		{ "a.jsonl", "{\"type\": \"summary\", \"leafUuid\": \"u\"}\n"
		    "{\"type\": \"user\", \"sessionId\": \"s\"}", "claude" },
		{ "a.jsonl", "x\n{\"type\": \"turn_context\", \"payload\": {}}",
		    "codex" },
		{ "a.json", "{\"type\": \"session_meta\", \"payload\": {}}\n"
		    "{\"type\": \"event_msg\", \"payload\": {}}", "codex" },
		{ "a.json", "{\"type\": \"user\", \"sessionId\": \"s\"}",
		    "claude" },
		{ "a.jsonl", "{\"type\": \"user\"}", "jsonl" },
		{ "a.json", "[{\"uuid\": \"u\", \"chat_messages\": []}]",
		    "claudeai" },
		{ "a.json", "[{\"uuid\": \"u\", \"chat_messages\": 1}]",
		    "messages" },
		{ "a.txt", "\n# aider chat started at 2025-09-14 08:00:01\n",
		    "aider" },
		{ "a.md", "# aider chat started at 2025-09-14 08:00:01\n",
		    "aider" },
		{ "p/.aider.chat.history.md", "", "aider" },
		{ ".aider.input.history", "\n# 2025-09-14 08:00:05.1\n+x\n",
		    "aider" },
		{ "a.md", "# aider chat\n", "markdown" },
		{ "a.jsonl", "{\"sessionId\": \"s\", \"projectHash\": \"h\"}\n"
		    "{\"$set\": {}}", "gemini" },
		{ "a.json", "{\"sessionId\": \"s\", \"projectHash\": \"h\", "
		    "\"messages\": []}", "gemini" },
		{ "a.json", "[{\"sessionId\": \"s\", \"messageId\": 0, "
		    "\"type\": \"user\", \"message\": \"m\"}]", "gemini" },
		{ "a.json", "{\"history\": [{\"role\": \"user\", "
		    "\"parts\": []}]}", "gemini" },
	};
	char text[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		error_printable(text, sizeof(text), cases[i].text);
		is_str(told(cases[i].file, cases[i].text), cases[i].want,
		    mig_path(name, "%s %s is %s", cases[i].file, text,
		    cases[i].want));
	}
}

int
main(void)
{
	const struct mig_format *f, *g;
	enum migrate_format id;
	struct buf want = { 0 };
	struct buf name = { 0 };
	int i, rows = 0, once, named;

	for (f = mig_formats; f->name != NULL; f++) {
		rows++;
		ok(f->read != NULL && (f->detect != NULL || f->suffixes != NULL),
		    mig_path(&name, "%s: a reader, and a way to tell it",
		    f->name));
		for (once = 1, g = mig_formats; g->name != NULL; g++)
			if (g != f && (g->id == f->id ||
			    strcmp(g->name, f->name) == 0))
				once = 0;
		ok(once && f->id < MIGRATE_DETECT, mig_path(&name,
		    "%s: its name and enum once", f->name));
	}
	is_int(rows, MIGRATE_DETECT, "a row for each enum value");
	for (i = 0; i < MIGRATE_DETECT; i++) {
		f = mig_format((enum migrate_format)i);
		named = f != NULL && migrate_format_parse(f->name, &id) == 0 &&
		    id == (enum migrate_format)i && strcmp(migrate_format_name(
		    (enum migrate_format)i), f->name) == 0;
		ok(named, mig_path(&name, "enum %d: its name parses back", i));
		if (f != NULL)
			buf_addf(&want, "%s%s", i > 0 ? ", " : "", f->name);
	}
	is_str(migrate_format_list(), want.data, "the list, in enum order");
	is_str(migrate_format_list(), "smarthole, messages, jsonl, chatsidian, "
	    "aiwhisperer, chatgpt, claude, codex, llm, convctl, markdown, "
	    "claudeai, aider, gemini",
	    "the list errors show");
	ok(migrate_format_parse("detect", &id) < 0 &&
	    migrate_format_parse("", &id) < 0, "no other name parses");
	is_str(migrate_format_name(MIGRATE_DETECT), "detect",
	    "MIGRATE_DETECT is named detect");
	detection(&name);
	buf_free(&want);
	buf_free(&name);
	return done();
}
