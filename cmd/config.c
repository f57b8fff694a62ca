/*
 * config.c - `convctl config`: the effective settings and where each came
 * from, as lib/ renders them; it reads no file itself.
 */
#include "cmd.h"

static const struct op_option options[] = {
	OPT(0, "json", NULL, "{configFile, configFileExists, templatesDir, "
	    "templates: [{name, source, from}], settings: {KEY: {value, source, "
	    "env, secret, from}}}", 0),
	{ 0 },
};

static int
config_exec(struct ctx *ctx)
{
	struct buf out = { 0 };
	int rc;

	settings_render(&out, &ctx->settings, args_has(&ctx->args, "json"));
	rc = cmd_print(ctx, out.data, out.len);
	buf_free(&out);
	return rc;
}

const struct cmd_entry cmd_config_entry = {
	.name = "config",
	.summary = "show every setting and where it came from",
	.options = options,
	.min_args = 0, .max_args = 0,
	.paging = PAGING_READER,
	.exec = config_exec,
};
