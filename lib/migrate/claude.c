/*
 * claude.c - migrate's claude format: a Claude Code session, the JSON lines
 * of ~/.claude/projects/DIR/SESSION.jsonl, one conversation. It knows the
 * reader interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "formats.h"

/* a line of the session's tree: a message, or another line with a uuid
 * (attachments, system notices) that messages may name as their parent */
struct claude_node {
	char *uuid, *parent;	/* NULL when the line has none */
	int64_t ms;		/* its time, 0 when it has none */
	size_t line;
	json_t *msg;		/* the message it makes; NULL for other lines */
	char *reply;		/* an assistant's message.id */
	ssize_t up;		/* its parent's node, -1 for a root */
};

struct claude_state {
	json_t *msgs;
	struct claude_node *node;	/* in file order */
	size_t nnode, cap, nmsg;
	char *session;		/* the first line's sessionId */
	char *title;		/* the last "summary" or "ai-title" line's text */
	char *custom;		/* the last "custom-title" line's: given by hand,
				 * it wins over the others */
};

/* a line that names the session: "summary" (Claude Code 1.x), "custom-title"
 * (--name, /rename), "ai-title" (2.x) */
static void
claude_title(struct claude_state *st, const char *type, json_t *rec)
{
	const char *t;

	if (strcmp(type, "custom-title") == 0 &&
	    (t = json_str(rec, "customTitle", NULL)) != NULL) {
		free(st->custom);
		st->custom = xstrdup(t);
	} else if ((strcmp(type, "summary") == 0 &&
	    (t = json_str(rec, "summary", NULL)) != NULL) ||
	    (strcmp(type, "ai-title") == 0 &&
	    (t = json_str(rec, "aiTitle", NULL)) != NULL)) {
		free(st->title);
		st->title = xstrdup(t);
	}
}

/*
 * msg, of an assistant line whose message.id is the last message's: the
 * same reply, which Claude Code writes a content block a line. Folded into
 * that message: its text after the text there, its tools added, the uuids
 * of both under the message's "imported", and what the later line kept
 * (its blocks, usage…) under "imported.merged"
 */
static void
claude_fold(json_t *into, json_t *msg)
{
	json_t *imp = json_object_get(into, "imported"), *uuids, *merged, *t;
	json_t *more = json_object_get(msg, "imported");
	struct buf text = { 0 };
	size_t i;

	buf_adds(&text, json_str(into, "content", NULL));
	if (json_string_length(json_object_get(msg, "content")) > 0 &&
	    text.len > 0)
		buf_addc(&text, '\n');
	buf_adds(&text, json_str(msg, "content", NULL));
	json_object_set_new(into, "content", json_stringn(text.data ? text.data :
	    "", text.len));
	buf_free(&text);
	json_array_foreach(json_object_get(msg, "toolsUsed"), i, t) {
		if (json_object_get(into, "toolsUsed") == NULL)
			json_object_set_new(into, "toolsUsed", json_array());
		mig_tool_add(json_object_get(into, "toolsUsed"),
		    json_string_value(t));
	}
	if (imp == NULL) {
		imp = json_object();
		json_object_set_new(into, "imported", imp);
	}
	if ((uuids = json_object_get(imp, "uuids")) == NULL) {
		uuids = json_array();
		json_array_append_new(uuids, json_string(json_str(into, "id",
		    NULL)));
		json_object_set_new(imp, "uuids", uuids);
	}
	json_array_append_new(uuids, json_string(json_str(msg, "id", NULL)));
	if ((merged = json_object_get(imp, "merged")) == NULL) {
		merged = json_array();
		json_object_set_new(imp, "merged", merged);
	}
	json_array_append_new(merged, more != NULL ? json_incref(more) :
	    json_object());
}

/* a line of Claude Code's: a "type", and its session or its uuids */
int
mig_detect_claude(json_t *line)
{
	return json_is_string(json_object_get(line, "type")) &&
	    (json_is_string(json_object_get(line, "sessionId")) ||
	    json_is_string(json_object_get(line, "leafUuid")));
}

/* a tool_result's content: a string, or blocks of which the text counts */
static void
result_text(json_t *v, struct buf *b)
{
	int partial;

	mig_content_text(v, b, &partial);
}

/*
 * blocks into text (text blocks, tool results' text), tools (tool_use
 * names); *result: a tool_result was among them; *kept: a block that is
 * not plain text was, so the blocks are kept whole
 */
static int
claude_blocks(struct mig_reader *r, json_t *blocks, size_t line,
    struct buf *text, json_t *tools, int *result, int *kept, struct error *e)
{
	json_t *b;
	const char *type;
	size_t i, n = 0;

