/*
 * aiwhisperer.c - migrate's aiwhisperer format: an AIWhisperer agent state,
 * one conversation per task with a history. It knows the reader interface
 * (reader.h) and nothing of the run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* an agent state holds its tasks */
int
mig_detect_aiwhisperer(json_t *root)
{
	return json_is_object(root) && json_object_get(root, "tasks") != NULL;
}

/* one task: a conversation of its history, if it has one */
static int
aiwhisperer_task(struct mig_reader *r, json_t *root, const char *tid,
    json_t *task, struct error *e)
{
	static const char *const skip[] = { "context_manager", NULL };
	struct buf at = { 0 };
	json_t *cm, *hist, *msgs, *c, *keep;
	char *id;
	int rc;

	if (!json_is_object(task))
		return mig_bad(r, e, "tasks.%s: expected an object", tid);
	cm = json_object_get(task, "context_manager");
	if (cm == NULL || json_is_null(cm))
		return 0;
	if (!json_is_object(cm))
		return mig_bad(r, e, "tasks.%s.context_manager: expected an "
		    "object", tid);
	hist = json_object_get(cm, "history");
	if (hist == NULL || json_is_null(hist))
		return 0;
	if (!json_is_array(hist))
		return mig_bad(r, e, "tasks.%s.context_manager.history: "
		    "expected an array", tid);
	if (json_array_size(hist) == 0)
		return 0;
	msgs = json_array();
	rc = mig_openai_messages(r, hist, mig_path(&at,
	    "tasks.%s.context_manager.history", tid), msgs, e);
	buf_free(&at);
	if (rc < 0) {
		json_decref(msgs);
		return -1;
	}
	id = mig_generated_id(msgs, r->rq->now);
	c = mig_conversation_of(r, id, msgs, tid);
	free(id);
	json_decref(msgs);
	keep = json_object();
	json_object_set_new(keep, "id", json_string(tid));
	mig_keep_extra(keep, task, skip);
	json_object_set_new(c, "task", keep);
	if (json_object_get(root, "plan_id") != NULL)
		json_object_set(c, "planId", json_object_get(root, "plan_id"));
	mig_add(r, c, 0, 1);
	return 0;
}

int
mig_read_aiwhisperer(struct mig_reader *r, const struct mig_input *in,
    struct error *e)
{
	const char *tid;
	json_t *root = in->root, *tasks, *task;
	size_t done = 0, n;

	if (!json_is_object(root))
		return mig_bad(r, e, "expected an agent state object at the top");
	tasks = json_object_get(root, "tasks");
	if (!json_is_object(tasks))
		return mig_bad(r, e, "tasks: %s", tasks == NULL ? "missing" :
		    "expected an object");
	n = json_object_size(tasks);
	json_object_foreach(tasks, tid, task) {
		mig_progress(r, ++done, n);
		if (aiwhisperer_task(r, root, tid, task, e) < 0)
			return -1;
	}
	return 0;
}
