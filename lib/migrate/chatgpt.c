/*
 * chatgpt.c - migrate's chatgpt format: the conversations.json of ChatGPT's
 * data export, each conversation a tree of nodes of which the path from the
 * root to current_node is what the user last saw. It knows the reader
 * interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* an array whose first item has a "mapping": ChatGPT's, no other's */
int
mig_detect_chatgpt(json_t *root)
{
	return json_is_array(root) && json_object_get(json_array_get(root, 0),
	    "mapping") != NULL;
}

/* ChatGPT's roles onto the store's: the same */
static const char *
chatgpt_role(const char *role)
{
	enum conv_role r;

	return role_parse(role, &r) == 0 ? role_name(r) : NULL;
}

/*
 * content's text into b: its parts (text, or multimodal_text's strings),
 * else the "text" of code and execution_output, else a browsing result;
 * *other: something that is not text was there (an image, a tool's data)
 */
static void
chatgpt_text(json_t *content, struct buf *b, int *other)
{
	json_t *parts = json_object_get(content, "parts"), *p;
	const char *t;
	size_t i, len, n = 0;

	*other = 0;
	if (json_is_array(parts)) {
		json_array_foreach(parts, i, p) {
			if (!json_is_string(p)) {
				*other = 1;
				continue;
			}
			if (n++ > 0)
				buf_addc(b, '\n');
			buf_add(b, json_string_value(p), json_string_length(p));
		}
		return;
	}
	if ((t = json_str(content, "text", &len)) != NULL ||
	    (t = json_str(content, "result", &len)) != NULL)
		buf_add(b, t, len);
	else
		*other = content != NULL && !json_is_null(content);
}

/* a node's parent: NULL at the root, which has none or a null one */
static const char *
parent_of(json_t *node)
{
	return json_str(node, "parent", NULL);
}

/*
 * a parent the mapping does not hold: the node is taken as the root (an
 * export cut short above it), and said so
 */
static int
orphan(struct mig_reader *r, json_t *map, const char *at, const char *id)
{
	const char *up = parent_of(json_object_get(map, id));

	if (up == NULL || json_object_get(map, up) != NULL)
		return 0;
	mig_note(r, "'%s': %s.mapping.%s: its parent '%.100s' is not in the "
	    "mapping; taken as the root", r->src->file, at, id, up);
	return 1;
}

/* without a current node, where the walks down start: every node without a
 * parent, then every one whose parent is missing (said so), in the mapping's
 * order */
static json_t *
chatgpt_roots(struct mig_reader *r, json_t *map, const char *at)
{
	json_t *roots = json_array(), *node;
	const char *key;

	json_object_foreach(map, key, node)
		if (parent_of(node) == NULL)
			json_array_append_new(roots, json_string(key));
	json_object_foreach(map, key, node)
		if (orphan(r, map, at, key))
			json_array_append_new(roots, json_string(key));
	return roots;
}

/*
 * from root down, the last child at each step, onto path; seen: the nodes
 * taken, each with the number of the walk that took it (walk), so that a
 * node this walk took before is a cycle, and one an earlier walk took (a
 * child two nodes list) ends the branch: its messages are there already
 */
static int
chatgpt_branch(struct mig_reader *r, json_t *map, const char *at,
    const char *root, json_int_t walk, json_t *seen, json_t *path,
    struct error *e)
{
	json_t *node, *kids = NULL, *was;
	const char *id = root, *prev = NULL;

	for (; id != NULL; prev = id, id = json_string_value(
	    json_array_get(kids, json_array_size(kids) - 1))) {
		if ((was = json_object_get(seen, id)) != NULL) {
			if (json_integer_value(was) < walk)
				break;
			return mig_bad(r, e, "%s.mapping.%s.children: a cycle at "
			    "'%.100s'", at, prev, id);
		}
		if ((node = json_object_get(map, id)) == NULL)
			break;
		json_object_set_new(seen, id, json_integer(walk));
		json_array_append_new(path, json_string(id));
		kids = json_object_get(node, "children");
	}
	return 0;
}

/* the time of the first node of path whose message has one; INT64_MAX when
 * none has */
static int64_t
branch_time(json_t *map, json_t *path)
{
	json_t *v;
	int64_t ms;
	size_t i;

	json_array_foreach(path, i, v)
		if (mig_time_of(json_object_get(json_object_get(json_object_get(
		    map, json_string_value(v)), "message"), "create_time"),
		    &ms) == 0)
			return ms;
	return INT64_MAX;
}

