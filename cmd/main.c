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
	&cmd_config_entry,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* options every command takes, before or after its name */
static const struct option common_long[] = {
	{ "store", required_argument, NULL, 's' },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT },
	{ "max-conversations", required_argument, NULL, OPT_MAX_CONVERSATIONS },
	{ "help", no_argument, NULL, 'h' },
};
#define NCOMMON (sizeof(common_long) / sizeof(common_long[0]))
static const char common_short[] = "s:h";
static const char common_help[] =
    "  -s, --store PATH            the store file\n"
    "      --wait SECONDS          wait this long for the store's lock (10)\n"
    "      --idle-timeout MINUTES  idle time that ends a conversation (30)\n"
    "      --max-conversations N   ended conversations kept (1000)\n"
    "  -h, --help                  show this help\n";

static const char usage_head[] =
    "usage: convctl [-s PATH] [--wait SECONDS] COMMAND [ARGS]\n"
    "       convctl --version\n"
    "       convctl help [COMMAND]\n";

static void
list_commands(FILE *f)
{
	size_t i;

	fputs(usage_head, f);
	fputs("\ncommands:\n", f);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nglobal options:\n", f);
	fputs(common_help, f);
	fputs("\nSee convctl(1) and convctl-COMMAND(1).\n", f);
}

void
cmd_print_usage(FILE *f, const struct cmd_entry *c)
{
	fprintf(f, "usage: convctl %s%s%s\n", c->name, *c->usage ? " " : "",
	    c->usage);
}

