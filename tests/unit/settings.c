/*
 * settings.c - each setting comes from the flag, else the CONVCTL_*
 * environment, else the config file, else its default.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convctl.h"
#include "tap.h"

extern char **environ;

static char dir[64], cfgdir[128], cfg[160];

static void
write_config(const char *text, mode_t mode)
{
	FILE *f = fopen(cfg, "w");

	if (f == NULL) {
		perror(cfg);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
	chmod(cfg, mode);
}

/* nothing from the caller's environment may leak in */
static void
clean_env(void)
{
	char **p, name[256], *eq;

again:
	for (p = environ; *p != NULL; p++)
		if (strncmp(*p, "CONVCTL_", 8) == 0 ||
		    strncmp(*p, "OPENAI_API_KEY=", 15) == 0 ||
		    strncmp(*p, "ANTHROPIC_API_KEY=", 18) == 0 ||
		    strncmp(*p, "XDG_", 4) == 0) {
			snprintf(name, sizeof(name), "%s", *p);
			if ((eq = strchr(name, '=')) != NULL)
				*eq = '\0';
			unsetenv(name);
			goto again;
		}
}

int
main(void)
{
	struct settings st;
	struct error e;
	char want[256];
	const char *why;
	long n, lmax;
	double d;
	int i;

	clean_env();
	snprintf(dir, sizeof(dir), "%s", "/tmp/convctl-unit.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(cfgdir, sizeof(cfgdir), "%s/config/convctl", dir);
	snprintf(cfg, sizeof(cfg), "%s/config", cfgdir);
	setenv("HOME", dir, 1);

	/* defaults */
	is_int(settings_load(&st, &e), 0, "with nothing set, settings load");
	is_str(settings_get(&st, SET_IDLE_TIMEOUT), "30", "idle_timeout is 30 by default");
	is_int(st.source[SET_IDLE_TIMEOUT], SRC_DEFAULT, "from the default");
	is_str(settings_get(&st, SET_MAX_CONVERSATIONS), "1000", "max_conversations is 1000");
	is_str(settings_get(&st, SET_WAIT), "10", "wait is 10");
	snprintf(want, sizeof(want), "%s/.local/share/convctl/store.json", dir);
	is_str(settings_get(&st, SET_STORE), want, "the store is under HOME/.local/share");
	snprintf(want, sizeof(want), "%s/.config/convctl/config", dir);
	is_str(st.config_path, want, "the config is under HOME/.config");
	ok(settings_get(&st, SET_API_KEY) == NULL, "no API key by default");

	/* defaults computed from other settings, and why */
	is_str(settings_effective(&st, SET_SUMMARIZER, &why), "offline",
	    "without a key the summarizer is offline");
	is_str(why, "no API key is set", "and says why");
	ok(settings_get(&st, SET_MODEL) == NULL, "it asks no model");
	settings_set(&st, SET_ANTHROPIC_API_KEY, "k", SRC_ENV);
	is_str(settings_effective(&st, SET_SUMMARIZER, &why), "anthropic",
	    "an Anthropic key alone: anthropic");
	is_str(why, "anthropic_api_key is set", "saying so");
	is_str(settings_get(&st, SET_MODEL), "claude-haiku-4-5",
	    "with Anthropic's model");
	settings_set(&st, SET_API_BASE, "http://localhost:11434/v1", SRC_FLAG);
	is_str(settings_get(&st, SET_SUMMARIZER), "openai",
	    "a base URL comes before it: openai");
	is_str(settings_get(&st, SET_MODEL), "gpt-4o-mini", "with OpenAI's model");
	settings_set(&st, SET_SUMMARIZER, "none", SRC_FILE);
	is_str(settings_effective(&st, SET_SUMMARIZER, &why), "none",
	    "a summarizer given beats the computed one");
	ok(why == NULL, "and needs no reason");
	snprintf(want, sizeof(want), "%s/.local/share/convctl/store.json", dir);
	is_str(settings_effective(&st, SET_STORE, &why), want,
	    "the store's default is computed too");
	is_str(why, "under HOME, XDG_DATA_HOME is not set", "saying from what");
	settings_free(&st);

	/* the table itself: what every row must hold */
	for (i = 0; i < SET_COUNT; i++) {
		const struct setting_row *r = &setting_table[i];
		char *end1 = NULL, *end2 = NULL;
		int bad = r->key == NULL || r->env == NULL || r->help == NULL ||
		    (r->flag != NULL) != (r->arg != NULL) ||
		    ((r->flags & SETTING_COMMON) && r->flag == NULL) ||
		    (r->type == SETTING_ENUM) != (r->names != NULL);

		if (r->type == SETTING_WHOLE) {
			strtol(r->min, &end1, 10);
			strtol(r->max, &end2, 10);
		} else if (r->type == SETTING_NUMBER) {
			strtod(r->min, &end1);
			strtod(r->max, &end2);
		} else
			bad |= r->min != NULL || r->max != NULL;
		if (end1 != NULL)
			bad |= *end1 != '\0' || *end2 != '\0' ||
			    strtod(r->min, NULL) > strtod(r->max, NULL);
		/* each default passes its own row's check */
		memset(&st, 0, sizeof(st));
		bad |= settings_check(&st, (enum setting)i, &e) < 0;
		snprintf(want, sizeof(want), "row %s holds a key, a variable, "
		    "help, bounds and a default that pass", r->key ? r->key : "?");
		ok(!bad, want);
	}
	setting_range(SET_MAX_INPUT_BYTES, &n, &lmax);
	ok(n == 1 && lmax == LONG_MAX, "a bound written as LONG_MAX reads as it");

	setenv("XDG_DATA_HOME", "relative/data", 1);
	settings_load(&st, &e);
	snprintf(want, sizeof(want), "%s/.local/share/convctl/store.json", dir);
	is_str(settings_get(&st, SET_STORE), want, "a relative XDG_DATA_HOME is ignored");
	settings_free(&st);

	snprintf(want, sizeof(want), "%s/data", dir);
	setenv("XDG_DATA_HOME", want, 1);
	snprintf(want, sizeof(want), "%s/config", dir);
	setenv("XDG_CONFIG_HOME", want, 1);
	settings_load(&st, &e);
	snprintf(want, sizeof(want), "%s/data/convctl/store.json", dir);
	is_str(settings_get(&st, SET_STORE), want, "the store is under XDG_DATA_HOME");
	is_str(st.config_path, cfg, "the config is under XDG_CONFIG_HOME");
	settings_free(&st);

	/* the config file beats the default */
	snprintf(want, sizeof(want), "mkdir -p '%s'", cfgdir);
	if (system(want) != 0)
		return 1;
	write_config("# a comment\n\n  idle_timeout =  10  \nmodel = \" spaced \"\n"
	    "store=/x/store.json\n", 0644);
	is_int(settings_load(&st, &e), 0, "a config file loads");
	is_str(settings_get(&st, SET_IDLE_TIMEOUT), "10", "the config file beats the default");
	is_int(st.source[SET_IDLE_TIMEOUT], SRC_FILE, "from the config file");
	is_str(settings_get(&st, SET_MODEL), " spaced ", "double quotes keep outer spaces");
	is_str(settings_get(&st, SET_STORE), "/x/store.json", "store may be set in the file");
	is_str(settings_get(&st, SET_WAIT), "10", "what the file does not set keeps its default");
	settings_free(&st);

	/* the environment beats the config file */
	setenv("CONVCTL_IDLE_TIMEOUT", "20", 1);
	setenv("CONVCTL_STORE", "/env/store.json", 1);
	is_int(settings_load(&st, &e), 0, "environment and config load");
	is_str(settings_get(&st, SET_IDLE_TIMEOUT), "20", "the environment beats the config file");
	is_int(st.source[SET_IDLE_TIMEOUT], SRC_ENV, "from the environment");
	is_str(settings_get(&st, SET_STORE), "/env/store.json", "CONVCTL_STORE beats the file");

	/* the flag beats the environment */
	settings_set(&st, SET_IDLE_TIMEOUT, "40", SRC_FLAG);
	is_str(settings_get(&st, SET_IDLE_TIMEOUT), "40", "the flag beats the environment");
	is_int(st.source[SET_IDLE_TIMEOUT], SRC_FLAG, "from the flag");
	is_int(settings_long(&st, SET_IDLE_TIMEOUT, &n, &e), 0, "a whole number");
	is_int(n, 40, "is read as one");
	settings_free(&st);

	setenv("CONVCTL_IDLE_TIMEOUT", "", 1);
	settings_load(&st, &e);
	is_str(settings_get(&st, SET_IDLE_TIMEOUT), "10", "an empty variable counts as unset");
	settings_free(&st);
	unsetenv("CONVCTL_IDLE_TIMEOUT");

	/* each bad value is named with where it came from */
	write_config("idle_timeout = soon\n", 0644);
	settings_load(&st, &e);
	is_int(settings_long(&st, SET_IDLE_TIMEOUT, &n, &e), -1,
	    "a word is not a whole number");
	snprintf(want, sizeof(want), "idle_timeout in '%s' expects a whole "
	    "number from 0 to 52560000, not 'soon'", cfg);
	is_str(e.msg, want, "the error names the key and the file");
	settings_set(&st, SET_IDLE_TIMEOUT, "52560001", SRC_ENV);
	is_int(settings_long(&st, SET_IDLE_TIMEOUT, &n, &e), -1,
	    "out of range is refused");
	is_str(e.msg, "CONVCTL_IDLE_TIMEOUT expects a whole number from 0 to "
	    "52560000, not '52560001'", "the error names the variable and the row's range");
	settings_set(&st, SET_IDLE_TIMEOUT, "52560000", SRC_ENV);
	is_int(settings_long(&st, SET_IDLE_TIMEOUT, &n, &e), 0,
	    "the row's maximum itself is taken");
	settings_set(&st, SET_IDLE_TIMEOUT, "7x", SRC_FLAG);
	is_int(settings_long(&st, SET_IDLE_TIMEOUT, &n, &e), -1,
	    "trailing junk is refused");
	is_str(e.msg, "--idle-timeout expects a whole number from 0 to 52560000, "
	    "not '7x'",
	    "the error names the flag as it is typed");
	settings_set(&st, SET_WAIT, "0.25", SRC_FLAG);
	is_int(settings_double(&st, SET_WAIT, &d, &e), 0, "wait may be a fraction");
	ok(d == 0.25, "and is read as one");
	settings_set(&st, SET_WAIT, "nan", SRC_FLAG);
	is_int(settings_double(&st, SET_WAIT, &d, &e), -1, "NaN is no wait");
	settings_set(&st, SET_WAIT, "86400.5", SRC_FLAG);
	is_int(settings_double(&st, SET_WAIT, &d, &e), -1, "past the row's bound");
	is_str(e.msg, "--wait expects a number from 0 to 86400, not '86400.5'",
	    "the same wording for numbers");
	settings_set(&st, SET_CONNECT_TIMEOUT, "0", SRC_FILE);
	is_int(settings_double(&st, SET_CONNECT_TIMEOUT, &d, &e), -1,
	    "a fractional lower bound holds");
	snprintf(want, sizeof(want), "connect_timeout in '%s' expects a number "
	    "from 0.001 to 3600, not '0'", cfg);
	is_str(e.msg, want, "named with the file");
	settings_set(&st, SET_SUMMARIZER, "gpt", SRC_FLAG);
	is_int(settings_check(&st, SET_SUMMARIZER, &e), -1, "an unknown name");
	is_str(e.msg, "invalid --summarizer 'gpt': expected openai, anthropic, "
	    "offline or none", "lists the row's names");
	settings_set(&st, SET_WAIT, NULL, SRC_FLAG);
	is_str(settings_get(&st, SET_WAIT), "10", "a NULL value is the default again");
	is_int(st.source[SET_WAIT], SRC_DEFAULT, "from the default");
	settings_free(&st);

	write_config("idle_timeout = 1\nidle timeout\n", 0644);
	is_int(settings_load(&st, &e), -1, "a line without '=' is refused");
	snprintf(want, sizeof(want), "%s:2: expected 'key = value'", cfg);
	is_str(e.msg, want, "naming the file and line");
	settings_free(&st);
	write_config("idel_timeout = 1\n\nwait = 5\ncolour = blue\n", 0644);
	is_int(settings_load(&st, &e), 0, "an unknown key is no error");
	is_int((long)st.nwarnings, 2, "but a warning each");
	snprintf(want, sizeof(want), "%s:1: unknown setting 'idel_timeout'; "
	    "did you mean 'idle_timeout'?", cfg);
	is_str(st.nwarnings > 0 ? st.warnings[0] : "", want,
	    "naming the file, line and key, and the key it is closest to");
	snprintf(want, sizeof(want), "%s:4: unknown setting 'colour'", cfg);
	is_str(st.nwarnings > 1 ? st.warnings[1] : "", want, "the next one too");
	is_str(settings_get(&st, SET_WAIT), "5", "the keys around them are read");
	settings_free(&st);

	/* a key in a file others can read is refused */
	write_config("api_key = sk-secret\n", 0644);
	is_int(settings_load(&st, &e), -1, "an API key in a 0644 config is refused");
	ok(strstr(e.msg, "readable by others (mode 644)") != NULL, "saying why");
	settings_free(&st);
	write_config("api_key = sk-secret\n", 0600);
	is_int(settings_load(&st, &e), 0, "an API key in a 0600 config loads");
	is_str(settings_get(&st, SET_API_KEY), "sk-secret", "and is read");
	settings_free(&st);
	setenv("OPENAI_API_KEY", "sk-openai", 1);
	settings_load(&st, &e);
	is_str(settings_get(&st, SET_API_KEY), "sk-openai", "OPENAI_API_KEY beats the file");
	settings_free(&st);
	setenv("CONVCTL_API_KEY", "sk-convctl", 1);
	settings_load(&st, &e);
	is_str(settings_get(&st, SET_API_KEY), "sk-convctl", "CONVCTL_API_KEY beats OPENAI_API_KEY");
	settings_free(&st);

	/* CONVCTL_CONFIG names another file */
	snprintf(want, sizeof(want), "%s/other", dir);
	setenv("CONVCTL_CONFIG", want, 1);
	settings_load(&st, &e);
	is_str(st.config_path, want, "CONVCTL_CONFIG names the config file");
	is_str(settings_get(&st, SET_IDLE_TIMEOUT), "30", "a missing config file is no error");
	settings_free(&st);

	snprintf(want, sizeof(want), "rm -rf '%s'", dir);
	if (system(want) != 0)
		return 1;
	return done();
}
