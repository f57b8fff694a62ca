/*
 * tools.c - the tools of `convctl mcp`: search, recent, show, context, add,
 * end, title and tag, each doing what its command does through the same
 * library calls (the store opened for the one call, locked only to write,
 * and closed before the answer). A tool whose answer is data (search,
 * recent, add, end, title, tag) gives the command's --json as structured
 * content; show and context, whose answer is text in the format asked for,
 * give that text alone.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

/* an error answer: one line naming what was wrong */
static void
fail(struct mcp_answer *a, const char *fmt, ...)
{
	va_list ap;

	a->text.len = 0;
	va_start(ap, fmt);
	buf_vaddf(&a->text, fmt, ap);
	va_end(ap);
	a->is_error = 1;
}

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

/* v as JSON for a message, cut short */
static void
shown(struct buf *b, const json_t *v)
{
	struct buf all = { 0 };

	json_dump_buf(&all, v);
	if (all.len > 40)
		buf_addf(b, "%.37s...", all.data);
	else
		buf_add(b, all.data, all.len);
	buf_free(&all);
}

/* an argument of the wrong kind: "argument 'NAME' expects WHAT, not V" */
static int
bad(struct mcp_answer *a, const char *name, const char *what, const json_t *v)
{
	struct buf s = { 0 };

	shown(&s, v);
	fail(a, "argument '%s' expects %s, not %s", name, what, s.data);
	buf_free(&s);
	return -1;
}

/* every argument given is one of known[], NULL-ended: its whole name (a
 * key may hold a NUL byte, and then is none of them) */
static int
args_known(json_t *args, const char *const *known, struct mcp_answer *a)
{
	struct buf name = { 0 };
	const char *key;
	size_t i, len;
	json_t *v;

	json_object_keylen_foreach(args, key, len, v) {
		for (i = 0; known[i] != NULL; i++)
			if (strlen(known[i]) == len &&
			    memcmp(key, known[i], len) == 0)
				break;
		if (known[i] == NULL) {
			buf_adds(&name, "");
			json_escape(&name, key, len);
			fail(a, "unknown argument '%s'", name.data);
			buf_free(&name);
			return -1;
		}
	}
	return 0;
}

/* a string argument without NUL bytes (json_name(): what it names or
 * chooses is compared whole); *out NULL when absent (and not required) */
static int
arg_str(json_t *args, const char *name, int required, const char **out,
    struct mcp_answer *a)
{
	json_t *v = json_object_get(args, name);

	*out = NULL;
	if (v == NULL) {
		if (required) {
			fail(a, "missing argument '%s'", name);
			return -1;
		}
		return 0;
	}
	if ((*out = json_name(v)) == NULL)
		return bad(a, name, json_is_text(v) ? "a string without a NUL "
		    "character" : "a string", v);
	return 0;
}

/* a whole number in [min, max]; *out as it was when absent */
static int
arg_long(json_t *args, const char *name, long min, long max, long *out,
    struct mcp_answer *a)
{
	json_t *v = json_object_get(args, name);
	struct buf what = { 0 };
	int rc = 0;

	if (v == NULL)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= min &&
	    json_integer_value(v) <= max) {
		*out = (long)json_integer_value(v);
		return 0;
	}
	buf_addf(&what, "a whole number from %ld to %ld", min, max);
	rc = bad(a, name, what.data, v);
	buf_free(&what);
	return rc;
}

static int
arg_bool(json_t *args, const char *name, int *out, struct mcp_answer *a)
{
	json_t *v = json_object_get(args, name);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!json_is_boolean(v))
		return bad(a, name, "true or false", v);
	*out = json_is_true(v);
	return 0;
}

/* an array of strings; *v (caller frees) NULL and *n 0 when absent */
static int
arg_strv(json_t *args, const char *name, int required, const char ***out,
    size_t *n, struct mcp_answer *a)
{
	json_t *v = json_object_get(args, name), *s;
	size_t i;

	*out = NULL;
	*n = 0;
	if (v == NULL) {
		if (required) {
			fail(a, "missing argument '%s'", name);
			return -1;
		}
		return 0;
	}
	if (!json_is_array(v))
		return bad(a, name, "an array of strings", v);
	json_array_foreach(v, i, s)
		if (json_name(s) == NULL)
			return bad(a, name, json_is_text(s) ? "an array of "
			    "strings without a NUL character" :
			    "an array of strings", v);
	*out = xmalloc((json_array_size(v) + 1) * sizeof(**out));
	json_array_foreach(v, i, s)
		(*out)[i] = json_name(s);
	*n = json_array_size(v);
	return 0;
}

