/*
 * run.c - `convctl run -- CMD`: the prompt read (from standard input: spooled
 * to files), CMD run by lib/ops/run.c with no lock held, its answer spooled to a
 * file, then the exchange recorded by lib/conv/exchange.c; says what was kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "prompt", "TEXT", "the prompt, given to CMD as its last argument "
	    "(standard input, passed on to CMD's, when absent)", 0),
	OPT(0, "tool", "NAME", "a tool CMD used, recorded with its answer; "
	    "repeatable, at most 100, each one line of at most 100 characters",
	    OPTF_REPEAT),
	OPT(0, "context", "FORMAT", "first write to CMD's standard input the "
	    "active conversation as convctl prompt --format FORMAT prints it "
	    "(text), then a blank line", OPTF_OPTIONAL),
	OPT(0, "keep-partial", NULL, "record CMD's output as the answer even when "
	    "CMD fails", 0),
	{ 0 },
};

/* the prompt read from standard input, never whole in memory: as it is into
 * *raw, for CMD, and escaped into sp, for the store; at most max bytes, as
 * cmd_stdin_text reads it */
static int
spool_prompt(struct ctx *ctx, struct store *st, long max, struct exchange *ex,
    struct spool *sp, int *raw)
{
	struct error e;

	if ((*raw = store_temp_file(st, &e)) < 0 ||
	    store_spool_open(st, sp, &e) < 0 ||
	    run_take_input(STDIN_FILENO, "standard input", (size_t)max,
	    setting_table[SET_MAX_MESSAGE_BYTES].key, *raw, sp,
	    &ex->prompt_not_utf8, &e) < 0)
		return cmd_fail(ctx, &e);
	ex->prompt_spool = sp;
	return 0;
}

/*
 * From a snapshot of the store, read without the lock: the prompt from
 * standard input (without --prompt; psp and *raw take it), the context for
 * CMD's standard input (with --context), where the exchange will go, and the
 * spool for the answer.
 */
static int
plan(struct ctx *ctx, long max, struct exchange *ex, struct buf *input,
    struct spool *psp, int *raw, struct spool *sp)
{
	struct prompt_request pr = { FMT_TEXT, -1, -1, 0, 0, NULL };
	struct store *st = NULL;
	struct error e;
	int rc;

	if ((rc = cmd_open(ctx, STORE_READ, &st)) != 0)
		return rc;
	if ((!args_has(&ctx->args, "prompt") &&
	    (rc = spool_prompt(ctx, st, max, ex, psp, raw)) != 0) ||
	    (rc = cmd_format_of(ctx, "context", FMT_TEXT, PROMPT_FORMATS,
	    &pr.format)) != 0 ||
	    (rc = cmd_now(ctx, &ex->prompt.at)) != 0) {
		store_close(st);
		return rc;
	}
	if (args_has(&ctx->args, "context")) {
		if (store_load_active(st, &e) < 0 ||
		    render_prompt(input, store_active(st), &pr, &e) < 0)
			goto fail;
		if (input->len > 0)
			buf_addc(input, '\n');	/* the blank line */
	}
	if (exchange_plan(st, ex, &e) < 0 || store_spool_open(st, sp, &e) < 0)
		goto fail;
	store_close(st);
	return 0;
fail:
	rc = cmd_fail(ctx, &e);
	store_close(st);
	return rc;
}

/* "'llm' exited with status 3", "'llm' was killed by signal 15 (...)" */
static void
describe_end(struct buf *b, const char *name, const struct run_result *r)
{
	if (r->abandoned)
		buf_addf(b, "stopped waiting for '%s' (pid %d), which may still "
		    "run", name, r->pid);
	else if (r->signal != 0)
		buf_addf(b, "'%s' was killed by signal %d (%s)", name, r->signal,
		    strsignal(r->signal));
	else
		buf_addf(b, "'%s' exited with status %d", name, r->exit_code);
}

/*
 * Whether the spooled output is the answer to record, else *why says why not:
 * the output with its trailing newlines dropped, as `add` drops them, when
 * CMD succeeded (or --keep-partial), it all fits the limit and it is UTF-8.
 */
static int
answer(struct ctx *ctx, const struct run_result *r, struct spool *sp, long max,
    struct buf *why)
{
	int ok = !r->abandoned && r->exit_code == 0;

