/*
 * claudeai.c - migrate's claudeai format: the conversations.json of the data
 * export of claude.ai and the Claude apps (Settings, Privacy, Export data),
 * an array of conversations each with its chat_messages in order. It knows
 * the reader interface (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/*
 * the other files of the export, beside conversations.json, by the fields of
 * their first item: what they are, or NULL. They hold no conversation
 */
static const char *
cai_companion(json_t *first)
{
	if (json_object_get(first, "chat_messages") != NULL)
		return NULL;
	if (json_object_get(first, "email_address") != NULL &&
	    json_object_get(first, "full_name") != NULL)
		return "users.json, the account";
	if (json_object_get(first, "prompt_template") != NULL &&
	    json_object_get(first, "is_starter_project") != NULL)
		return "projects.json, the projects' instructions and documents";
	if (json_object_get(first, "conversations_memory") != NULL ||
	    json_object_get(first, "project_memories") != NULL)
		return "memories.json, what Claude remembers of the person";
	return NULL;
}

/* an array whose first item has "chat_messages": claude.ai's, no other's;
 * or the first item of one of the export's other files */
int
mig_detect_claudeai(json_t *root)
{
	json_t *first = json_array_get(root, 0);

	return json_is_array(root) && (json_is_array(json_object_get(first,
	    "chat_messages")) || cai_companion(first) != NULL);
}

/* 1: the source is one of the export's other files, said in a note */
static int
cai_other(struct mig_reader *r, json_t *first)
{
	const char *what = cai_companion(first);

	if (what == NULL)
		return 0;
	mig_note(r, "'%s': claude.ai's %s: no conversations in it",
	    r->src->file, what);
	return 1;
}

/* one message being made of a chat_message's blocks */
struct cai_part {
	const char *role;
	struct buf text;
	json_t *tools;		/* tool_use names */
	json_t *blocks;		/* the blocks it was made of */
	int kept;		/* one is not plain text: the blocks are kept */
	size_t ntext;
};

struct cai_msg {
	struct mig_reader *r;
	json_t *m;		/* the chat_message */
	const char *uuid;
	int64_t ms;
	json_t *msgs;
	size_t parts;		/* messages made of it so far */
};

static const char *const cai_mapped[] = { "uuid", "sender", "text",
    "content", "created_at", NULL };

/* the part as a message into c->msgs: the chat_message's uuid for its first,
 * UUID-N for the next; the chat_message's other fields kept on its first */
static void
cai_flush(struct cai_msg *c, struct cai_part *p)
{
	struct buf id = { 0 };
	json_t *msg, *keep;

	if (p->role == NULL)
		return;
	if (c->uuid != NULL && c->parts == 0)
		buf_adds(&id, c->uuid);
	else if (c->uuid != NULL)
		buf_addf(&id, "%s-%zu", c->uuid, c->parts);
	else
		mig_message_id(&id, c->ms, json_array_size(c->msgs));
	msg = mig_message(id.data, c->ms, p->role, p->text.data ? p->text.data :
	    "", p->text.len);
	mig_set_tools(msg, p->tools);
	keep = json_object();
	if (c->parts == 0)
		mig_keep_extra(keep, c->m, cai_mapped);
	if (p->kept)
		json_object_set(keep, "content", p->blocks);
	if (c->parts > 0 && c->uuid != NULL)
		json_object_set_new(keep, "uuid", json_string(c->uuid));
	if (json_object_size(keep) > 0)
		json_object_set(msg, "imported", keep);
	json_decref(keep);
	json_array_append_new(c->msgs, msg);
	c->parts++;
	buf_free(&id);
	buf_free(&p->text);
	/* the message holds them now: the next part's are new */
	json_decref(p->tools);
	json_decref(p->blocks);
	p->tools = json_array();
	p->blocks = json_array();
	p->role = NULL;
	p->kept = 0;
	p->ntext = 0;
}

/*
 * the blocks of a chat_message: text (and thinking, tool_use: kept) make the
 * sender's message; each tool_result is a tool message of its own, so an
 * assistant's turn that used a tool reads as Claude Code's does: its text
 * and the call, the result, the text after
 */