/* one of the formats in allowed (a mask of 1 << FMT_x); *f as it was when
 * absent */
static int
arg_format(json_t *args, const char *name, unsigned allowed, enum format *f,
    struct mcp_answer *a)
{
	const char *s;
	struct buf what = { 0 };
	unsigned i;
	int v, rc;

	if (arg_str(args, name, 0, &s, a) < 0)
		return -1;
	if (s == NULL)
		return 0;
	if (enum_parse(render_formats, s, &v) == 0 && (allowed & 1u << v)) {
		*f = (enum format)v;
		return 0;
	}
	for (i = 0; allowed >> i != 0; i++)
		if (allowed & 1u << i)
			buf_addf(&what, "%s%s", what.len == 0 ? "" :
			    allowed >> (i + 1) == 0 ? " or " : ", ",
			    enum_name(render_formats, (int)i));
	rc = bad(a, name, what.data, json_object_get(args, name));
	buf_free(&what);
	return rc;
}

static int
arg_role(json_t *args, const char *name, int *role, struct mcp_answer *a)
{
	const char *s;
	struct buf what = { 0 };
	enum conv_role r;

	if (arg_str(args, name, 0, &s, a) < 0)
		return -1;
	if (s == NULL)
		return 0;
	if (role_parse(s, &r) == 0) {
		*role = (int)r;
		return 0;
	}
	buf_addf(&what, "%s", role_list());
	bad(a, name, what.data, json_object_get(args, name));
	buf_free(&what);
	return -1;
}

/* an ISO 8601 time; *ms -1 when absent */
static int
arg_time(json_t *args, const char *name, int64_t *ms, struct mcp_answer *a)
{
	const char *s;

	*ms = -1;
	if (arg_str(args, name, 0, &s, a) < 0)
		return -1;
	if (s != NULL && ts_parse(s, ms) < 0)
		return bad(a, name, "an ISO 8601 time such as 2026-02-04 or "
		    "2026-02-04T17:26:40Z", json_object_get(args, name));
	return 0;
}

/* argument 'cursor': a nextCursor this tool answered, the position in its
 * list where the page starts; *off 0 when absent */
static int
arg_cursor(json_t *args, size_t *off, struct mcp_answer *a)
{
	const char *s;
	char *end;
	unsigned long n;

	*off = 0;
	if (arg_str(args, "cursor", 0, &s, a) < 0)
		return -1;
	if (s == NULL)
		return 0;
	if (*s < '0' || *s > '9' || (n = strtoul(s, &end, 10)) > RESULTS_MAX ||
	    *end != '\0')
		return bad(a, "cursor", "a nextCursor this tool answered",
		    json_object_get(args, "cursor"));
	*off = n;
	return 0;
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
		fail(a, "%s", e.msg);
		return NULL;
	}
	return st;
}

/* a line lifecycle_commit_said says, as a warning */
static void
say(void *cf, const char *line)
{
	warn(cf, "%s", line);
}

/* {key: the JSON a command's --json printed, out[0..)}: the same fields */
static void
structured_from(struct mcp_answer *a, const char *key, const struct buf *out)
{
	json_error_t je;
	json_t *v;

	v = json_loadb(out->data, out->len, JSON_LOAD_FLAGS | JSON_DECODE_ANY,
	    &je);
	if (v == NULL)
		abort();	/* our own renderer wrote it */
	a->structured = json_pack("{s:o}", key, v);
}

/* search_render()'s output, kept whole in the buffer arg */
static int
keep(void *arg, const char *s, size_t len)
{
	buf_add(arg, s, len);
	return 0;
}

/* search_page's list: the page's hits, the newest last */
struct search_page {
	const struct search_result *res;
	struct buf *scratch;
	size_t end;
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
	search_render(p->scratch, &r, 1, 0, 0, keep, json);
}