	if (!ok && !args_has(&ctx->args, "keep-partial")) {
		buf_adds(why, "not its partial answer (--keep-partial records "
		    "it)");
		return 0;
	}
	if (r->overflow) {
		buf_addf(why, "not its answer: %zu bytes, larger than the limit "
		    "of %ld bytes (the max_message_bytes setting); all of it "
		    "went to standard output", r->out_bytes, max);
		return 0;
	}
	/* checked as it came (a bad byte is never one of the newlines
	 * dropped) */
	if (r->not_utf8 >= 0) {
		buf_addf(why, "not its answer: not valid UTF-8 at byte %ld; all "
		    "of it went to standard output", r->not_utf8);
		return 0;
	}
	if (spool_chomped(sp) == 0) {
		buf_adds(why, "no answer: it printed nothing");
		return 0;
	}
	if (spool_end(sp) < 0) {
		buf_addf(why, "not its answer: it could not be kept in a "
		    "temporary file (%s); all of it went to standard output",
		    strerror(errno));
		return 0;
	}
	return 1;
}

struct recording {
	struct ctx *ctx;
	const struct exchange *ex;
	const char *cmd;
};

/* after the write: the exchange went to a new conversation */
static void
say_moved(void *arg, const struct ops_record_result *res)
{
	struct recording *r = arg;

	if (res->moved)
		cmd_error(r->ctx, "conversation '%s' was ended while '%s' ran; "
		    "the exchange starts conversation '%s'", r->ex->joins,
		    r->cmd, res->id);
}

/*
 * Both messages in one write, lib/ops/exchange.c's ops_run_record(); the
 * exit status when that failed, else 0. said, where the prompt is, is
 * freed once the store holds its copy. A conversation the idle boundary
 * ended is summarized after, as add does.
 */
static int
record(struct ctx *ctx, struct exchange *ex, const char *cmd,
    struct buf *said)
{
	struct progress progress = { .ctx = ctx };
	struct recording r = { ctx, ex, cmd };
	struct ops_record_request rq = { .settings = &ctx->settings,
	    .ex = ex, .said = said, .answered = say_moved, .arg = &r,
	    .report = cmd_summarize_report, .report_arg = &progress };
	struct ops_record_result res;
	size_t i;
	int rc;

	ops_run_record(&rq, &res);
	progress_done(&progress);
	for (i = 0; res.pending[i] != NULL; i++)
		cmd_error(ctx, "%s", res.pending[i]);
	rc = cmd_ops_status(ctx, res.status, &res.error);
	ops_record_result_free(&res);
	return rc;
}

/* what was kept, when CMD failed or its answer could not be; rrc: the
 * record's exit status */
static void
say_kept(struct ctx *ctx, const char *name, const struct run_result *r,
    int answered, const struct buf *why, int rrc)
{
	struct buf note = { 0 };

	if (rrc == 0 && (r->exit_code != 0 || !answered)) {
		if (r->exit_code != 0) {
			describe_end(&note, name, r);
			buf_adds(&note, "; ");
		}
		buf_adds(&note, answered ? "recorded the prompt "
		    "and the partial answer" : "recorded the prompt, ");
		if (!answered)
			buf_add(&note, why->data, why->len);
		cmd_error(ctx, "%s", note.data);
	} else if (rrc != 0 && r->exit_code != 0) {
		describe_end(&note, name, r);
		cmd_error(ctx, "%s", note.data);
	}
	buf_free(&note);
}

/*
 * The limits, TEXT (--prompt, into said) and the tools checked and the two
 * messages set up, by lib/ops/exchange.c's ops_run_start(); *max the most
 * bytes the prompt and the answer may have. Standard input, when TEXT is
 * not given, is read by plan(): a terminal is refused first.
 */
static int
start(struct ctx *ctx, struct exchange *ex, struct buf *said, long *max)
{
	const char *prompt = args_get(&ctx->args, "prompt");
	struct ops_run_request rq = { .settings = &ctx->settings,
	    .text_name = "--prompt", .tools_name = "--tool name" };
	struct ops_run_result res;

	if (prompt == NULL && isatty(STDIN_FILENO))
		return cmd_usage_error(ctx, "no --prompt given and standard "
		    "input is a terminal");
	if (prompt != NULL) {
		buf_adds(said, prompt);
		rq.text = said->data != NULL ? said->data : "";
		rq.len = said->len;
	}
	rq.tools = args_all(&ctx->args, "tool", &rq.ntools);
	if (ops_run_start(&rq, ex, &res) != OPS_DONE)
		return cmd_ops_status(ctx, res.status, &res.error);
	*max = res.max;
	return 0;
}

