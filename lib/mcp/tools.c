/*
 * tools.c - the tools of `convctl mcp`: search, recent, show, context, add,
 * end, title and tag, each doing what its command does through the same
 * library call: the writes through lib/ops (ops_add, ops_end, ops_title,
 * ops_tag), the reads with the store opened for the one call and closed
 * before the answer. Their arguments come parsed from their command's
 * table (args.c). A tool whose answer is data (search,
 * recent, add, end, title, tag) gives the command's --json as structured
 * content; show and context, whose answer is text in the format asked for,
 * give that text alone.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static void
warn(const struct mcp_config *cf, const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;

	if (cf->warn == NULL)
		return;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	cf->warn(cf->warn_arg, b.data);
	buf_free(&b);
}

/*
 * A page of a list, rendered as JSON into json by render(arg, from, n):
 * n items from from, fewer while the JSON is over MCP_ANSWER_MAX (one at
 * least); *more set when items are left after them. The number rendered.
 */
static size_t
page_of(struct buf *json, size_t from, size_t n, int *more,
    void (*render)(struct buf *, void *, size_t, size_t), void *arg)
{
	for (;;) {
		json->len = 0;
		render(json, arg, from, n);
		if (json->len <= MCP_ANSWER_MAX || n <= 1)
			return n;
		n /= 2;
		*more = 1;
	}
}

/* {"nextCursor": the position after the page}, when more follow */
static void
next_cursor(struct mcp_answer *a, size_t at, int more)
{
	char next[24];

	if (!more)
		return;
	snprintf(next, sizeof(next), "%zu", at);
	json_object_set_new(a->structured, "nextCursor", json_string(next));
}

/* a text over MCP_ANSWER_MAX cut there (at a character's start), and the
 * cut said in a last line, with what to ask for instead */
static void
bound_text(struct mcp_answer *a, const char *instead)
{
	size_t len = a->text.len, n = MCP_ANSWER_MAX;

	if (len <= n)
		return;
	while (n > 0 && ((unsigned char)a->text.data[n] & 0xC0) == 0x80)
		n--;
	a->text.len = n;
	buf_addf(&a->text, "\n[convctl: cut here, at %zu of its %zu bytes; %s]"
	    "\n", n, len, instead);
}

static struct store *
open_store(const struct mcp_config *cf, enum store_mode mode,
    struct mcp_answer *a)
{
	struct store *st = NULL;
	struct error e;

	if (lifecycle_begin(cf->settings, mode, &st, &e) < 0) {
		mcp_fail(a, "%s", e.msg);
		return NULL;
	}
	return st;
}

/* a line an operation says (what the rolling limit removed), as a warning */
static void
say(void *cf, const char *line)
{
	warn(cf, "%s", line);
}

/* search_page's list: the page's hits, the newest last, and the page
 * made of them, a value (search --json's array), measured as the JSON it
 * is */
struct search_page {
	const struct search_result *res;
	size_t end;
	json_t *list;
};

/* the newest n of the page (its end, from must be 0) */
static void
search_page(struct buf *json, void *arg, size_t from, size_t n)
{
	struct search_page *p = arg;
	struct search_result r = *p->res;

	(void)from;
	r.hits += p->end - n;
	r.n = n;
	json_decref(p->list);
	p->list = search_json(&r);
	json_dump_buf(json, p->list);
}

static void
tool_search(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	const struct tool_value *since = tool_arg(args, "since"),
	    *until = tool_arg(args, "until");
	struct search_request rq = {
	    .role = (int)tool_long(args, "role", -1),
	    .since = since != NULL ? since->ms : -1,
	    .until = until != NULL ? until->ms : -1,
	    .tag = tool_str(args, "tag"), .tool = tool_str(args, "tool"),
	    .max = tool_long(args, "limit", SEARCH_PAGE) };
	struct search_result res = { 0 }, page;
	struct search *s = NULL;
	struct store *st = NULL;
	struct buf json = { 0 };
	struct search_page ctx_search = { NULL, 0, NULL };
	struct error e;
	long limit = rq.max;
	size_t off = (size_t)tool_long(args, "cursor", 0), n;
	int more;

	/* the newest off + limit, and one more to tell whether any are left */
	rq.max += (long)off + 1;
	if (search_compile(&s, tool_str(args, "query"),
	    (int)tool_long(args, "regex", 0),
	    (int)tool_long(args, "case_sensitive", 0), &e) < 0) {
		mcp_fail(a, "argument 'query': %s", e.msg);
		return;
	}
	if ((st = open_store(cf, STORE_READ, a)) == NULL)
		goto out;
	if (search_run(st, s, &rq, &res, &e) < 0) {
		mcp_fail(a, "%s", e.msg);
		goto out;
	}
	/* a page: the limit newest of those older than the cursor's, oldest
	 * first as search lists them */
	page = res;
	n = res.n > off ? res.n - off : 0;
	/* limit 0 asks for none, and for no next page */
	more = limit > 0 && n > (size_t)limit;
	if (n > (size_t)limit)
		n = (size_t)limit;
	page.hits = res.hits + (res.n > off ? res.n - off - n : 0);
	ctx_search.res = &page;
	ctx_search.end = n;
	n = page_of(&json, 0, n, &more, search_page, &ctx_search);
	a->structured = json_pack("{s:o}", "hits", ctx_search.list);
	ctx_search.list = NULL;
	next_cursor(a, off + n, more);
out:
	json_decref(ctx_search.list);
	buf_free(&json);
	search_result_free(&res);
	store_close(st);
	search_free(s);
}

