/*
 * add.c - `convctl add`: the message from the operands or standard input, one
 * conv_add(), the conversation's id printed; the store's format is lib/'s.
 */
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
	{ 0 },
};

/*
 * TEXT operands joined by spaces, as echo does, or all of standard input, at
 * most max_message_bytes of it; read before the store is locked, so a slow or
 * endless pipe never holds the lock
 */
static int
read_text(struct ctx *ctx, struct buf *b)
{
	struct error e;
	long max;
	int i;

	if (cmd_limit(ctx, SET_MAX_MESSAGE_BYTES, &max) != 0)
		return EXIT_FAIL;
	if (ctx->args.argc > 0) {
		for (i = 0; i < ctx->args.argc; i++) {
			if (i > 0)
				buf_addc(b, ' ');
			buf_adds(b, ctx->args.argv[i]);
		}
		if (b->len > (size_t)max) {
			cmd_error(ctx, "TEXT is larger than the limit of %ld bytes "
			    "(the max_message_bytes setting)", max);
			return EXIT_FAIL;
		}
		return 0;
	}
	if (isatty(STDIN_FILENO))
		return cmd_usage_error(ctx, "no TEXT given and standard input "
		    "is a terminal");
	if (buf_read_max(b, STDIN_FILENO, "standard input", (size_t)max,
	    setting_table[SET_MAX_MESSAGE_BYTES].key, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		return EXIT_FAIL;
	}
	/* as command substitution does, so `tool | convctl add` stores the reply */
	while (b->len > 0 && b->data[b->len - 1] == '\n') {
		b->data[--b->len] = '\0';
		if (b->len > 0 && b->data[b->len - 1] == '\r')
			b->data[--b->len] = '\0';
	}
	return 0;
}

static int
add_exec(struct ctx *ctx)
{
	struct add_request rq = { .role = ROLE_USER };
	struct add_result res;
	struct store *st = NULL;
	struct buf text = { 0 };
	struct error e;
	const char *role = args_get(&ctx->args, "role");
	long idle;
	int rc;

	if (role != NULL && role_parse(role, &rq.role) < 0)
		return cmd_usage_error(ctx, "unknown role '%s' (expected %s)",
		    role, role_list());
	if (settings_long(&ctx->settings, SET_IDLE_TIMEOUT, &idle, &e) < 0) {
		cmd_error(ctx, "%s", e.msg);
		return EXIT_FAIL;
	}
	rq.idle_timeout = (int64_t)idle * 60000;
	rq.tools = args_all(&ctx->args, "tool", &rq.ntools);
	rq.dedupe_key = args_get(&ctx->args, "dedupe-key");
	rq.expect_conv = args_get(&ctx->args, "expect-conversation");
	/* --at is checked before anything is read; the clock is read only
	 * under the lock, so writers waiting on each other never add a message
	 * older than the one the previous lock holder added */
	if ((args_has(&ctx->args, "at") && (rc = cmd_now(ctx, &rq.at)) != 0) ||
	    (rc = read_text(ctx, &text)) != 0)
		goto out;
	rq.text = text.data ? text.data : "";
	rq.len = text.len;
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
		cmd_error(ctx, "%s", e.msg);
		rc = EXIT_FAIL;
		goto out;
	}
	/* a duplicate changed nothing: the store is left as it is */
	if (!res.duplicate && (rc = cmd_commit(ctx, st)) != 0)
		goto out;
	if (res.at != rq.at)
		cmd_skew_warning(ctx, rq.at, res.at, "recorded");
	printf("%s\n", res.conv_id);
out:
	store_close(st);
	buf_free(&text);
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