static int
cai_blocks(struct cai_msg *c, json_t *blocks, const char *role,
    const char *at, struct error *e)
{
	struct cai_part p = { 0 };
	json_t *b;
	const char *type, *t;
	size_t i;
	int partial, rc = -1;

	p.tools = json_array();
	p.blocks = json_array();
	json_array_foreach(blocks, i, b) {
		type = json_str(b, "type", NULL);	/* cai_has_text() checked */
		if (strcmp(type, "tool_result") == 0) {
			cai_flush(c, &p);
			p.role = "tool";
			mig_content_text(json_object_get(b, "content"), &p.text,
			    &partial);
			json_array_append(p.blocks, b);
			p.kept = 1;
			cai_flush(c, &p);
			continue;
		}
		if (p.role == NULL)
			p.role = role;
		json_array_append(p.blocks, b);
		if (strcmp(type, "text") != 0) {	/* thinking, tool_use… */
			if (strcmp(type, "tool_use") == 0)
				mig_tool_add(p.tools, json_str(b, "name", NULL));
			p.kept = 1;
			continue;
		}
		if ((t = json_str(b, "text", NULL)) == NULL) {
			mig_bad(c->r, e, "%s.content[%zu].text: expected a "
			    "string", at, i);
			goto out;
		}
		if (p.ntext++ > 0)
			buf_addc(&p.text, '\n');
		buf_adds(&p.text, t);
	}
	cai_flush(c, &p);
	rc = 0;
out:
	buf_free(&p.text);
	json_decref(p.tools);
	json_decref(p.blocks);
	return rc;
}

/* 1: blocks has a text or a tool_result, which its text is made of; 0:
 * none; -1: a block is not an object with a "type" */
static int
cai_has_text(struct mig_reader *r, json_t *blocks, const char *at,
    struct error *e)
{
	json_t *b;
	const char *type;
	size_t i;
	int has = 0;

	json_array_foreach(blocks, i, b) {
		if (!json_is_object(b))
			return mig_bad(r, e, "%s.content[%zu]: expected an object",
			    at, i);
		if ((type = json_str(b, "type", NULL)) == NULL)
			return mig_bad(r, e, "%s.content[%zu].type: expected a "
			    "string", at, i);
		if (strcmp(type, "text") == 0 || strcmp(type, "tool_result") ==
		    0)
			has = 1;
	}
	return has;
}

/* chat_messages[j] into msgs; *last: the time of the one before */
static int
cai_message(struct mig_reader *r, json_t *m, const char *at, int64_t *last,
    json_t *msgs, struct error *e)
{
	struct cai_msg c = { r, m, NULL, 0, msgs, 0 };
	struct buf where = { 0 };
	struct cai_part p = { 0 };
	json_t *v, *content;
	const char *sender, *role;
	int has, rc = -1;

	if (!json_is_object(m))
		return mig_bad(r, e, "%s: expected an object", at);
	if ((sender = json_str(m, "sender", NULL)) == NULL)
		return mig_bad(r, e, "%s.sender: %s", at, json_object_get(m,
		    "sender") == NULL ? "missing" : "expected a string");
	if (strcmp(sender, "human") == 0)
		role = "user";
	else if (strcmp(sender, "assistant") == 0)
		role = "assistant";
	else
		return mig_bad(r, e, "%s.sender: unknown sender '%s'", at,
		    sender);
	v = json_object_get(m, "uuid");
	if (v != NULL && (!json_is_string(v) || json_string_length(v) == 0))
		return mig_bad(r, e, "%s.uuid: expected a non-empty string", at);
	c.uuid = json_string_value(v);
	v = json_object_get(m, "created_at");
	if (v == NULL || json_is_null(v))
		c.ms = *last;
	else if (mig_want_time(r, v, mig_path(&where, "%s.created_at", at),
	    &c.ms, e) < 0)
		goto out;
	*last = c.ms;
	content = json_object_get(m, "content");
	v = json_object_get(m, "text");
	if (v != NULL && !json_is_null(v) && !json_is_string(v)) {
		mig_bad(r, e, "%s.text: expected a string", at);
		goto out;
	}
	if (content != NULL && !json_is_null(content) &&
	    !json_is_array(content)) {
		mig_bad(r, e, "%s.content: expected an array of blocks", at);
		goto out;
	}
	/* the blocks, where the export has them: its "text" renders a
	 * tool's blocks as a placeholder; else "text", the blocks (of kinds
	 * that hold no text) kept */
	if ((has = cai_has_text(r, content, at, e)) < 0)
		goto out;
	if (has) {
		if (cai_blocks(&c, content, role, at, e) < 0)
			goto out;
	} else if (json_string_length(v) > 0 || json_array_size(content) > 0 ||
	    json_array_size(json_object_get(m, "attachments")) > 0 ||
	    json_array_size(json_object_get(m, "files")) > 0) {
		p.role = role;
		p.tools = json_array();
		p.blocks = json_array();
		buf_add(&p.text, json_string_value(v), json_string_length(v));
		if (json_array_size(content) > 0) {
			json_decref(p.blocks);
			p.blocks = json_incref(content);
			p.kept = 1;
		}
		cai_flush(&c, &p);
		json_decref(p.tools);
		json_decref(p.blocks);
	}
	rc = 0;
out:
	buf_free(&where);
	return rc;
}