static void
tool_search(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "query", "regex",
	    "case_sensitive", "role", "since", "until", "tag", "tool", "limit",
	    "cursor", NULL };
	struct search_request rq = { .role = -1, .max = SEARCH_PAGE };
	struct search_result res = { 0 }, page;
	struct search *s = NULL;
	struct store *st = NULL;
	struct buf json = { 0 }, scratch = { 0 };
	struct search_page ctx_search;
	struct error e;
	long limit;
	const char *query;
	size_t off, n;
	int regex, match_case, more;

	if (args_known(args, known, a) < 0 ||
	    arg_str(args, "query", 1, &query, a) < 0 ||
	    arg_bool(args, "regex", &regex, a) < 0 ||
	    arg_bool(args, "case_sensitive", &match_case, a) < 0 ||
	    arg_role(args, "role", &rq.role, a) < 0 ||
	    arg_time(args, "since", &rq.since, a) < 0 ||
	    arg_time(args, "until", &rq.until, a) < 0 ||
	    arg_str(args, "tag", 0, &rq.tag, a) < 0 ||
	    arg_str(args, "tool", 0, &rq.tool, a) < 0 ||
	    arg_long(args, "limit", 0, RESULTS_MAX, &rq.max, a) < 0 ||
	    arg_cursor(args, &off, a) < 0)
		return;
	limit = rq.max;
	/* the newest off + limit, and one more to tell whether any are left */
	rq.max += (long)off + 1;
	if (search_compile(&s, query, regex, match_case, &e) < 0) {
		fail(a, "argument 'query': %s", e.msg);
		return;
	}
	if ((st = open_store(cf, STORE_READ, a)) == NULL)
		goto out;
	if (search_run(st, s, &rq, &res, &e) < 0) {
		fail(a, "%s", e.msg);
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
	ctx_search.scratch = &scratch;
	ctx_search.end = n;
	n = page_of(&json, 0, n, &more, search_page, &ctx_search);
	structured_from(a, "hits", &json);
	next_cursor(a, off + n, more);
out:
	buf_free(&scratch);
	buf_free(&json);
	search_result_free(&res);
	store_close(st);
	search_free(s);
}

static void
recent_page(struct buf *json, void *v, size_t from, size_t n)
{
	render_recent(json, (struct conv **)v + from, n, 1);
}

static void
tool_recent(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "limit", "tag", "cursor", NULL };
	struct store *st;
	struct conv **v = NULL;
	struct buf json = { 0 };
	struct error e;
	const char *tag;
	long limit = 10;
	size_t n, off;
	int more;

	if (args_known(args, known, a) < 0 ||
	    arg_long(args, "limit", 0, RESULTS_MAX, &limit, a) < 0 ||
	    arg_str(args, "tag", 0, &tag, a) < 0 ||
	    arg_cursor(args, &off, a) < 0 ||
	    (st = open_store(cf, STORE_READ, a)) == NULL)
		return;
	/* the newest up to the page's end and one more, without messages */
	if (conv_recent(st, off + (size_t)limit + 1, tag, &v, &n, &e) < 0) {
		fail(a, "%s", e.msg);
		goto out;
	}
	n = n > off ? n - off : 0;
	/* limit 0 asks for none, and for no next page */
	more = limit > 0 && n > (size_t)limit;
	if (n > (size_t)limit)
		n = (size_t)limit;
	n = page_of(&json, off, n, &more, recent_page, v);
	structured_from(a, "conversations", &json);
	next_cursor(a, off + n, more);
out:
	buf_free(&json);
	free(v);
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
			fail(a, "%s", e.msg);
		return c;
	}
	if (conv_default(st, ended_too, &c, &e) < 0) {
		fail(a, "%s", e.msg);
		return NULL;
	}
	if (c == NULL && ended_too)
		fail(a, "no conversations in '%s'", store_path(st));
	return c;
}

static void
tool_show(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "id", "format", NULL };
	enum format f = FMT_TEXT;
	struct store *st;
	struct conv *c;
	struct error e;
	const char *id;

	if (args_known(args, known, a) < 0 ||
	    arg_str(args, "id", 0, &id, a) < 0 ||
	    arg_format(args, "format", 1u << FMT_TEXT | 1u << FMT_MARKDOWN |
	    1u << FMT_JSON, &f, a) < 0 ||
	    (st = open_store(cf, STORE_READ, a)) == NULL)
		return;
	if ((c = pick(st, id, 1, a)) == NULL)
		goto out;
	/* the text asked for, alone: what the agent's model is given */
	if (render_conv(&a->text, c, f, 0, &e) < 0)
		fail(a, "%s", e.msg);
	else
		bound_text(a, "the tool context with max_tokens gives the "
		    "newest messages; the resource convctl://conversation/ID "
		    "all of it");
