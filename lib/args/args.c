/*
 * args.c - the arguments of the commands `convctl mcp` offers as tools, one
 * table each (args.h): cmd/NAME.c gives its rows to the command line's
 * parser, lib/mcp/tools.c makes the tool's inputSchema and parses its
 * arguments from the same rows. A row's help is -h's; tool_help, when
 * given, is the tool's description where the command line's does not fit
 * (a default that differs, a flag the tool spells as a field).
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "args.h"

#define ROLE_HELP "user, assistant, system or tool"

const struct op_option args_add_options[] = {
	{ 'r', "role", "ROLE", ROLE_HELP " (user)", 0,
	    .tool = "role", .type = OPT_ROLE,
	    .tool_help = "whose message (user)" },
	{ 0, "tool", "NAME", "a tool used for this message; repeatable, at "
	    "most " NUM_TEXT(TOOL_MAX_COUNT) ", each one line of at most "
	    NUM_TEXT(TOOL_MAX_CHARS) " characters", OPTF_REPEAT,
	    .tool = "tools", .type = OPT_NAMES, .max = TOOL_MAX_COUNT,
	    .tool_help = "tools used for this message: at most "
	    NUM_TEXT(TOOL_MAX_COUNT) ", each one line of at most "
	    NUM_TEXT(TOOL_MAX_CHARS) " characters" },
	OPT(0, "at", "TIME", "the message's time, ISO 8601, not before the "
	    "last message nor 5 minutes after the clock (now; a clock behind "
	    "the last message records it at that message's time)", 0),
	OPT(0, "dedupe-key", "KEY", "add nothing when a message with this key "
	    "is in the active or the last ended conversation", 0),
	OPT(0, "expect-conversation", "ID", "write only into conversation ID, "
	    "else exit 4", 0),
	OPT(0, "template", "NAME", "a message that starts a conversation opens "
	    "it with template NAME as a system message", 0),
	{ 0 },
};
const struct op_option args_add_operands[] = {
	{ 0, NULL, "TEXT", "the message; standard input when absent",
	    OPTF_REQUIRED, .tool = "text", .type = OPT_TEXT,
	    .tool_help = "the message" },
	{ 0 },
};

const struct op_option args_end_options[] = {
	OPT(0, "no-summary", NULL, "end it without a title or summary", 0),
	{ 0 },
};

const struct op_option args_title_options[] = {
	OPT('n', "dry-run", NULL, "check, change nothing", 0),
	{ 0 },
};
const struct op_option args_title_operands[] = {
	{ 0, NULL, "ID", "the conversation, active or ended", OPTF_REQUIRED,
	    .tool = "id", .type = OPT_NAME },
	{ 0, NULL, "TEXT", "its title, one line of at most "
	    NUM_TEXT(TITLE_MAX_CHARS) " characters; summaries keep it (not "
	    "summarize --force)", OPTF_REQUIRED,
	    .tool = "title", .type = OPT_NAME, .tool_help = "its title" },
	{ 0 },
};

const struct op_option args_tag_options[] = {
	OPT('n', "dry-run", NULL, "print the tags it would have, change "
	    "nothing", 0),
	OPT(0, "json", NULL, "the tags as a JSON array", 0),
	{ 0, "remove", NULL, "remove the tags instead", 0,
	    .tool = "remove", .type = OPT_BOOL },
	{ 0 },
};
const struct op_option args_tag_operands[] = {
	{ 0, NULL, "ID", "the conversation, active or ended", OPTF_REQUIRED,
	    .tool = "id", .type = OPT_NAME },
	{ 0, NULL, "TAG", "a tag, one line of at most "
	    NUM_TEXT(TAG_MAX_CHARS) " characters; at most "
	    NUM_TEXT(TAGS_MAX) " a call, and on a conversation", OPTF_REQUIRED,
	    .tool = "tags", .type = OPT_NAMES, .min = 1, .max = TAGS_MAX,
	    .tool_help = "at most " NUM_TEXT(TAGS_MAX) " tags, each one line of "
	    "at most " NUM_TEXT(TAG_MAX_CHARS) " characters" },
	{ 0 },
};

const struct op_option args_search_options[] = {
	{ 'E', "regex", NULL, "QUERY is a POSIX extended regular expression",
	    0, .tool = "regex", .type = OPT_BOOL,
	    .tool_help = "query is a POSIX extended regular expression" },
	{ 0, "case-sensitive", NULL, "tell upper from lower case (they match "
	    "alike)", 0, .tool = "case_sensitive", .type = OPT_BOOL,
	    .tool_help = "tell upper from lower case" },
	{ 'r', "role", "ROLE", "only messages of ROLE: " ROLE_HELP, 0,
	    .tool = "role", .type = OPT_ROLE,
	    .tool_help = "only messages of this role" },
	{ 0, "since", "TIME", "only messages at or after TIME (ISO 8601)", 0,
	    .tool = "since", .type = OPT_TIME,
	    .tool_help = "only messages at or after this ISO 8601 time" },
	{ 0, "until", "TIME", "only messages before TIME", 0,
	    .tool = "until", .type = OPT_TIME,
	    .tool_help = "only messages before this ISO 8601 time" },
	{ 'n', NULL, "N", "only the newest N matching lines", 0,
	    .tool = "limit", .type = OPT_WHOLE, .min = 0, .max = RESULTS_MAX,
	    .tool_help = "only the newest N matching lines ("
	    NUM_TEXT(SEARCH_PAGE) ")" },
	{ 0, "tag", "TAG", "only conversations tagged TAG", 0,
	    .tool = "tag", .type = OPT_NAME,
	    .tool_help = "only conversations with this tag" },
	{ 0, "tool", "NAME", "only messages whose tools used include NAME", 0,
	    .tool = "tool", .type = OPT_NAME,
	    .tool_help = "only messages whose tools used include this one" },
	OPT(0, "json", NULL, "a JSON array of {id, messageId, timestamp, role, "
	    "lineNumber, line, match, matches}", 0),
	OPT(0, "color", "WHEN", "colour the matches: auto (on a terminal, TERM "
	    "not dumb, NO_COLOR not set), always or never", 0),
	{ 0 },
};
const struct op_option args_search_operands[] = {
	{ 0, NULL, "QUERY", "text to find in the lines of messages, at most "
	    NUM_TEXT(SEARCH_QUERY_MAX_CHARS) " characters", OPTF_REQUIRED,
	    .tool = "query", .type = OPT_NAME, .max = SEARCH_QUERY_MAX_CHARS,
	    .tool_help = "text to find, at most "
	    NUM_TEXT(SEARCH_QUERY_MAX_CHARS) " characters; case is ignored "
	    "unless case_sensitive" },
	{ 0 },
};

const struct op_option args_recent_options[] = {
	{ 'n', NULL, "N", "at most N conversations (10)", 0,
	    .tool = "limit", .type = OPT_WHOLE, .min = 0, .max = RESULTS_MAX },
	OPT(0, "json", NULL, "a JSON array of {id, title, summary, startedAt, "
	    "endedAt, messageCount, tags, pinned}", 0),
	{ 0, "tag", "TAG", "only conversations tagged TAG", 0,
	    .tool = "tag", .type = OPT_NAME,
	    .tool_help = "only conversations with this tag" },
	{ 0 },
};

const struct op_option args_show_options[] = {
	{ 'f', "format", "FMT", "text, markdown or json (text)", 0,
	    .tool = "format", .type = OPT_FORMAT, .formats = SHOW_FORMATS,
	    .tool_help = "the text's format (text)" },
	OPT(0, "json", NULL, "the same as --format json", 0),
	{ 0 },
};
const struct op_option args_show_operands[] = {
	{ 0, NULL, "ID", "the conversation; default: the active one, else the "
	    "one that ended last", 0, .tool = "id", .type = OPT_NAME },
	{ 0 },
};

const struct op_option args_prompt_options[] = {
	{ 'f', "format", "FMT", "text (SmartHole's), markdown, openai (a JSON "
	    "messages array) or jsonl (text)", 0,
	    .tool = "format", .type = OPT_FORMAT, .formats = PROMPT_FORMATS,
	    .tool_help = "the text's format (text)" },
	OPT(0, "json", NULL, "the same as --format openai", 0),
	{ 0, "last", "N", "the opening system messages and the newest N "
	    "others", 0, .tool = "last", .type = OPT_WHOLE, .min = 0,
	    .max = PROMPT_MAX },
	{ 0, "max-tokens", "N", "the opening system messages and the newest "
	    "messages whose estimated tokens fit in N (a token per 4 "
	    "characters); the newest cut if it alone does not", 0,
	    .tool = "max_tokens", .type = OPT_WHOLE, .min = 0,
	    .max = PROMPT_MAX, .tool_help = "the newest messages that fit in N "
	    "tokens (a token per 4 characters)" },
	{ 0 },
};
const struct op_option args_prompt_operands[] = {
	{ 0, NULL, "ID", "the conversation, active or ended; default: the "
	    "active one", 0, .tool = "id", .type = OPT_NAME },
	{ 0 },
};

/* the MCP prompt resume's arguments (prompt's, as a client fills them in:
 * strings; no command line) */
