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
	{ 0, "tool", "NAME", "a tool used for this message; repeatable, at "
	    "most 100, each one line of at most 100 characters", OPTF_REPEAT },
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

struct adding {
	struct ctx *ctx;
	struct add_request rq;
	struct add_result res;
	const char *tname;		/* --template, or NULL */
};

/* under the lock: the message added, perhaps past the idle boundary */
static int
add_message(void *arg, struct store *st, struct ending_result *ending)
{
	struct adding *a = arg;
	struct ctx *ctx = a->ctx;
	struct error e;
	int rc;

	/* the clock is read only under the lock, so writers waiting on each
	 * other never add a message older than the one the previous lock
	 * holder added */
	if (!args_has(&ctx->args, "at") && (rc = cmd_now(ctx, &a->rq.at)) != 0)
		return rc;
	a->rq.clock = !args_has(&ctx->args, "at");
	switch (conv_add(st, &a->rq, &a->res, &e)) {
	case ADD_DONE:
		break;
	case ADD_ELSEWHERE:
		cmd_error(ctx, "%s", e.msg);
		return EXIT_CONFLICT;
	case ADD_BEFORE_LAST:	/* the user asked for that time: theirs to fix */
		cmd_error(ctx, "%s; give a later --at, or none to use the "
		    "clock", e.msg);
		return EXIT_USAGE;
	case ADD_FAILED:
		return cmd_fail(ctx, &e);
	}
	ending->idle_ended = a->res.ended_id;
	/* a duplicate changed nothing: the store is left as it is */
	ending->unchanged = a->res.duplicate;
	return 0;
}

/* after the write: the conversation's id, before any summary is asked for */
static int
print_added(void *arg, struct store *st, const struct ending_result *ending)
{
	struct adding *a = arg;

	(void)st;
	(void)ending;
	if (a->res.at != a->rq.at)
		cmd_skew_warning(a->ctx, a->rq.at, a->res.at, "recorded");
	if (a->rq.first_system != NULL && !a->res.started)
		cmd_error(a->ctx, "note: template '%s' not used: the message "
		    "went to conversation '%s', already started", a->tname,
		    a->res.conv_id);
	cmd_put_line(stdout, a->res.conv_id);
	fflush(stdout);
	return 0;
}

/*
 * A conversation the idle boundary ended is summarized after the write, with
 * no lock held, when summary_at_idle_end says so (lib/ops/ending.c): a summary
 * that fails leaves it pending and the add done (exit 0); a summarizer that
 * is not set up right leaves it pending without a word: summarize --pending
 * says what is wrong.
 */
static int
add_exec(struct ctx *ctx)
{
	struct adding a = { .ctx = ctx, .rq = { .role = ROLE_USER } };
	struct ending_request er = { .kind = ENDING_IDLE, .change = add_message,
	    .committed = print_added, .arg = &a };
	struct ending_result ending;
	struct summary_config cf;
	struct buf text = { 0 };
	struct error e;
	const char *role = args_get(&ctx->args, "role");
	char *tmpl = NULL;
	long max;
	int rc;

	if (role != NULL && (rc = cmd_role(ctx, role, &a.rq.role)) != 0)
		return rc;
	if (lifecycle_idle_timeout(&ctx->settings, &a.rq.idle_timeout, &e) < 0)
		return cmd_fail(ctx, &e);
	if ((rc = cmd_tools(ctx, &a.rq.tools, &a.rq.ntools)) != 0)
		return rc;
	a.rq.dedupe_key = args_get(&ctx->args, "dedupe-key");
	a.rq.expect_conv = args_get(&ctx->args, "expect-conversation");
	/* --at is checked before anything is read */
	if ((args_has(&ctx->args, "at") && (rc = cmd_now(ctx, &a.rq.at)) != 0) ||
	    (rc = cmd_text(ctx, 0, &text)) != 0)
		goto out;
	a.rq.text = text.data ? text.data : "";
	a.rq.len = text.len;
	if ((a.tname = args_get(&ctx->args, "template")) != NULL) {
		if ((rc = cmd_limit(ctx, SET_MAX_MESSAGE_BYTES, &max)) != 0)
			goto out;
		if (template_text(&ctx->settings, a.tname, (size_t)max, &tmpl,
		    &a.rq.first_len, &e) < 0) {
			cmd_error(ctx, "%s", e.msg);
			rc = EXIT_FAIL;
			goto out;
		}
		a.rq.first_system = tmpl;
	}
	if (cmd_summary_setup(ctx, &cf, &e) == SUMMARY_SETUP_OK)
		er.cf = &cf;
	rc = cmd_ending(ctx, &er, &ending);
	ending_result_free(&ending);
out:
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
	.paging = PAGING_STDIN,
	.exec = add_exec,
};