out:
	store_close(st);
}

static void
tool_context(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "id", "format", "last",
	    "max_tokens", NULL };
	struct prompt_request rq = { FMT_TEXT, -1, -1, 0, 0 };
	struct store *st;
	struct conv *c = NULL;
	struct error e;
	const char *id;

	if (args_known(args, known, a) < 0 ||
	    arg_str(args, "id", 0, &id, a) < 0 ||
	    arg_format(args, "format", 1u << FMT_TEXT | 1u << FMT_MARKDOWN |
	    1u << FMT_OPENAI | 1u << FMT_JSONL, &rq.format, a) < 0 ||
	    arg_long(args, "last", 0, 1L << 40, &rq.last, a) < 0 ||
	    arg_long(args, "max_tokens", 0, 1L << 40, &rq.max_tokens, a) < 0 ||
	    (st = open_store(cf, STORE_READ, a)) == NULL)
		return;
	if ((c = pick(st, id, 0, a)) == NULL && a->is_error)
		goto out;
	/* nothing active: nothing to say, and that is no error; the text
	 * asked for, alone, is what the agent's model is given */
	if (render_prompt(&a->text, c, &rq, &e) < 0) {
		fail(a, "%s", e.msg);
		goto out;
	}
	if (rq.cut > 0)
		warn(cf, "the newest message alone is over max_tokens %ld: its "
		    "first %zu characters are cut", rq.max_tokens, rq.cut);
	bound_text(a, "max_tokens or last gives the newest messages that fit");
out:
	store_close(st);
}

/* summarize_run's errors and notes, as warnings */
static void
summary_report(void *arg, const struct summarize_event *ev)
{
	const struct mcp_config *cf = arg;

	if (ev->kind == SUMMARIZE_ERROR || ev->kind == SUMMARIZE_NOTE)
		warn(cf, "%s%s%s", ev->id ? ev->id : "", ev->id ? ": " : "",
		    ev->msg);
}

/* an operation's error: prefixed with the argument it names, if any */
static void
fail_op(struct mcp_answer *a, const char *arg, const struct error *e)
{
	if (arg != NULL)
		fail(a, "argument '%s': %s", arg, e->msg);
	else
		fail(a, "%s", e->msg);
}

static void
tool_add(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "text", "role", "tools", NULL };
	struct ops_add_request rq = { .settings = cf->settings,
	    .role = ROLE_USER, .text_name = "argument 'text'",
	    .report = summary_report, .report_arg = (void *)cf };
	struct ops_add_result res = { 0 };
	json_t *text;
	const char **tools = NULL;
	int role = ROLE_USER;

	if (args_known(args, known, a) < 0 ||
	    arg_role(args, "role", &role, a) < 0 ||
	    arg_strv(args, "tools", 0, &tools, &rq.ntools, a) < 0)
		goto out;
	rq.tools = tools;
	rq.role = (enum conv_role)role;
	/* the text may hold NUL bytes, as add's standard input may */
	if ((text = json_object_get(args, "text")) == NULL) {
		fail(a, "missing argument 'text'");
		goto out;
	}
	if (!json_is_text(text)) {
		bad(a, "text", "a string", text);
		goto out;
	}
	rq.text = json_string_value(text);
	rq.len = json_string_length(text);
	if (ops_add(&rq, &res) != OPS_DONE)
		fail_op(a, res.arg, &res.error);
	else
		a->structured = json_pack("{s:s}", "id", res.id);
out:
	ops_add_result_free(&res);
	free(tools);
}

static void
tool_end(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { NULL };
	struct ops_end_request rq = { .settings = cf->settings,
	    .report = summary_report, .report_arg = (void *)cf };
	struct ops_end_result res;
	size_t i;

	if (args_known(args, known, a) < 0)
		return;
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
	for (i = 0; res.pending[i] != NULL; i++)
		warn(cf, "%s", res.pending[i]);
	a->structured = json_pack("{s:s, s:b}", "id", res.id, "summaryPending",
	    res.status == OPS_PARTIAL);
out:
	ops_end_result_free(&res);
}

