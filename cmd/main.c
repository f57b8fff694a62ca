/*
 * main.c - the command table and the dispatch: global options, the command's
 * options and operands checked, then its exec, then stdout checked; what a
 * command does is its own file's business, not this one's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const struct cmd_entry *const commands[] = {
	&cmd_add_entry,
	&cmd_end_entry,
	&cmd_show_entry,
	&cmd_recent_entry,
	&cmd_prompt_entry,
	&cmd_migrate_entry,
	&cmd_prune_entry,
	&cmd_summarize_entry,
	&cmd_search_entry,
	&cmd_delete_entry,
	&cmd_copy_entry,
	&cmd_run_entry,
	&cmd_title_entry,
	&cmd_resume_entry,
	&cmd_edit_entry,
	&cmd_fork_entry,
	&cmd_tag_entry,
	&cmd_pin_entry,
	&cmd_stats_entry,
	&cmd_mcp_entry,
	&cmd_config_entry,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/*
 * The options every command takes, before or after its name: the settings
 * table's SETTING_COMMON rows (cmd_setting_options()), then -h. Made by
 * options_init(), with the summarizing commands' own, once a process.
 */
static struct op_option common_options[SET_COUNT + 2];

static void
options_init(void)
{
	static int made;	/* once: the test tool runs main many times */
	size_t n;

	if (made)
		return;
	made = 1;
	n = cmd_setting_options(common_options, SETTING_COMMON);
	common_options[n] = (struct op_option)OPT('h', "help", NULL,
	    "show this help", 0);
	cmd_summarizer_options_init();
}

/* the usage lines: the common options from their table */
static void
print_usage(FILE *f)
{
	struct buf b = { 0 };

	buf_adds(&b, "usage: convctl");
	options_usage(&b, common_options);
	options_usage(&b, cmd_pager_options);
	fprintf(f, "%s COMMAND [ARGS]\n"
	    "       convctl --version\n"
	    "       convctl help [COMMAND]\n", b.data);
	buf_free(&b);
}

static void
print_common_help(FILE *f)
{
	const struct op_option *t[] = { common_options };

	options_print_help(f, t, 1);
}

static void
list_commands(FILE *f)
{
	/* the pager's only before a command: not in its -h */
	const struct op_option *global[] = { common_options,
	    cmd_pager_options };
	size_t i;

	print_usage(f);
	fputs("\ncommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nglobal options:\n", f);
	options_print_help(f, global, 2);
	fputs("\nSee convctl(1) and convctl-COMMAND(1).\n", f);
}

static void
print_help(const struct cmd_entry *c)
{
	const struct op_option *own[] = { c->options, c->shared,
	    c->operand_help };

	cmd_print_usage(stdout, c);
	printf("\n%s\n", c->summary);
	if (c->options != NULL || c->operand_help != NULL) {
		printf("\noptions:\n");
		options_print_help(stdout, own, 3);
	}
	if (c->notes != NULL)
		printf("\n%s", c->notes);
	printf("\ncommon options:\n");
	print_common_help(stdout);
}

static const struct cmd_entry *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* "unknown command 'ad'; did you mean 'add'?", as git says it; where (the
 * "help: " of convctl help) before it */
static int
unknown_command(const struct ctx *ctx, const char *where, const char *name)
{
	struct suggest s;
	size_t i;

	suggest_start(&s, name);
	suggest_try(&s, "help");
	for (i = 0; i < NCOMMANDS; i++)
		suggest_try(&s, commands[i]->name);
	if (s.best != NULL)
		cmd_error(ctx, "%sunknown command '%s'; did you mean '%s'?", where,
		    name, s.best);
	else
		cmd_error(ctx, "%sunknown command '%s'; see 'convctl --help'",
		    where, name);
	return EXIT_USAGE;
}

/* the common options given, as settings from a flag */
static void
apply_common(struct settings *set, const struct args *a)
{
	const char *v;
	int i;

	for (i = 0; i < SET_COUNT; i++)
		if ((setting_table[i].flags & SETTING_COMMON) &&
		    (v = args_get(a, setting_table[i].flag)) != NULL)
			settings_set(set, (enum setting)i, v, SRC_FLAG);
}

/*
 * A common option's value that does not parse is a usage error in every
 * command, whether or not the command reads that setting: `show
 * --idle-timeout abc` is a typo to point at, not to ignore.
 */
static int
check_common(const struct ctx *ctx)
{
	struct error e;
	int i;

	for (i = 0; i < SET_COUNT; i++)
		if ((setting_table[i].flags & SETTING_COMMON) &&
		    ctx->settings.source[i] == SRC_FLAG &&
		    settings_check(&ctx->settings, (enum setting)i, &e) < 0) {
			/* the command's usage line does not show them */
			cmd_usage_error(ctx, "%s", e.msg);
			fputs("common options:\n", stderr);
			print_common_help(stderr);
			return EXIT_USAGE;
		}
	return 0;
}