	*result = *kept = 0;
	json_array_foreach(blocks, i, b) {
		if ((type = json_str(b, "type", NULL)) == NULL)
			return mig_bad(r, e, "line %zu: message.content[%zu].type: "
			    "expected a string", line, i);
		if (strcmp(type, "tool_use") == 0) {
			mig_tool_add(tools, json_str(b, "name", NULL));
			*kept = 1;
			continue;
		}
		if (strcmp(type, "tool_result") == 0) {
			*result = *kept = 1;
			if (n++ > 0)
				buf_addc(text, '\n');
			result_text(json_object_get(b, "content"), text);
			continue;
		}
		if (strcmp(type, "text") != 0) {	/* thinking, image… */
			*kept = 1;
			continue;
		}
		if (n++ > 0)
			buf_addc(text, '\n');
		buf_adds(text, json_str(b, "text", NULL) ?
		    json_str(b, "text", NULL) : "");
	}
	return 0;
}

/* rec's place in the tree, with msg (a reference, taken) when it makes one */
static void
claude_node(struct claude_state *st, json_t *rec, size_t line, int64_t ms,
    json_t *msg, const char *reply)
{
	struct claude_node *n;
	const char *s;

	if (st->nnode == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 64;
		st->node = xrealloc(st->node, st->cap * sizeof(*st->node));
	}
	n = &st->node[st->nnode++];
	memset(n, 0, sizeof(*n));
	n->uuid = (s = json_str(rec, "uuid", NULL)) ? xstrdup(s) : NULL;
	n->parent = (s = json_str(rec, "parentUuid", NULL)) ? xstrdup(s) : NULL;
	n->ms = ms;
	n->line = line;
	n->msg = msg;
	n->reply = reply ? xstrdup(reply) : NULL;
}

/* a node's place among its siblings: parent, then time, then line */
struct claude_key {
	ssize_t up;
	int64_t ms;
	size_t line, k;
};