/* one conversation of the export */
static int
cai_conversation(struct mig_reader *r, json_t *conv, size_t index,
    struct error *e)
{
	static const char *const mapped[] = { "uuid", "name", "chat_messages",
	    "summary", NULL };
	static const char *const id_keys[] = { "uuid", NULL };
	struct buf at = { 0 }, nat = { 0 };
	json_t *msgs = json_array(), *v, *c, *keep, *list;
	const char *id, *title;
	int64_t last;
	size_t i;
	int rc = -1;

	mig_path(&at, "[%zu]", index);
	if (mig_want_conversation(r, conv, at.data, id_keys, "name", &id,
	    &title, e) < 0)
		goto out;
	if (title != NULL && *title == '\0')
		title = NULL;	/* an unnamed conversation */
	list = json_object_get(conv, "chat_messages");
	if (!json_is_array(list)) {
		mig_bad(r, e, "%s.chat_messages: expected an array", at.data);
		goto out;
	}
	if (mig_want_time(r, json_object_get(conv, "created_at"),
	    mig_path(&nat, "%s.created_at", at.data), &last, e) < 0)
		goto out;
	json_array_foreach(list, i, v)
		if (cai_message(r, v, mig_path(&nat, "%s.chat_messages[%zu]",
		    at.data, i), &last, msgs, e) < 0)
			goto out;
	if (json_array_size(msgs) == 0) {
		mig_note(r, "'%s': %s: conversation '%s' has no message; skipped",
		    r->src->file, at.data, id);
		rc = 0;
		goto out;
	}
	c = mig_conversation_of(r, id, msgs, title);
	keep = json_object();
	/* the summary claude.ai wrote of it, where it has one */
	v = json_object_get(conv, "summary");
	if (json_string_length(v) > 0)
		json_object_set(c, "summary", v);
	else if (v != NULL)
		json_object_set(keep, "summary", v);
	mig_keep_extra(keep, conv, mapped);
	mig_add_keeping(r, c, keep);
	rc = 0;
out:
	json_decref(msgs);
	buf_free(&at);
	buf_free(&nat);
	return rc;
}

/* one item of the export: the first of a companion file says it holds
 * no conversation (1), else each is a conversation */
static int
cai_item(struct mig_reader *r, json_t *item, size_t index, struct error *e)
{
	if (index == 0 && cai_other(r, item))
		return 1;
	return cai_conversation(r, item, index, e);
}

int
mig_read_claudeai(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	return mig_each_item(r, in, "expected an array of conversations at "
	    "the top (claude.ai's conversations.json)", cai_item, e);
}
