/*
 * add.c - `convctl add`: the message from the operands or standard input, one
 * conv_add(), the conversation's id printed; the store's format is lib/'s.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ 'r', "role", "ROLE", "user, assistant, system or tool (user)", 0 },
	{ 0, "tool", "NAME", "a tool used for this message; repeatable",
	    OPTF_REPEAT },
	{ 0, "at", "TIME", "the message's time, ISO 8601, not before the last "
	    "message nor 5 minutes after the clock (now; a clock behind the last "
	    "message records it at that message's time)", 0 },
	{ 0, "dedupe-key", "KEY", "add nothing when a message with this key is "
	    "in the active or the last ended conversation", 0 },
	{ 0, "expect-conversation", "ID", "write only into conversation ID, "
	    "else exit 4", 0 },
	{ 0, "template", "NAME", "a message that starts a conversation opens "
	    "it with template NAME as a system message", 0 },
	{ 0 },
};

/*
 * The conversation the idle boundary ended, copied out while the store is
 * open, when it is to be summarized now (summary_at_idle_end); or NULL.
 * A summarizer that is not set up right leaves it pending without a word:
 * summarize --pending says what is wrong.
 */
static struct summary_job *
idle_job(struct ctx *ctx, struct store *st, const char *ended,
    struct summary_config *cf)
{
	struct error e;
	int now;

	if (ended == NULL ||
	    cmd_summary_setup(ctx, cf, &e) != SUMMARY_SETUP_OK)
		return NULL;
	if ((now = summary_at_idle_end(cf, &ctx->settings, &e)) < 0)
		cmd_error(ctx, "warning: %s", e.msg);
	return now > 0 ? summary_job_new(store_find(st, ended)) : NULL;
}

/*
 * After the write, with no lock held, as end does: a summary that fails
 * leaves the conversation pending and the add done (exit 0).
 */
static void
idle_summary(struct ctx *ctx, const struct summary_config *cf,
    struct summarize_item *item)
{
	struct progress progress = { .ctx = ctx };
	struct summarize_request rq = { .cf = cf, .settings = &ctx->settings,
	    .report = cmd_summarize_report, .report_arg = &progress };

	item->todo = 1;
	if (summarize_run(&rq, item, 1) != SUMMARIZE_DONE_ALL)
		cmd_error(ctx, "warning: '%s', ended by the idle timeout, has "
		    "no summary yet (convctl summarize --pending)",
		    summary_job_id(item->job));
	progress_done(&progress);
}

static int
add_exec(struct ctx *ctx)
{
	struct add_request rq = { .role = ROLE_USER };
	struct add_result res;
	struct summarize_item ended = { 0 };
	struct summary_config cf;
	struct store *st = NULL;
	struct buf text = { 0 };
	struct error e;
	const char *role = args_get(&ctx->args, "role"), *tname;
	char *tmpl = NULL;
	long idle, max;
	int rc;

	if (role != NULL && role_parse(role, &rq.role) < 0)
		return cmd_usage_error(ctx, "unknown role '%s' (expected %s)",
		    role, role_list());
	if (settings_long(&ctx->settings, SET_IDLE_TIMEOUT, &idle, &e) < 0) {
		return cmd_fail(ctx, &e);
	}
	rq.idle_timeout = (int64_t)idle * 60000;
	rq.tools = args_all(&ctx->args, "tool", &rq.ntools);
	rq.dedupe_key = args_get(&ctx->args, "dedupe-key");
	rq.expect_conv = args_get(&ctx->args, "expect-conversation");
	/* --at is checked before anything is read; the clock is read only
	 * under the lock, so writers waiting on each other never add a message
	 * older than the one the previous lock holder added */
	if ((args_has(&ctx->args, "at") && (rc = cmd_now(ctx, &rq.at)) != 0) ||
	    (rc = cmd_text(ctx, 0, &text)) != 0)
		goto out;
	rq.text = text.data ? text.data : "";
	rq.len = text.len;
	if ((tname = args_get(&ctx->args, "template")) != NULL) {
		if ((rc = cmd_limit(ctx, SET_MAX_MESSAGE_BYTES, &max)) != 0)
			goto out;
		if (template_text(&ctx->settings, tname, (size_t)max, &tmpl,
		    &rq.first_len, &e) < 0) {
			cmd_error(ctx, "%s", e.msg);
			rc = EXIT_FAIL;
			goto out;
		}
		rq.first_system = tmpl;
	}
	if ((rc = cmd_open(ctx, STORE_WRITE, &st)) != 0 ||
	    (!args_has(&ctx->args, "at") && (rc = cmd_now(ctx, &rq.at)) != 0))
		goto out;
	rq.clock = !args_has(&ctx->args, "at");
	switch (conv_add(st, &rq, &res, &e)) {
	case ADD_DONE:
		break;
	case ADD_ELSEWHERE:
		cmd_error(ctx, "%s", e.msg);
		rc = EXIT_CONFLICT;
		goto out;
	case ADD_BEFORE_LAST:	/* the user asked for that time: theirs to fix */
		cmd_error(ctx, "%s; give a later --at, or none to use the "
		    "clock", e.msg);
		rc = EXIT_USAGE;
		goto out;
	case ADD_FAILED:
		rc = cmd_fail(ctx, &e);
		goto out;
	}
	ended.job = idle_job(ctx, st, res.ended_id, &cf);
	/* a duplicate changed nothing: the store is left as it is */
	if (!res.duplicate && (rc = cmd_commit(ctx, st)) != 0)
		goto out;
	if (res.at != rq.at)
		cmd_skew_warning(ctx, rq.at, res.at, "recorded");
	if (tmpl != NULL && !res.started)
		cmd_error(ctx, "note: template '%s' not used: the message went "
		    "to conversation '%s', already started", tname, res.conv_id);
	printf("%s\n", res.conv_id);
	/* the rolling limit may have removed it at once */
	if (ended.job != NULL && store_find(st, summary_job_id(ended.job))) {
		store_close(st);
		st = NULL;
		fflush(stdout);	/* the id, before any request is made */
		idle_summary(ctx, &cf, &ended);
	}
out:
	summarize_item_clear(&ended);
	store_close(st);
	buf_free(&text);
	free(tmpl);
	return rc;
}

const struct cmd_entry cmd_add_entry = {
	.name = "add",
	.summary = "add a message to the active conversation",
	.options = options,
	.operands = "[TEXT...]",
	.operand_help = (const struct cmd_option[]){
		{ 0, NULL, "TEXT", "the message; standard input when absent", 0 },
		{ 0 },
	},
	.min_args = 0, .max_args = -1,
	.exec = add_exec,
};