/* CMD and its arguments, then TEXT (--prompt) as its last when given;
 * caller frees the array */
static const char **
command_argv(const struct ctx *ctx, const char *prompt)
{
	const char **argv;

	argv = xmalloc(((size_t)ctx->args.argc + 2) * sizeof(*argv));
	memcpy(argv, ctx->args.argv, (size_t)ctx->args.argc * sizeof(*argv));
	argv[ctx->args.argc] = prompt;
	argv[ctx->args.argc + 1] = NULL;
	return argv;
}

/*
 * What became of our standard output while CMD wrote to it; 0, or -1 when a
 * write failed other than for a reader gone. A reader that went away
 * (`| head -1`) is no failure: CMD was read to its end and its exchange
 * recorded (rrc 0), as the man page promises.
 */
static int
say_stdout(const struct ctx *ctx, const char *cmd, const struct run_result *r,
    int answered, int rrc)
{
	if (r->out_errno == EPIPE) {
		if (rrc == 0)
			cmd_error(ctx, "standard output was closed before '%s' "
			    "ended; it was read to its end (%zu bytes)%s", cmd,
			    r->out_bytes, answered && r->exit_code == 0 ?
			    " and the exchange recorded" : "");
		return 0;
	}
	if (r->out_errno == 0)
		return 0;
	cmd_error(ctx, "cannot write to standard output: %s",
	    strerror(r->out_errno));
	return -1;
}

static int
run_exec(struct ctx *ctx)
{
	struct exchange ex = { 0 };
	struct run_request rq = { 0 };
	struct run_result r = { 0 };
	struct spool sp = { .fd = -1 }, psp = { .fd = -1 };
	struct buf said = { 0 }, input = { 0 }, why = { 0 };
	const char *prompt = args_get(&ctx->args, "prompt");
	const char **argv = NULL;
	long max = 0;
	int rc, rrc, answered, raw = -1;
	struct error e;

	/* megabytes of text (PostgreSQL's copies of the spooled prompt and
	 * answer) may pass through here: glibc would raise its mapping
	 * threshold when the first such block is freed, keep the next ones in
	 * its heap and give nothing back */
	os_malloc_give_back(256 << 10);
	json_prefault_large();	/* the store's copy of it */
	if ((rc = start(ctx, &ex, &said, &max)) != 0 ||
	    (rc = plan(ctx, max, &ex, &input, &psp, &raw, &sp)) != 0)
		goto out;

	/* TEXT is CMD's last argument, its standard input the context alone;
	 * else its standard input is the context and then ours, from the file
	 * it was read into */
	argv = command_argv(ctx, prompt);
	rq = (struct run_request){ (char *const *)argv, input.data, input.len,
	    raw, (size_t)max, STDOUT_FILENO, &sp };
	fflush(stdout);
	if (run_command(&rq, &r, &e) < 0) {
		rc = errno == ENOENT ? 127 : 126;	/* as shells say it */
		cmd_error(ctx, "%s; nothing recorded", e.msg);
		goto out;
	}
	if ((answered = answer(ctx, &r, &sp, max, &why)))
		ex.spool = &sp;
	rc = r.exit_code;
	if ((rrc = record(ctx, &ex, argv[0], &said)) != 0 && rc == 0)
		rc = rrc;
	if (say_stdout(ctx, argv[0], &r, answered, rrc) != 0 && rc == 0)
		rc = EXIT_FAIL;
	say_kept(ctx, argv[0], &r, answered, &why, rrc);
out:
	free(argv);
	spool_drop(&sp);
	spool_drop(&psp);
	if (raw >= 0)
		close(raw);
	exchange_free(&ex);
	buf_free(&said);
	buf_free(&input);
	buf_free(&why);
	return rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.summary = "run an LLM command and record its exchange",
	.options = options,
	.operands = "-- CMD [ARG...]",
	.operand_help = (const struct op_option[]){
		OPT(0, NULL, "CMD [ARG...]", "the command to run, looked for in "
		    "PATH; convctl's options end at CMD", 0),
		{ 0 },
	},
	.min_args = 1, .max_args = -1,
	.too_few = "no command to run: give it after --",
	.first_operand_stops = 1,
	.paging = PAGING_NEVER,
	.exec = run_exec,
};
