/*
 * gemini.c - migrate's gemini format: a Gemini CLI session, one conversation:
 * the JSON lines of ~/.gemini/tmp/PROJECT/chats/session-*.jsonl, or an older
 * release's session-*.json (one object), read by gemini-session.c; or a
 * checkpoint, what /chat save writes, read by gemini-checkpoint.c; or the log
 * of prompts (logs.json), told apart, which imports nothing. Here: telling
 * them apart (detection and the reader formats.c calls). It knows the reader
 * interface (reader.h) and nothing of the run.
 */
#include <stdio.h>
#include <string.h>

#include "gemini.h"

/* a line of a session (its first: sessionId and projectHash), or an older
 * release's session whole, or a checkpoint, or the log of prompts */
int
mig_detect_gemini(json_t *v)
{
	json_t *first, *h;

	if (json_is_string(json_object_get(v, "sessionId")) &&
	    json_is_string(json_object_get(v, "projectHash")))
		return 1;
	if (json_is_object(json_object_get(v, "$set")) ||
	    json_is_string(json_object_get(v, "$rewindTo")))
		return 1;
	h = json_object_get(v, "history");
	if (json_is_object(v) && json_is_array(h) && json_array_size(h) > 0 &&
	    json_is_string(json_object_get(json_array_get(h, 0), "role")) &&
	    json_is_array(json_object_get(json_array_get(h, 0), "parts")))
		return 1;
	first = json_array_get(v, 0);
	/* an older release's checkpoint: its history bare */
	if (json_is_array(v) && json_is_string(json_object_get(first,
	    "role")) && json_is_array(json_object_get(first, "parts")))
		return 1;
	return json_is_array(v) && json_is_string(json_object_get(first,
	    "sessionId")) && json_object_get(first, "messageId") != NULL &&
	    json_is_string(json_object_get(first, "message"));
}

int
mig_read_gemini(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	static const char *const mapped[] = { "sessionId", "summary",
	    "lastUpdated", NULL };
	struct gemini_state st = { 0 };
	json_t *root = in->root, *msgs = NULL, *harness, *notices, *c, *keep;
	struct buf other = { 0 };
	const char *title;
	int rc = -1;
	FILE *f;

	if (root == NULL)
		root = json_loadb(in->text, in->len, JSON_LOAD_FLAGS, NULL);
	else
		json_incref(root);
	/* one line only, of a session's lines */
	if (json_object_get(root, "id") != NULL ||
	    json_object_get(root, "$set") != NULL ||
	    json_object_get(root, "$rewindTo") != NULL) {
		json_decref(root);
		root = NULL;
	}
	if (root != NULL && (json_is_array(root) || json_object_get(root,
	    "history") != NULL) && gemini_is_checkpoint(root)) {
		rc = gemini_checkpoint(r, root, e);
		json_decref(root);
		return rc;
	}
	if (root != NULL && !json_is_object(root)) {
		/* the prompts' log: what was typed, the replies not with it */
		mig_note(r, "'%s': Gemini CLI's log of prompts, what was typed "
		    "and no reply, each in its session's file "
		    "(chats/session-*.jsonl): nothing imported", r->src->file);
		json_decref(root);
		return 0;
	}
	/* an older release's SESSION.json that a resume wrote again as
	 * SESSION.jsonl beside it: read there */
	if (root != NULL && strlen(gemini_base_name(r->src->file)) > 5 &&
	    strcmp(r->src->file + strlen(r->src->file) - 5, ".json") == 0) {
		buf_addf(&other, "%sl", r->src->file);
		if ((f = fopen(other.data, "r")) != NULL) {
			fclose(f);
			mig_note(r, "'%s': resumed into '%s', which holds it: "
			    "read there", r->src->file, other.data);
			buf_free(&other);
			json_decref(root);
			return 0;
		}
		buf_free(&other);
	}
	gemini_start(&st);
	harness = json_array();
	notices = json_array();
	if (root != NULL ? gemini_whole(r, &st, root, e) < 0 :
	    mig_lines(r, in->text, in->len, gemini_line, &st, e) < 0)
		goto out;
	msgs = gemini_messages(&st, harness, notices);
	rc = 0;
	title = json_str(st.meta, "summary", NULL);
	if ((c = mig_session_of(r, st.session ? st.session : r->src->session,
	    msgs, title)) == NULL)
		goto out;
	keep = json_object();
	mig_keep_extra(keep, st.meta, mapped);
	if (json_array_size(notices) > 0)
		json_object_set(keep, "notices", notices);
	gemini_add(r, c, keep, harness);
out:
	json_decref(root);
	json_decref(msgs);
	json_decref(harness);
	json_decref(notices);
	gemini_end(&st);
	return rc;
}
