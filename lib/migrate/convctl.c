/*
 * convctl.c - migrate's convctl format: convctl's own JSON, a whole store
 * or one conversation as `convctl show --format json` writes it, taken as it
 * is, nothing lost. It knows the reader interface (reader.h) and nothing of
 * the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* one conversation of the store's: an id, its messages and startedAt */
static int
is_conversation(json_t *root)
{
	return json_is_string(json_object_get(root, "id")) &&
	    json_is_array(json_object_get(root, "messages")) &&
	    json_object_get(root, "startedAt") != NULL;
}

/* a store: its conversations, and the version or imports ledger a convctl
 * store writes (SmartHole's PersistedConversations has neither; read the
 * same way, it is told apart only to name it) */
static int
is_store(json_t *root)
{
	return json_is_array(json_object_get(root, "conversations")) &&
	    (json_object_get(root, "imports") != NULL ||
	    json_object_get(root, "version") != NULL) &&
	    json_object_get(root, "conversationHistory") == NULL &&
	    json_object_get(root, "conversationData") == NULL;
}

int
mig_detect_convctl(json_t *root)
{
	return json_is_object(root) && (is_conversation(root) ||
	    is_store(root));
}

int
mig_read_convctl(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	char msg[sizeof(e->msg)];
	json_t *root = in->root;

	if (json_is_object(root) && json_object_get(root, "conversations"))
		return mig_persisted(r, root, "", e);
	if (!json_is_object(root) || !is_conversation(root))
		return mig_bad(r, e, "expected a convctl store or conversation "
		    "(an object with id, startedAt and messages) at the top");
	if (conv_validate(root, "", e) < 0) {
		memcpy(msg, e->msg, sizeof(msg));
		return mig_bad(r, e, "%s", msg);
	}
	mig_add(r, json_incref(root), 1, 0);
	return 0;
}
