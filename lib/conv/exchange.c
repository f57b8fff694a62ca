/*
 * exchange.c - a prompt and its answer recorded as one exchange (convctl run):
 * where it goes is settled when the prompt is given, by conv_add itself, and
 * both messages are written by conv_add in the one transaction that follows.
 * A spooled prompt or answer goes in as a stand-in, the store told where its
 * text is.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"

/*
 * The prompt as conv_add takes it: a spooled one as a stand-in, once its text
 * has passed the check conv_add makes of a text in memory
 */
static int
prompt_request(const struct exchange *ex, struct add_request *prompt,
    struct error *e)
{
	*prompt = ex->prompt;
	if (ex->prompt_spool == NULL)
		return 0;
	if (message_text_check(spool_chomped(ex->prompt_spool),
	    ex->prompt_not_utf8, e) < 0)
		return -1;
	prompt->text = "?";
	prompt->len = 1;
	return 0;
}

int
exchange_plan(struct store *st, struct exchange *ex, struct error *e)
{
	struct add_request prompt, reply = ex->reply;
	struct add_result res;
	struct conv *c;

	if (store_load_active(st, e) < 0 || prompt_request(ex, &prompt, e) < 0)
		return -1;
	c = store_active(st);
	ex->active = c != NULL ? xstrdup(conv_id(c)) : NULL;
	ex->joins = NULL;
	/* a trial on the snapshot: the same checks, and the same idle rule,
	 * as the add that will record it */
	if (conv_add(st, &prompt, &res, e) != ADD_DONE)
		return -1;
	if (!res.started)
		ex->joins = xstrdup(res.conv_id);
	/* the answer is not known yet; its tools are (a stand-in for its
	 * text: not the prompt again, which can be megabytes) */
	reply.text = "?";
	reply.len = 1;
	reply.at = res.at;
	reply.expect_conv = res.conv_id;
	return conv_add(st, &reply, &res, e) == ADD_DONE ? 0 : -1;
}

enum add_status
exchange_record(struct store *st, const struct exchange *ex,
    struct exchange_result *res, struct error *e)
{
	struct add_request prompt, reply = ex->reply;
	struct add_result pr, rr;
	enum add_status rc;
	struct conv *c;

	memset(res, 0, sizeof(*res));
	if (store_load_active(st, e) < 0 || prompt_request(ex, &prompt, e) < 0)
		return ADD_FAILED;
	c = store_active(st);
	/* one that was not there to join or to end: someone else's */
	if (c != NULL &&
	    (ex->active == NULL || strcmp(conv_id(c), ex->active) != 0)) {
		if (ex->joins != NULL)
			error_set(e, "conversation '%s' became active while the "
			    "command ran; the exchange belongs to '%s'",
			    conv_id(c), ex->joins);
		else
			error_set(e, "conversation '%s' became active while the "
			    "command ran; the exchange would have started a new "
			    "one", conv_id(c));
		return ADD_ELSEWHERE;
	}
	/* nothing active: the one it joined was ended, and the exchange, whole
	 * in itself, starts a new one rather than being lost */
	prompt.expect_conv = c != NULL ? ex->joins : NULL;
	if ((rc = conv_add(st, &prompt, &pr, e)) != ADD_DONE)
		return rc;
	if (ex->prompt_spool != NULL &&
	    store_spool_message(st, ex->prompt_spool, e) < 0)
		return ADD_FAILED;
	res->conv_id = pr.conv_id;
	res->ended_id = pr.ended_id;
	res->started = pr.started;
	res->moved = ex->joins != NULL && pr.started;
	if (ex->spool != NULL) {
		reply.text = "?";
		reply.len = 1;
	}
	if (reply.text == NULL)
		return ADD_DONE;
	/* the answer goes with its question however long the command took: the
	 * idle timeout measures the silence between exchanges, not the wait
	 * for one */
	reply.expect_conv = pr.conv_id;
	reply.idle_timeout = INT64_MAX;
	if ((rc = conv_add(st, &reply, &rr, e)) != ADD_DONE)
		return rc;
	if (ex->spool != NULL && store_spool_message(st, ex->spool, e) < 0)
		return ADD_FAILED;
	return ADD_DONE;
}

void
exchange_free(struct exchange *ex)
{
	free(ex->active);
	free(ex->joins);
	ex->active = ex->joins = NULL;
}