static int
claude_key_cmp(const void *a, const void *b)
{
	const struct claude_key *x = a, *y = b;

	if (x->up != y->up)
		return x->up < y->up ? -1 : 1;
	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* node k's message into st->msgs: a later line of the reply the last
 * message is part of (the same message.id) folds into it */
static void
claude_emit(struct claude_state *st, size_t k, const char **reply)
{
	struct claude_node *n = &st->node[k];
	json_t *last;

	if (n->msg == NULL)
		return;
	if (n->reply != NULL && *reply != NULL && strcmp(n->reply, *reply) ==
	    0) {
		last = json_array_get(st->msgs, json_array_size(st->msgs) - 1);
		claude_fold(last, n->msg);
	} else
		json_array_append(st->msgs, n->msg);
	*reply = n->reply;
}

/*
 * the messages in the order Claude Code reads them: each line follows the
 * line its parentUuid names, so a file written out of order, or a line that
 * names a parent written after it, reads as the conversation went. Where the
 * chain says nothing (the roots: no parentUuid, or one not in the file, and
 * the lines that follow one line, such as the branches an edit or a retry
 * makes), earlier times come first, then earlier lines. Every line is taken,
 * each once: a branch is not left out, and a cycle of parentUuids is read from
 * its first line.
 */
static void
claude_order(struct claude_state *st)
{
	struct claude_key *key;
	size_t *first, *stack, i, j, k, top = 0;
	unsigned char *done;
	const char *reply = NULL;
	json_t *ids = json_object(), *v;

	if (st->nnode == 0)
		goto out;
	for (i = 0; i < st->nnode; i++)
		if (st->node[i].uuid != NULL &&
		    json_object_get(ids, st->node[i].uuid) == NULL)
			json_object_set_new(ids, st->node[i].uuid,
			    json_integer((json_int_t)i));
	key = xmalloc(st->nnode * sizeof(*key));
	for (i = 0; i < st->nnode; i++) {
		v = st->node[i].parent ? json_object_get(ids,
		    st->node[i].parent) : NULL;
		st->node[i].up = v != NULL && (size_t)json_integer_value(v) !=
		    i ? (ssize_t)json_integer_value(v) : -1;
		key[i] = (struct claude_key){ st->node[i].up, st->node[i].ms,
		    st->node[i].line, i };
	}
	qsort(key, st->nnode, sizeof(*key), claude_key_cmp);
	/* counted: key[first[k + 1] .. first[k + 2]) are node k's children,
	 * key[first[0] .. first[1]) the roots */
	first = xmalloc((st->nnode + 2) * sizeof(*first));
	memset(first, 0, (st->nnode + 2) * sizeof(*first));
	for (i = 0; i < st->nnode; i++)
		first[key[i].up + 2]++;
	for (i = 1; i < st->nnode + 2; i++)
		first[i] += first[i - 1];
	stack = xmalloc(st->nnode * sizeof(*stack));
	done = xmalloc(st->nnode);
	memset(done, 0, st->nnode);
	for (i = first[1]; i-- > first[0];)
		stack[top++] = key[i].k;
	for (j = 0;; ) {
		while (top > 0) {
			k = stack[--top];
			if (done[k])
				continue;
			done[k] = 1;
			claude_emit(st, k, &reply);
			for (i = first[k + 2]; i-- > first[k + 1];)
				if (!done[key[i].k])
					stack[top++] = key[i].k;
		}
		/* a cycle no root leads to: from its first line */
		while (j < st->nnode && done[j])
			j++;
		if (j == st->nnode)
			break;
		stack[top++] = j;
	}
	free(done);
	free(stack);
	free(first);
	free(key);
out:
	json_decref(ids);
}

/* one line: a message when it is a user's or the assistant's */
static int
claude_line(struct mig_reader *r, void *arg, json_t *rec, size_t line,
    struct error *e)
{
	static const char *const mapped[] = { "type", "uuid", "timestamp",
	    "sessionId", "message", NULL };
	static const char *const inner[] = { "role", "content", NULL };
	struct claude_state *st = arg;
	struct buf text = { 0 }, id = { 0 }, where = { 0 };
	json_t *m, *content, *tools = NULL, *msg, *keep, *km;
	const char *type, *role, *s;
	int result = 0, kept = 0, rc = -1;
	int64_t ms;

	if (!json_is_object(rec))
		return mig_bad(r, e, "line %zu: expected a JSON object", line);
	if ((type = json_str(rec, "type", NULL)) == NULL)
		return mig_bad(r, e, "line %zu: type: expected a string", line);
	if (st->session == NULL && (s = json_str(rec, "sessionId", NULL)))
		st->session = xstrdup(s);
	claude_title(st, type, rec);
	if (strcmp(type, "user") != 0 && strcmp(type, "assistant") != 0) {
		/* titles, snapshots, system notices: not messages, but a
		 * message may follow one in the tree */
		if (json_str(rec, "uuid", NULL) != NULL) {
			if (mig_time_of(json_object_get(rec, "timestamp"),
			    &ms) < 0)
				ms = 0;
			claude_node(st, rec, line, ms, NULL, NULL);
		}
		return 0;
	}
	role = type;
	m = json_object_get(rec, "message");
	if (!json_is_object(m))
		return mig_bad(r, e, "line %zu: message: expected an object", line);
	content = json_object_get(m, "content");
	tools = json_array();
	if (json_is_string(content))
		buf_add(&text, json_string_value(content),
		    json_string_length(content));
	else if (!json_is_array(content)) {
		mig_bad(r, e, "line %zu: message.content: expected a string or "
		    "an array of blocks", line);
		goto out;
	} else if (claude_blocks(r, content, line, &text, tools, &result, &kept,
	    e) < 0)
		goto out;
	if (result)
		role = "tool";
	if (mig_want_time(r, json_object_get(rec, "timestamp"),
	    mig_path(&where, "line %zu: timestamp", line), &ms, e) < 0)
		goto out;
	if ((s = json_str(rec, "uuid", NULL)) != NULL)
		buf_adds(&id, s);
	else
		mig_message_id(&id, ms, st->nmsg);
	msg = mig_message(id.data, ms, role, text.data ? text.data : "",
	    text.len);
	mig_set_tools(msg, tools);
	keep = json_object();
	mig_keep_extra(keep, rec, mapped);
	km = json_object();
	mig_keep_extra(km, m, inner);
	if (kept)
		json_object_set(km, "content", content);
	if (json_object_size(km) > 0)
		json_object_set(keep, "message", km);
	json_decref(km);
	if (json_object_size(keep) > 0)
		json_object_set(msg, "imported", keep);
	json_decref(keep);
	s = strcmp(role, "assistant") == 0 ? json_str(m, "id", NULL) : NULL;
	claude_node(st, rec, line, ms, msg, s);
	st->nmsg++;
	rc = 0;
out:
	json_decref(tools);
	buf_free(&text);
	buf_free(&id);
	buf_free(&where);
	return rc;
}

int
mig_read_claude(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	struct claude_state st = { 0 };
	json_t *c;
	size_t i;
	int rc = -1;

	st.msgs = json_array();
	if (mig_lines(r, in->text, in->len, claude_line, &st, e) < 0)
		goto out;
	claude_order(&st);
	rc = 0;
	if ((c = mig_session_of(r, st.session ? st.session : r->src->session,
	    st.msgs, st.custom ? st.custom : st.title)) != NULL)
		mig_add(r, c, 1, 1);
out:
	for (i = 0; i < st.nnode; i++) {
		free(st.node[i].uuid);
		free(st.node[i].parent);
		free(st.node[i].reply);
		json_decref(st.node[i].msg);
	}
	free(st.node);
	json_decref(st.msgs);
	free(st.session);
	free(st.title);
	free(st.custom);
	return rc;
}