const struct op_option args_resume_prompt[] = {
	{ .arg = "ID", .help = "the conversation's id; default: the active "
	    "one, else the one that ended last", .tool = "id",
	    .type = OPT_NAME },
	{ .arg = "N", .help = "only the opening system messages and the "
	    "newest N others (a whole number)", .tool = "last",
	    .type = OPT_WHOLE, .min = 0, .max = PROMPT_MAX },
	{ .arg = "N", .help = "only the opening system messages and the "
	    "newest messages that fit in N tokens, a token per 4 characters "
	    "(a whole number)", .tool = "max_tokens", .type = OPT_WHOLE,
	    .min = 0, .max = PROMPT_MAX },
	{ 0 },
};

/* the rows a tool that answers a page of a list alone takes */
const struct op_option args_page[] = {
	{ .tool = "cursor", .type = OPT_CURSOR,
	    .help = "the nextCursor of the previous answer: the older page "
	    "that follows it" },
	{ 0 },
};

const struct op_option *
args_row(const struct op_option *t, const char *name)
{
	for (; !OPT_END(t); t++)
		if (t->name != NULL ? strcmp(t->name, name) == 0 :
		    t->key == name[0] && name[1] == '\0')
			return t;
	abort();	/* no such row: the caller's table is wrong */
}
