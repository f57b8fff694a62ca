/*
 * messages.c - migrate's messages format: a JSON array of OpenAI-style chat
 * messages, one conversation. It knows the reader interface (reader.h) and
 * nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* a JSON array at the top: nothing else is one */
int
mig_detect_messages(json_t *root)
{
	return json_is_array(root);
}

int
mig_read_messages(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	json_t *root = in->root, *msgs;
	char *id;

	if (!json_is_array(root))
		return mig_bad(r, e, "expected an array of chat messages at the top");
	if (json_array_size(root) == 0) {
		mig_note(r, "'%s': no messages", r->src->file);
		return 0;
	}
	msgs = json_array();
	if (mig_openai_messages(r, root, "", msgs, e) < 0) {
		json_decref(msgs);
		return -1;
	}
	id = mig_generated_id(msgs, r->rq->now);
	mig_add(r, mig_conversation_of(r, id, msgs, NULL), 0, 1);
	free(id);
	json_decref(msgs);
	return 0;
}