/* recent_page's list: the conversations, and the page made of them, a
 * value (recent --json's array), measured as the JSON it is */
struct recent_page {
	struct conv **v;
	json_t *list;
};

static void
recent_page(struct buf *json, void *arg, size_t from, size_t n)
{
	struct recent_page *p = arg;

	json_decref(p->list);
	p->list = render_recent_json(p->v + from, n);
	json_dump_buf(json, p->list);
}

static void
tool_recent(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	struct store *st;
	struct recent_page page = { NULL, NULL };
	struct buf json = { 0 };
	struct error e;
	const char *tag = tool_str(args, "tag");
	long limit = tool_long(args, "limit", 10);
	size_t n, off = (size_t)tool_long(args, "cursor", 0);
	int more;

	if ((st = open_store(cf, STORE_READ, a)) == NULL)
		return;
	/* the newest up to the page's end and one more, without messages */
	if (conv_recent(st, off + (size_t)limit + 1, tag, &page.v, &n,
	    &e) < 0) {
		mcp_fail(a, "%s", e.msg);
		goto out;
	}
	n = n > off ? n - off : 0;
	/* limit 0 asks for none, and for no next page */
	more = limit > 0 && n > (size_t)limit;
	if (n > (size_t)limit)
		n = (size_t)limit;
	n = page_of(&json, off, n, &more, recent_page, &page);
	a->structured = json_pack("{s:o}", "conversations", page.list);
	next_cursor(a, off + n, more);
out:
	buf_free(&json);
	free(page.v);
	store_close(st);
}

/* the conversation id names, else conv_default's (ended_too); NULL
 * when there is none: with ended_too an error, else *a is left alone */
static struct conv *
pick(struct store *st, const char *id, int ended_too, struct mcp_answer *a)
{
	struct conv *c;
	struct error e;

	if (id != NULL) {
		if ((c = store_get(st, id, &e)) == NULL)
			mcp_fail(a, "%s", e.msg);
		return c;
	}
	if (conv_default(st, ended_too, &c, &e) < 0) {
		mcp_fail(a, "%s", e.msg);
		return NULL;
	}
	if (c == NULL && ended_too)
		mcp_fail(a, "no conversations in '%s'", store_path(st));
	return c;
}

static void
tool_show(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	enum format f = (enum format)tool_long(args, "format", FMT_TEXT);
	struct store *st;
	struct conv *c;
	struct error e;

	if ((st = open_store(cf, STORE_READ, a)) == NULL)
		return;
	if ((c = pick(st, tool_str(args, "id"), 1, a)) == NULL)
		goto out;
	/* the text asked for, alone: what the agent's model is given */
	if (render_conv(&a->text, c, f, 0, &e) < 0)
		mcp_fail(a, "%s", e.msg);
	else
		bound_text(a, "the tool context with max_tokens gives the "
		    "newest messages; the resource convctl://conversation/ID "
		    "all of it");
out:
	store_close(st);
}

static void
tool_context(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	struct prompt_request rq = {
	    (enum format)tool_long(args, "format", FMT_TEXT),
	    tool_long(args, "last", -1), tool_long(args, "max_tokens", -1),
	    0, 0, "max_tokens" };	/* named as the argument in an error */
	struct store *st;
	struct conv *c = NULL;
	struct error e;

	if ((st = open_store(cf, STORE_READ, a)) == NULL)
		return;
	if ((c = pick(st, tool_str(args, "id"), 0, a)) == NULL && a->is_error)
		goto out;
	/* nothing active: nothing to say, and that is no error; the text
	 * asked for, alone, is what the agent's model is given */
	if (render_prompt(&a->text, c, &rq, &e) < 0) {
		mcp_fail(a, "%s", e.msg);
		goto out;
	}
	if (rq.cut > 0)
		warn(cf, "the newest message alone is over max_tokens %ld: its "
		    "first %zu characters are cut", rq.max_tokens, rq.cut);
	bound_text(a, "max_tokens or last gives the newest messages that fit");
out:
	store_close(st);
}