static void
print_help(const struct cmd_entry *c)
{
	cmd_print_usage(stdout, c);
	printf("\n%s\n", c->summary);
	if (c->help != NULL && *c->help != '\0')
		printf("\noptions:\n%s", c->help);
	printf("\ncommon options:\n%s", common_help);
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

/* applies a common option to the settings; 1 if code was not one */
static int
common_option(struct settings *set, int code, const char *arg)
{
	enum setting s;

	switch (code) {
	case 's': s = SET_STORE; break;
	case OPT_WAIT: s = SET_WAIT; break;
	case OPT_IDLE_TIMEOUT: s = SET_IDLE_TIMEOUT; break;
	case OPT_MAX_CONVERSATIONS: s = SET_MAX_CONVERSATIONS; break;
	default: return 1;
	}
	settings_set(set, s, arg, SRC_FLAG, NULL);
	return 0;
}

static void
args_add(struct args *a, int code, const char *value)
{
	a->values[code] = xrealloc(a->values[code],
	    (size_t)(a->count[code] + 1) * sizeof(char *));
	a->values[code][a->count[code]++] = value;
}

static void
args_free(struct args *a)
{
	int i;

	for (i = 0; i < OPT_CODE_MAX; i++)
		free(a->values[i]);
}

/* getopt_long's tables: the common options and the command's own */
static struct option *
merge_options(const struct cmd_entry *c, struct buf *shortopts)
{
	size_t n = 0, k = 0, i;
	struct option *o;

	while (c->longopts != NULL && c->longopts[n].name != NULL)
		n++;
	o = xmalloc((n + NCOMMON + 1) * sizeof(*o));
	for (i = 0; i < NCOMMON; i++)
		o[k++] = common_long[i];
	for (i = 0; i < n; i++)
		o[k++] = c->longopts[i];
	memset(&o[k], 0, sizeof(*o));
	buf_addc(shortopts, ':');
	buf_adds(shortopts, common_short);
	buf_adds(shortopts, c->shortopts ? c->shortopts : "");
	return o;
}

static int
run(struct ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *c = ctx->cmd;
	struct buf shortopts = { 0 };
	struct option *longopts = merge_options(c, &shortopts);
	int code, rc = EXIT_USAGE;

	/* 0, not 1: GNU getopt then forgets the "+" of the global scan and
	 * lets options follow operands (convctl delete ID --force) */
	optind = 0;
	while ((code = getopt_long(argc, argv, shortopts.data, longopts, NULL)) != -1) {
		if (code == '?') {
			const char *arg = argv[optind - 1];

			if (optopt == 0)
				cmd_usage_error(ctx, "unknown option '%s'", arg);
			else if (strncmp(arg, "--", 2) == 0)	/* --json=3 */
				cmd_usage_error(ctx, "option '%.*s' takes no value",
				    (int)strcspn(arg, "="), arg);
			else
				cmd_usage_error(ctx, "unknown option '-%c'", optopt);
			goto out;
		}
		if (code == ':') {
			cmd_usage_error(ctx, "option '%s' needs a value",
			    argv[optind - 1]);
			goto out;
		}
		if (code == 'h') {
			print_help(c);
			rc = EXIT_OK;
			goto out;
		}
		if (common_option(&ctx->settings, code, optarg) == 0)
			continue;
		args_add(&ctx->args, code, optarg);
	}
	ctx->args.argc = argc - optind;
	ctx->args.argv = argv + optind;
	if (ctx->args.argc < c->min_args) {
		cmd_usage_error(ctx, "too few arguments");
		goto out;
	}
	if (c->max_args >= 0 && ctx->args.argc > c->max_args) {
		cmd_usage_error(ctx, "unexpected argument '%s'",
		    ctx->args.argv[c->max_args]);
		goto out;
	}
	rc = c->exec(ctx);
out:
	free(longopts);
	buf_free(&shortopts);
	return rc;
}

/* a full disk or a closed pipe must not pass for success; cmd may be NULL */
static int
check_stdout(const struct cmd_entry *cmd)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return EXIT_FAIL;
		fprintf(stderr, "convctl: %s%scannot write to standard output: "
		    "%s\n", cmd ? cmd->name : "", cmd ? ": " : "",
		    strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int
main(int argc, char **argv)
{
	static const struct option global_long[] = {
		{ "store", required_argument, NULL, 's' },
		{ "wait", required_argument, NULL, OPT_WAIT },
		{ "idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT },
		{ "max-conversations", required_argument, NULL, OPT_MAX_CONVERSATIONS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct settings flags = { 0 };	/* the global options given */
	struct ctx ctx;
	struct error e;
	int code, rc;

	memset(&ctx, 0, sizeof(ctx));
	/* past a file size limit, a write fails (EFBIG) and is reported;
	 * the signal would kill convctl mid-write without a word */
	signal(SIGXFSZ, SIG_IGN);
	while ((code = getopt_long(argc, argv, "+:s:h", global_long, NULL)) != -1) {
		switch (code) {
		case 'V':
			printf("convctl %s\n", CONVCTL_VERSION);
			return check_stdout(NULL);
		case 'h':
			list_commands(stdout);
			return check_stdout(NULL);
		case ':':
			cmd_error(&ctx, "option '%s' needs a value",
			    argv[optind - 1]);
			return EXIT_USAGE;
		case '?':
			cmd_error(&ctx, "unknown option '%s'", argv[optind - 1]);
			fputs(usage_head, stderr);
			return EXIT_USAGE;
		default:
			common_option(&flags, code, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		list_commands(stderr);
		settings_free(&flags);
		return EXIT_USAGE;
	}
	if (strcmp(argv[0], "help") == 0) {
		settings_free(&flags);
		if (argc > 2) {
			cmd_error(&ctx, "help: unexpected argument '%s'", argv[2]);
			return EXIT_USAGE;
		}
		if (argc == 1) {
			list_commands(stdout);
			return check_stdout(NULL);
		}
		if ((ctx.cmd = find_command(argv[1])) == NULL) {
			cmd_error(&ctx, "help: unknown command '%s'", argv[1]);
			return EXIT_USAGE;
		}
		print_help(ctx.cmd);
		return check_stdout(ctx.cmd);
	}
	if ((ctx.cmd = find_command(argv[0])) == NULL) {
		cmd_error(&ctx, "unknown command '%s'; see 'convctl --help'",
		    argv[0]);
		settings_free(&flags);
		return EXIT_USAGE;
	}
	/* read only once a command is known: --version and help stay instant */
	if (settings_load(&ctx.settings, &e) < 0) {
		cmd_error(&ctx, "%s", e.msg);
		settings_free(&ctx.settings);	/* what it read before the error */
		settings_free(&flags);
		return EXIT_FAIL;
	}
	for (code = 0; code < SET_COUNT; code++)
		if (flags.source[code] == SRC_FLAG)
			settings_set(&ctx.settings, (enum setting)code,
			    flags.value[code], SRC_FLAG, NULL);
	settings_free(&flags);
	rc = run(&ctx, argc, argv);
	args_free(&ctx.args);
	settings_free(&ctx.settings);
	if (check_stdout(ctx.cmd) != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_FAIL;
	return rc;
}
