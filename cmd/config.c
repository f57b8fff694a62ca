/*
 * config.c - `convctl config`: the effective settings and where each came
 * from, as lib/ renders them; it reads no file itself.
 */
#include "cmd.h"

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int
config_exec(struct ctx *ctx)
{
	struct buf out = { 0 };
	int rc;

	settings_render(&out, &ctx->settings, args_has(&ctx->args, OPT_JSON));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	return rc;
}

const struct cmd_entry cmd_config_entry = {
	.name = "config",
	.summary = "show every setting and where it came from",
	.usage = "[--json]",
	.help =
	    "      --json         {configFile, configFileExists, settings:\n"
	    "                     {KEY: {value, source, env, secret, from}}}\n",
	.longopts = longopts,
	.min_args = 0, .max_args = 0,
	.exec = config_exec,
};