/* a clock behind the last message, as the command warns of it */
static void
skew(const struct mcp_config *cf, int64_t clock, int64_t last,
    const char *done)
{
	struct buf b = { 0 };

	ops_skew_line(&b, clock, last, done);
	warn(cf, "%s", b.data);
	buf_free(&b);
}

/* summarize_run's errors and notes, as warnings in the words the commands
 * print them (each names its conversation) */
static void
summary_report(void *arg, const struct summarize_event *ev)
{
	const struct mcp_config *cf = arg;

	if (ev->kind == SUMMARIZE_ERROR || ev->kind == SUMMARIZE_NOTE)
		warn(cf, "%s", ev->msg);
}

/* an operation's error: prefixed with the argument it names, if any */
static void
fail_op(struct mcp_answer *a, const char *arg, const struct error *e)
{
	if (arg != NULL)
		mcp_fail(a, "argument '%s': %s", arg, e->msg);
	else
		mcp_fail(a, "%s", e->msg);
}

static void
tool_add(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	const struct tool_value *text = tool_arg(args, "text"),
	    *tools = tool_arg(args, "tools");
	struct ops_add_request rq = { .settings = cf->settings,
	    .role = (enum conv_role)tool_long(args, "role", ROLE_USER),
	    .text = text->s, .len = text->len,
	    .text_name = "argument 'text'",
	    .tools = tools != NULL ? tools->v : NULL,
	    .ntools = tools != NULL ? tools->nv : 0, .tools_name = "tool name",
	    .report = summary_report, .report_arg = (void *)cf };
	struct ops_add_result res;

	if (ops_add(&rq, &res) != OPS_DONE) {
		fail_op(a, res.arg, &res.error);
	} else {
		if (res.clock >= 0 && res.at != res.clock)
			skew(cf, res.clock, res.at, "recorded");
		a->structured = json_pack("{s:s}", "id", res.id);
	}
	ops_add_result_free(&res);
}

static void
tool_end(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	struct ops_end_request rq = { .settings = cf->settings,
	    .report = summary_report, .report_arg = (void *)cf };
	struct ops_end_result res;
	size_t i;

	(void)args;	/* none */
	switch (ops_end(&rq, &res)) {
	case OPS_DONE:
	case OPS_PARTIAL:
		break;
	default:
		fail_op(a, res.arg, &res.error);
		goto out;
	}
	if (res.id == NULL) {
		warn(cf, "no active conversation");
		a->structured = json_pack("{s:n, s:b}", "id", "summaryPending", 0);
		goto out;
	}
	if (res.ended_at > res.now)	/* not when it was idle: no skew */
		skew(cf, res.now, res.ended_at, "ended");
	for (i = 0; res.pending[i] != NULL; i++)
		warn(cf, "%s", res.pending[i]);
	a->structured = json_pack("{s:s, s:b}", "id", res.id, "summaryPending",
	    res.status == OPS_PARTIAL);
out:
	ops_end_result_free(&res);
}

static void
tool_title(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	struct ops_title_request rq = { .settings = cf->settings,
	    .id = tool_str(args, "id"), .title = tool_str(args, "title"),
	    .say = say, .say_arg = (void *)cf };
	struct ops_title_result res;

	if (ops_title(&rq, &res) != OPS_DONE)
		fail_op(a, res.arg, &res.error);
	else
		a->structured = json_pack("{s:s, s:s}", "id", rq.id, "title",
		    rq.title);
}

static void
tool_tag(const struct mcp_config *cf, const struct tool_args *args,
    struct mcp_answer *a)
{
	const struct tool_value *tags = tool_arg(args, "tags");
	struct ops_tag_request rq = { .settings = cf->settings,
	    .id = tool_str(args, "id"), .tags = (char *const *)tags->v,
	    .ntags = tags->nv, .remove = (int)tool_long(args, "remove", 0),
	    .say = say, .say_arg = (void *)cf };
	struct ops_tag_result res;
	json_t *list;
	size_t i;

	if (ops_tag(&rq, &res) != OPS_DONE) {
		fail_op(a, res.arg, &res.error);
		return;
	}
	list = json_array();
	for (i = 0; i < res.ntags; i++)
		json_array_append_new(list, json_string(res.tags[i]));
	a->structured = json_pack("{s:o}", "tags", list);
	ops_tag_result_free(&res);
}