/* a branch's place: its first time, then its root's place in the mapping */
struct branch_key {
	int64_t ms;
	size_t i;
};

static int
branch_cmp(const void *a, const void *b)
{
	const struct branch_key *x = a, *y = b;

	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * without a current node: from the root, the last child at each step. A
 * mapping with more than one root (nodes without a parent, or whose parent
 * is missing) has a branch of each taken, whole, one after another, the
 * branch whose first message is earliest first (a stable order: the
 * mapping's, for equal times), and says so: no root's messages are left out
 */
static json_t *
chatgpt_walk_down(struct mig_reader *r, json_t *map, const char *at,
    struct error *e)
{
	json_t *roots = chatgpt_roots(r, map, at), *seen = json_object();
	json_t *branches = json_array(), *path = NULL, *b, *v;
	struct buf names = { 0 };
	struct branch_key *key = NULL;
	size_t n = json_array_size(roots), i, k;

	if (n == 0) {
		mig_bad(r, e, "%s.mapping: no root (a node without a parent)",
		    at);
		goto out;
	}
	key = xmalloc(n * sizeof(*key));
	for (i = 0; i < n; i++) {
		b = json_array();
		json_array_append_new(branches, b);
		if (chatgpt_branch(r, map, at, json_string_value(json_array_get(
		    roots, i)), (json_int_t)i, seen, b, e) < 0)
			goto out;
		key[i].ms = branch_time(map, b);
		key[i].i = i;
	}
	qsort(key, n, sizeof(*key), branch_cmp);
	if (n > 1) {
		for (i = 0; i < n && i < 5; i++)
			buf_addf(&names, "%s'%.100s'", i > 0 ? ", " : "",
			    json_string_value(json_array_get(roots, key[i].i)));
		if (n > 5)
			buf_addf(&names, " and %zu more", n - 5);
		mig_note(r, "'%s': %s.mapping: no current_node and %zu roots "
		    "(%s): the branch of each imported, one after another, the "
		    "earliest first", r->src->file, at, n, names.data);
	}
	path = json_array();
	for (i = 0; i < n; i++)
		json_array_foreach(json_array_get(branches, key[i].i), k, v)
			json_array_append(path, v);
out:
	free(key);
	buf_free(&names);
	json_decref(branches);
	json_decref(roots);
	json_decref(seen);
	return path;
}

/* the node ids from the root to current_node (or, without one, the last
 * child at each step), root first; NULL with e set on a broken tree */
static json_t *
chatgpt_path(struct mig_reader *r, json_t *conv, const char *at,
    struct error *e)
{
	json_t *map = json_object_get(conv, "mapping"), *path, *node, *rev;
	const char *id = json_str(conv, "current_node", NULL);
	size_t steps = 0, n = json_object_size(map), i;

	if (id == NULL)	/* no current node: the newest branch */
		return chatgpt_walk_down(r, map, at, e);
	path = json_array();
	for (; id != NULL; id = parent_of(node)) {
		node = json_object_get(map, id);
		if (!json_is_object(node) || steps++ > n) {
			mig_bad(r, e, "%s.mapping: %s '%.100s'", at, node == NULL ?
			    "no node" : json_is_object(node) ? "a cycle at" :
			    "expected an object at", id);
			json_decref(path);
			return NULL;
		}
		json_array_append_new(path, json_string(id));
		if (orphan(r, map, at, id))
			break;
	}
	rev = json_array();
	for (i = json_array_size(path); i-- > 0;)
		json_array_append(rev, json_array_get(path, i));
	json_decref(path);
	return rev;
}

/* one node's message onto msgs, unless it is none, hidden or empty */
static int
chatgpt_message(struct mig_reader *r, json_t *node, const char *at,
    int64_t *last, json_t *msgs, struct error *e)
{
	static const char *const mapped[] = { "id", "create_time", NULL };
	json_t *m = json_object_get(node, "message"), *v, *msg, *keep, *tools;
	const char *role, *to;
	struct buf text = { 0 }, where = { 0 };
	int other, rc = -1;
	int64_t ms;

	if (m == NULL || json_is_null(m))
		return 0;
	if (!json_is_object(m))
		return mig_bad(r, e, "%s.message: expected an object", at);
	if (json_is_true(json_object_get(json_object_get(m, "metadata"),
	    "is_visually_hidden_from_conversation")))
		return 0;
	v = json_object_get(json_object_get(m, "author"), "role");
	if (!json_is_string(v))
		return mig_bad(r, e, "%s.message.author.role: %s", at, v == NULL ?
		    "missing" : "expected a string");
	if ((role = chatgpt_role(json_string_value(v))) == NULL) {
		role_unknown(&where, json_string_value(v), NULL);
		mig_bad(r, e, "%s.message.author.role: %s", at, where.data);
		buf_free(&where);
		return -1;
	}
	v = json_object_get(m, "create_time");
	if (v == NULL || json_is_null(v))
		ms = *last;	/* no time of its own: the one before it */
	else if (mig_want_time(r, v, mig_path(&where, "%s.message.create_time",
	    at), &ms, e) < 0)
		goto out;
	chatgpt_text(json_object_get(m, "content"), &text, &other);
	to = json_str(m, "recipient", NULL);
	if (to != NULL && strcmp(to, "all") == 0)
		to = NULL;
	/* parts: [""]: a placeholder the UI never showed */
	if (text.len == 0 && !other && to == NULL) {
		rc = 0;
		goto out;
	}
	v = json_object_get(m, "id");
	msg = mig_message(json_is_string(v) ? json_string_value(v) :
	    json_str(node, "id", NULL), ms, role, text.data ? text.data : "",
	    text.len);
	if (to != NULL && strcmp(role, "assistant") == 0) {
		tools = json_array();
		mig_tool_add(tools, to);
		mig_set_tools(msg, tools);
		json_decref(tools);
	}
	/* one part, the text: the message's content is that string itself,
	 * which the part kept under "imported" shares rather than copies */
	v = json_object_get(json_object_get(m, "content"), "parts");
	if (json_array_size(v) == 1 && json_is_string(json_array_get(v, 0)))
		json_object_set(msg, "content", json_array_get(v, 0));
	keep = json_object();
	mig_keep_extra(keep, m, mapped);
	json_object_set_new(msg, "imported", keep);
	json_array_append_new(msgs, msg);
	*last = ms;
	rc = 0;
out:
	buf_free(&text);
	buf_free(&where);
	return rc;
}

/* one conversation of the export */
static int
chatgpt_conversation(struct mig_reader *r, json_t *conv, size_t index,
    struct error *e)
{
	static const char *const mapped[] = { "title", "mapping", "id",
	    "conversation_id", "current_node", "create_time", "update_time",
	    NULL };
	static const char *const id_keys[] = { "conversation_id", "id", NULL };
	struct buf at = { 0 }, nat = { 0 };
	json_t *path = NULL, *msgs = json_array(), *v, *c, *keep;
	const char *id, *title;
	int64_t last;
	size_t i;
	int rc = -1;

	mig_path(&at, "[%zu]", index);
	if (mig_want_conversation(r, conv, at.data, id_keys, "title", &id,
	    &title, e) < 0)
		goto out;
	if (!json_is_object(json_object_get(conv, "mapping"))) {
		mig_bad(r, e, "%s.mapping: expected an object", at.data);
		goto out;
	}
	if (mig_want_time(r, json_object_get(conv, "create_time"),
	    mig_path(&nat, "%s.create_time", at.data), &last, e) < 0)
		goto out;
	if ((path = chatgpt_path(r, conv, at.data, e)) == NULL)
		goto out;
	json_array_foreach(path, i, v)
		if (chatgpt_message(r, json_object_get(json_object_get(conv,
		    "mapping"), json_string_value(v)), mig_path(&nat,
		    "%s.mapping.%s", at.data, json_string_value(v)), &last, msgs,
		    e) < 0)
			goto out;
	if (json_array_size(msgs) == 0) {
		mig_note(r, "'%s': %s: conversation '%s' has no message; skipped",
		    r->src->file, at.data, id);
		rc = 0;
		goto out;
	}
	c = mig_conversation_of(r, id, msgs, title);
	keep = json_object();
	mig_keep_extra(keep, conv, mapped);
	mig_add_keeping(r, c, keep);
	rc = 0;
out:
	json_decref(path);
	json_decref(msgs);
	buf_free(&at);
	buf_free(&nat);
	return rc;
}

int
mig_read_chatgpt(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	return mig_each_item(r, in, "expected an array of conversations at "
	    "the top (ChatGPT's conversations.json)", chatgpt_conversation, e);
}