static int
run(struct ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *c = ctx->cmd;
	const struct op_option *t[] = { common_options, c->options, c->shared };
	int rc;

	rc = options_parse(ctx, t, 3, c->first_operand_stops, argc - 1, argv + 1,
	    &ctx->args);
	if (rc == 1) {
		print_help(c);
		return EXIT_OK;
	}
	if (rc != 0)
		return rc;
	apply_common(&ctx->settings, &ctx->args);
	if ((rc = check_common(ctx)) != 0)
		return rc;
	if (ctx->args.argc < c->min_args)
		return cmd_usage_error(ctx, "%s", c->too_few != NULL ?
		    c->too_few : "too few arguments");
	if (c->max_args >= 0 && ctx->args.argc > c->max_args)
		return cmd_usage_error(ctx, "unexpected argument '%s'",
		    ctx->args.argv[c->max_args]);
	pager_start(ctx);
	return c->exec(ctx);
}

/* a full disk or a closed pipe must not pass for success; cmd may be NULL */
static int
check_stdout(const struct cmd_entry *cmd)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (pager_gone(errno))
			return EXIT_OK;
		if (errno == EPIPE)
			return EXIT_FAIL;
		fprintf(stderr, "convctl: %s%scannot write to standard output: "
		    "%s\n", cmd ? cmd->name : "", cmd ? ": " : "",
		    strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* convctl help [COMMAND] */
static int
help(struct ctx *ctx, int argc, char **argv)
{
	if (argc > 2) {
		cmd_error(ctx, "help: unexpected argument '%s'", argv[2]);
		return EXIT_USAGE;
	}
	if (argc == 1) {
		list_commands(stdout);
		return check_stdout(NULL);
	}
	if ((ctx->cmd = find_command(argv[1])) == NULL)
		return unknown_command(ctx, "help: ", argv[1]);
	print_help(ctx->cmd);
	return check_stdout(ctx->cmd);
}

/* the settings (environment, config file, defaults), then the global flags
 * given over them; 0, or EXIT_FAIL after saying why */
static int
load_settings(struct ctx *ctx, const struct settings *flags)
{
	struct error e;
	size_t i;
	int code;

	code = settings_load(&ctx->settings, &e);
	for (i = 0; i < ctx->settings.nwarnings; i++)
		cmd_error(ctx, "warning: %s", ctx->settings.warnings[i]);
	if (code < 0) {
		cmd_error(ctx, "%s", e.msg);
		return EXIT_FAIL;
	}
	for (code = 0; code < SET_COUNT; code++)
		if (flags->source[code] == SRC_FLAG)
			settings_set(&ctx->settings, (enum setting)code,
			    flags->value[code], SRC_FLAG);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct op_option version[] = {
		OPT(0, "version", NULL, "the version", 0),
		{ 0 },
	};
	const struct op_option *global[] = { common_options, version,
	    cmd_pager_options };
	struct settings flags = { 0 };	/* the global options given */
	struct args global_args;
	struct ctx ctx;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	options_init();
	cmd_stdout_forget();
	/* past a file size limit, a write fails (EFBIG) and is reported;
	 * the signal would kill convctl mid-write without a word */
	signal(SIGXFSZ, SIG_IGN);
	rc = options_parse(&ctx, global, 3, 1, argc - 1, argv + 1, &global_args);
	if (rc == 0 && args_has(&global_args, "version")) {
		args_free(&global_args);
		printf("convctl %s\n", CONVCTL_VERSION);
		return check_stdout(NULL);
	}
	if (rc != 0) {
		args_free(&global_args);
		if (rc != 1) {
			print_usage(stderr);
			return EXIT_USAGE;
		}
		list_commands(stdout);
		return check_stdout(NULL);
	}
	apply_common(&flags, &global_args);
	pager_want(args_has(&global_args, "no-pager") ? -1 :
	    args_has(&global_args, "paginate"));
	argc = global_args.argc;
	argv = global_args.argv;

	if (argc == 0) {
		list_commands(stderr);
		rc = EXIT_USAGE;
		goto out;
	}
	if (strcmp(argv[0], "help") == 0) {
		rc = help(&ctx, argc, argv);
		goto out;
	}
	if ((ctx.cmd = find_command(argv[0])) == NULL) {
		rc = unknown_command(&ctx, "", argv[0]);
		goto out;
	}
	/* read only once a command is known: --version and help stay instant */
	if ((rc = load_settings(&ctx, &flags)) != 0)
		goto out;
	rc = run(&ctx, argc, argv);
	/* what is still buffered fails again: said once, by cmd_print */
	if (cmd_stdout_reported()) {
		if (rc == EXIT_OK)
			rc = EXIT_FAIL;
	} else if (check_stdout(ctx.cmd) != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_FAIL;
out:
	pager_finish();
	args_free(&ctx.args);
	args_free(&global_args);
	settings_free(&ctx.settings);	/* also what it read before an error */
	settings_free(&flags);
	return rc;
}
