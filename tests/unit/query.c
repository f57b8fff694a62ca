/*
 * query.c - a search's description (lib/store/query.h) has one answer for
 * each executor: the spellings of its text the SQL looks for
 * (query_spell()), the bytes the file's fast path looks at
 * (query_json_may_hold(), query_str_may_hold()), the filters
 * (query_takes(), query_json_msg()) and the tag (query_tagged()).
 */
#include <string.h>

#include "internal.h"
#include "store/query.h"
#include "tap.h"

#define T0 "2026-02-04T10:00:00.000Z"

static char fold_s[1][5] = { "\xc5\xbf" };	/* U+017F long s */

/* a query for lit, lower case when icase; "s" folds from U+017F */
static struct query
query_of(const char *lit, int icase)
{
	struct query q;

	memset(&q, 0, sizeof(q));
	q.lit = (char *)lit;
	q.litlen = strlen(lit);
	q.icase = icase;
	q.fold = fold_s;
	q.fold_of = (char *)"s";
	q.nfold = icase ? 1 : 0;
	q.role = -1;
	q.since = q.until = -1;
	q.max = -1;
	return q;
}

static void
spellings(void)
{
	struct query q = query_of("s\"\n\x01", 1);
	char sp[8];

	is_int(query_spell(&q, 0, 0, sp), 1, "a letter is spelled as itself");
	is_str(sp, "s", "... s");
	is_int(query_spell(&q, 0, 1, sp), 2, "then as each fold of it");
	is_str(sp, "\xc5\xbf", "... U+017F");
	is_int(query_spell(&q, 0, 2, sp), 0, "and no more");
	query_spell(&q, 1, 0, sp);
	is_str(sp, "\\\"", "a quote as the JSON writer escapes it");
	query_spell(&q, 2, 0, sp);
	is_str(sp, "\\n", "a newline as \\n");
	query_spell(&q, 3, 0, sp);
	is_str(sp, "\\u0001", "a control as \\u0001");
	is_int(query_spell(&q, 1, 1, sp), 0, "a quote has one spelling");
	q = query_of("s", 0);
	is_int(query_spell(&q, 0, 1, sp), 0, "case counts: no fold");
}

static void
bytes(void)
{
	struct query q = query_of("milk", 1);
	struct buf tmp = { 0 };
	const char *esc = "buy \\u006D\\u0049LK now";
	const char *json = "{\"content\":\"buy \\u006D\\u0049LK now\"}";

	ok(query_str_may_hold(&q, "buy MILK", 8, 0), "the text in another case");
	ok(!query_str_may_hold(&q, "buy eggs", 8, 0), "no text, no escape: not");
	ok(query_str_may_hold(&q, esc, strlen(esc), 1),
	    "an escape may spell it");
	ok(!query_str_may_hold(&q, esc, strlen(esc), 0),
	    "a string said to hold no escape is not read for one");
	ok(query_json_may_hold(&q, json, strlen(json), &tmp),
	    "JSON text holding it escaped may match");
	ok(!query_json_may_hold(&q, "{\"content\":\"eggs\"}", 18, &tmp),
	    "JSON text without it cannot");
	q = query_of("session", 1);
	ok(query_str_may_hold(&q, "\xc5\xbf" "e\xc5\xbf\xc5\xbfion", 10, 0),
	    "a fold of one of its letters may match");
	q = query_of("session", 0);
	ok(!query_str_may_hold(&q, "SESSION here", 12, 0),
	    "case counts: another case cannot");
	ok(query_find_lit(&q, "a session", 9) != NULL &&
	    strcmp(query_find_lit(&q, "a session", 9), "session") == 0,
	    "query_find_lit finds where it is");
	buf_free(&tmp);
}

static void
filters(void)
{
	struct query q = query_of("", 0);
	struct query_msg m;
	struct error e = { 0 };
	json_t *msg;

	q.role = ROLE_USER;
	q.since = 1000;
	q.until = 2000;
	ok(query_takes(&q, ROLE_USER, 1000), "since is in");
	ok(!query_takes(&q, ROLE_USER, 2000), "until is out");
	ok(!query_takes(&q, ROLE_ASSISTANT, 1500), "another role is out");
	q = query_of("", 0);
	q.tool = "grep";
	msg = json_pack("{s:s, s:s, s:s, s:s, s:[s]}", "id", "m1", "role",
	    "user", "content", "hi", "timestamp", T0, "toolsUsed", "grep");
	is_int(query_json_msg(&q, msg, "c1", 3, 4, &m, &e), 1,
	    "a message the filters take");
	is_str(m.conv_id, "c1", "... its conversation");
	is_str(m.id, "m1", "... its id");
	is_int(m.seq, 4, "... its place");
	is_str(m.text, "hi", "... its content");
	q.tool = "sed";
	is_int(query_json_msg(&q, msg, "c1", 3, 4, &m, &e), 0,
	    "a message without the tool is not taken");
	json_decref(msg);
	q.tool = NULL;
	msg = json_pack("{s:s, s:s, s:s}", "role", "user", "content", "hi",
	    "timestamp", "yesterday");
	is_int(query_json_msg(&q, msg, "c1", 3, 4, &m, &e), -1,
	    "a bad timestamp is an error");
	is_str(e.msg, "conversation 'c1': message 4: bad timestamp",
	    "... naming the conversation and the message");
	json_decref(msg);
}

static void
tags(void)
{
	struct query q = query_of("", 0);
	const char *doc = "{\"id\":\"c\",\"title\":\"b\",\"tags\":[\"a\",\"b\"]}";
	const char *none = "{\"id\":\"c\",\"title\":\"tags b\"}";

	ok(query_tagged(&q, none, strlen(none)), "no tag asked: every one");
	q.tag = "b";
	ok(query_tagged(&q, doc, strlen(doc)), "a tag it has");
	q.tag = "c";
	ok(!query_tagged(&q, doc, strlen(doc)), "a tag it has not");
	q.tag = "b";
	ok(!query_tagged(&q, none, strlen(none)),
	    "the tag's text elsewhere is no tag");
}

int
main(void)
{
	spellings();
	bytes();
	filters();
	tags();
	return done();
}