static void
tool_title(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "id", "title", NULL };
	struct ops_title_request rq = { .settings = cf->settings, .say = say,
	    .say_arg = (void *)cf };
	struct ops_title_result res;

	if (args_known(args, known, a) < 0 ||
	    arg_str(args, "id", 1, &rq.id, a) < 0 ||
	    arg_str(args, "title", 1, &rq.title, a) < 0)
		return;
	if (ops_title(&rq, &res) != OPS_DONE)
		fail_op(a, res.arg, &res.error);
	else
		a->structured = json_pack("{s:s, s:s}", "id", rq.id, "title",
		    rq.title);
}

static void
tool_tag(const struct mcp_config *cf, json_t *args, struct mcp_answer *a)
{
	static const char *const known[] = { "id", "tags", "remove", NULL };
	struct ops_tag_request rq = { .settings = cf->settings, .say = say,
	    .say_arg = (void *)cf };
	struct ops_tag_result res = { 0 };
	const char **tags = NULL;
	size_t i;

	if (args_known(args, known, a) < 0 ||
	    arg_str(args, "id", 1, &rq.id, a) < 0 ||
	    arg_strv(args, "tags", 1, &tags, &rq.ntags, a) < 0 ||
	    arg_bool(args, "remove", &rq.remove, a) < 0)
		goto out;
	if (rq.ntags == 0) {
		fail(a, "argument 'tags' expects at least one tag");
		goto out;
	}
	rq.tags = (char *const *)tags;
	if (ops_tag(&rq, &res) != OPS_DONE) {
		fail_op(a, res.arg, &res.error);
		goto out;
	}
	a->structured = json_pack("{s:[]}", "tags");
	for (i = 0; i < res.ntags; i++)
		json_array_append_new(json_object_get(a->structured, "tags"),
		    json_string(res.tags[i]));
out:
	ops_tag_result_free(&res);
	free(tags);
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

/* the schemas' common parts */
#define OBJ(props, req) "{\"type\":\"object\",\"properties\":{" props "}," \
	"\"required\":[" req "],\"additionalProperties\":false}"
#define OUT(props, req) "{\"type\":\"object\",\"properties\":{" props "}," \
	"\"required\":[" req "]}"
#define STR(d) "{\"type\":\"string\",\"description\":\"" d "\"}"
#define BOOL(d) "{\"type\":\"boolean\",\"description\":\"" d "\"}"
#define WHOLE(max, d) "{\"type\":\"integer\",\"minimum\":0,\"maximum\":" max \
	",\"description\":\"" d "\"}"
#define ENUM(vals, d) "{\"type\":\"string\",\"enum\":[" vals "]," \
	"\"description\":\"" d "\"}"
/* a role's enum, left empty here: mcp_schema_roles fills it from the
 * store's role table */
#define ROLES ""
#define ID_ARG(d) "\"id\":" STR(d)
#define STRINGS(d) "{\"type\":\"array\",\"items\":{\"type\":\"string\"}," \
	"\"description\":\"" d "\"}"
/* a page's cursor and the next one's */
#define CURSOR(what) STR("the nextCursor of the previous answer: the " what \
	" page that follows it")
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
	    OBJ("\"query\":{\"type\":\"string\",\"maxLength\":"
	    NUM_TEXT(SEARCH_QUERY_MAX_CHARS) ",\"description\":\"text to "
	    "find, at most " NUM_TEXT(SEARCH_QUERY_MAX_CHARS) " characters; "
	    "case is ignored unless case_sensitive\"},\"regex\":" BOOL("query is a POSIX extended "
	    "regular expression") ",\"case_sensitive\":" BOOL("tell upper "
	    "from lower case") ",\"role\":" ENUM(ROLES, "only messages of "
	    "this role") ",\"since\":" STR("only messages at or after this "
	    "ISO 8601 time") ",\"until\":" STR("only messages before this ISO "
	    "8601 time") ",\"tag\":" STR("only conversations with this tag")
	    ",\"tool\":" STR("only messages whose tools used include this "
	    "one") ",\"limit\":" WHOLE(NUM_TEXT(RESULTS_MAX), "only the newest N "
	    "matching lines (" NUM_TEXT(SEARCH_PAGE) ")") ",\"cursor\":"
	    CURSOR("older"), "\"query\""),
	    OUT("\"hits\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	    "\"required\":[\"id\",\"timestamp\",\"role\",\"lineNumber\","
	    "\"line\",\"match\",\"matches\"]}}," NEXT, "\"hits\""),
	    0, tool_search },
	{ "recent", "Recent conversations",
	    "Ended conversations, newest first: id, end time, message count, "
	    "title; nextCursor when more are left (convctl recent).",
	    OBJ("\"limit\":" WHOLE(NUM_TEXT(RESULTS_MAX), "at most N conversations "
	    "(10)") ",\"tag\":" STR("only conversations with this tag")
	    ",\"cursor\":" CURSOR("older"), ""),
	    OUT("\"conversations\":" CONV_LIST "," NEXT, "\"conversations\""),
	    0, tool_recent },
	{ "show", "Show a conversation",
	    "One conversation, its header and every message, as text, markdown "
	    "or JSON (convctl show).",
	    OBJ(ID_ARG("the conversation; default: the active one, else the "
	    "one that ended last") ",\"format\":" ENUM("\"text\",\"markdown\","
	    "\"json\"", "the text's format (text)"), ""),
	    NULL, 0, tool_show },
	{ "context", "Conversation as context",
	    "A conversation (the active one by default) as context for an "
	    "LLM: SmartHole's text, markdown, OpenAI messages or JSON lines "
	    "(convctl prompt).",
	    OBJ(ID_ARG("the conversation, active or ended; default: the "
	    "active one") ",\"format\":" ENUM("\"text\",\"markdown\","
	    "\"openai\",\"jsonl\"", "the text's format (text)") ",\"last\":"
	    WHOLE("1099511627776", "the opening system messages and the "
	    "newest N others") ",\"max_tokens\":" WHOLE("1099511627776",
	    "the newest messages that fit in N tokens (a token per 4 "
	    "characters)"), ""),
	    NULL,
	    0, tool_context },
	{ "add", "Add a message",
	    "Adds a message to the active conversation, starting one when "
	    "none is active or it has been idle too long; the conversation's "
	    "id (convctl add).",
	    OBJ("\"text\":" STR("the message") ",\"role\":" ENUM(ROLES,
	    "whose message (user)") ",\"tools\":" STRINGS("tools used for "
	    "this message: at most " NUM_TEXT(TOOL_MAX_COUNT) ", each one line "
	    "of at most " NUM_TEXT(TOOL_MAX_CHARS) " characters"), "\"text\""),
	    OUT("\"id\":{\"type\":\"string\"}", "\"id\""),
	    1, tool_add },
	{ "end", "End the conversation",
	    "Ends the active conversation and has it titled and summarized; "
	    "its id, nothing when none was active (convctl end).",
	    OBJ("", ""),
	    OUT("\"id\":" NULLABLE ",\"summaryPending\":{\"type\":"
	    "\"boolean\"}", "\"id\",\"summaryPending\""),
	    1, tool_end },
	{ "title", "Title a conversation",
	    "Sets a conversation's title by hand; summaries keep it (convctl "
	    "title).",
	    OBJ(ID_ARG("the conversation, active or ended") ",\"title\":"
	    STR("its title"), "\"id\",\"title\""),
	    OUT("\"id\":{\"type\":\"string\"},\"title\":{\"type\":\"string\"}",
	    "\"id\",\"title\""),
	    1, tool_title },
	{ "tag", "Tag a conversation",
	    "Adds tags to a conversation, or removes them; the tags it has "
	    "after (convctl tag).",
	    OBJ(ID_ARG("the conversation, active or ended") ",\"tags\":"
	    "{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
	    "\"maxItems\":" NUM_TEXT(TAGS_MAX) ",\"description\":\"at most "
	    NUM_TEXT(TAGS_MAX) " tags, each one line of at most "
	    NUM_TEXT(TAG_MAX_CHARS) " characters\"}" ",\"remove\":" BOOL("remove "
	    "the tags instead"), "\"id\",\"tags\""),
	    OUT("\"tags\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"string\"}}", "\"tags\""),
	    1, tool_tag },
};
const size_t mcp_ntools = sizeof(mcp_tools) / sizeof(mcp_tools[0]);

void
mcp_schema_roles(json_t *input)
{
	json_t *role, *names;
	int r;

	role = json_object_get(json_object_get(input, "properties"), "role");
	if (role == NULL || json_object_get(role, "enum") == NULL)
		return;
	names = json_array();
	for (r = ROLE_USER; r <= ROLE_TOOL; r++)
		json_array_append_new(names, json_string(role_name(
		    (enum conv_role)r)));
	json_object_set_new(role, "enum", names);	/* in its place */
}