int
mcp_check(const struct mcp_config *cf, struct error *e)
{
	struct summary_config sc;
	struct store *st = NULL;
	struct error se;
	int64_t idle;
	int s;

	for (s = 0; s < SET_COUNT; s++)
		if (settings_check(cf->settings, (enum setting)s, e) < 0)
			return -1;
	/* add and end summarize what they end; a summarizer that cannot
	 * would be only a warning an agent never sees */
	if (!cf->read_only && (lifecycle_idle_timeout(cf->settings, &idle,
	    e) < 0 || summary_config_load(&sc, cf->settings, e) < 0))
		return -1;
	/* a store that cannot be opened now is said here, once, and then by
	 * every call, as its answer, which a client gives the model: the
	 * server stays, as the path may be made or the database come back */
	if (lifecycle_begin(cf->settings, STORE_READ, &st, &se) < 0)
		warn(cf, "%s (each call answers this until it can be opened)",
		    se.msg);
	store_close(st);
	return 0;
}

/* the output schemas' common parts (the input schemas are made from the
 * tools' tables: args.c) */
#define OUT(props, req) "{\"type\":\"object\",\"properties\":{" props "}," \
	"\"required\":[" req "]}"
#define NEXT "\"nextCursor\":{\"type\":\"string\",\"description\":" \
	"\"there is more: give it as cursor for the next page\"}"
#define NULLABLE "{\"type\":[\"string\",\"null\"]}"
#define CONV_LIST "{\"type\":\"array\",\"items\":{\"type\":\"object\"," \
	"\"properties\":{\"id\":{\"type\":\"string\"},\"title\":" NULLABLE \
	",\"summary\":" NULLABLE ",\"startedAt\":{\"type\":\"string\"}," \
	"\"endedAt\":{\"type\":\"string\"},\"messageCount\":{\"type\":" \
	"\"integer\"},\"tags\":{\"type\":\"array\",\"items\":{\"type\":" \
	"\"string\"}},\"pinned\":{\"type\":\"boolean\"}},\"required\":[\"id\"," \
	"\"title\",\"summary\",\"startedAt\",\"endedAt\",\"messageCount\"]}}"

const struct mcp_tool mcp_tools[] = {
	{ "search", "Search messages",
	    "Lines of messages in every conversation that match a query: the "
	    "newest page of them, oldest first, and nextCursor when older ones "
	    "are left (convctl search).",
	    { args_search_operands, args_search_options, args_page },
	    OUT("\"hits\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	    "\"required\":[\"id\",\"timestamp\",\"role\",\"lineNumber\","
	    "\"line\",\"match\",\"matches\"]}}," NEXT, "\"hits\""),
	    0, tool_search },
	{ "recent", "Recent conversations",
	    "Ended conversations, newest first: id, end time, message count, "
	    "title; nextCursor when more are left (convctl recent).",
	    { NULL, args_recent_options, args_page },
	    OUT("\"conversations\":" CONV_LIST "," NEXT, "\"conversations\""),
	    0, tool_recent },
	{ "show", "Show a conversation",
	    "One conversation, its header and every message, as text, markdown "
	    "or JSON (convctl show).",
	    { args_show_operands, args_show_options, NULL },
	    NULL, 0, tool_show },
	{ "context", "Conversation as context",
	    "A conversation (the active one by default) as context for an "
	    "LLM: SmartHole's text, markdown, OpenAI messages or JSON lines "
	    "(convctl prompt).",
	    { args_prompt_operands, args_prompt_options, NULL },
	    NULL, 0, tool_context },
	{ "add", "Add a message",
	    "Adds a message to the active conversation, starting one when "
	    "none is active or it has been idle too long; the conversation's "
	    "id (convctl add).",
	    { args_add_operands, args_add_options, NULL },
	    OUT("\"id\":{\"type\":\"string\"}", "\"id\""),
	    1, tool_add },
	{ "end", "End the conversation",
	    "Ends the active conversation and has it titled and summarized; "
	    "its id, nothing when none was active (convctl end).",
	    { NULL, args_end_options, NULL },
	    OUT("\"id\":" NULLABLE ",\"summaryPending\":{\"type\":"
	    "\"boolean\"}", "\"id\",\"summaryPending\""),
	    1, tool_end },
	{ "title", "Title a conversation",
	    "Sets a conversation's title by hand; summaries keep it (convctl "
	    "title).",
	    { args_title_operands, args_title_options, NULL },
	    OUT("\"id\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"}",
	    "\"id\",\"title\""),
	    1, tool_title },
	{ "tag", "Tag a conversation",
	    "Adds tags to a conversation, or removes them; the tags it has "
	    "after (convctl tag).",
	    { args_tag_operands, args_tag_options, NULL },
	    OUT("\"tags\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"string\"}}", "\"tags\""),
	    1, tool_tag },
};
const size_t mcp_ntools = sizeof(mcp_tools) / sizeof(mcp_tools[0]);
