/*
 * settings.c - the settings table, and each setting read from its flag, its
 * environment variable, the config file or its default, checked against its
 * row; knows nothing of the store or of what a summarizer does.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../internal.h"

const struct name_table setting_sources[] = {
	{ "default", SRC_DEFAULT }, { "config file", SRC_FILE },
	{ "environment", SRC_ENV }, { "flag", SRC_FLAG }, { NULL, 0 },
};

static const char *default_store(const struct settings *, const char **);
static const char *default_summarizer(const struct settings *, const char **);
static const char *default_model(const struct settings *, const char **);
static const char *default_pager(const struct settings *, const char **);

#define LONG_MAX_TEXT "9223372036854775807"	/* strtol clamps it on ILP32 */

/*
 * Every setting, once. convctl(5) lists each (tests/cli/t2160-config.t checks
 * key, variable, default and flag against the page), the rows with
 * SETTING_COMMON are the common options of cmd/main.c, and `convctl
 * config` shows them all.
 */
const struct setting_row setting_table[SET_COUNT] = {
	[SET_STORE] = {
		.key = "store", .flag = "store", .letter = 's', .arg = "PATH",
		.flags = SETTING_COMMON, .env = "CONVCTL_STORE",
		.type = SETTING_PATH, .compute = default_store,
		.help = "the store file",
	},
	[SET_IDLE_TIMEOUT] = {
		.key = "idle_timeout", .flag = "idle-timeout", .arg = "MINUTES",
		.flags = SETTING_COMMON, .env = "CONVCTL_IDLE_TIMEOUT",
		.type = SETTING_WHOLE, .min = "0", .max = "52560000",
		.def = "30", .help = "idle time that ends a conversation",
	},
	[SET_MAX_CONVERSATIONS] = {
		.key = "max_conversations", .flag = "max-conversations",
		.arg = "N", .flags = SETTING_COMMON,
		.env = "CONVCTL_MAX_CONVERSATIONS", .type = SETTING_WHOLE,
		.min = "0", .max = "100000000", .def = "1000",
		.help = "ended conversations kept",
	},
	[SET_WAIT] = {
		.key = "wait", .flag = "wait", .arg = "SECONDS",
		.flags = SETTING_COMMON, .env = "CONVCTL_WAIT",
		.type = SETTING_NUMBER, .min = "0", .max = "86400", .def = "10",
		.help = "wait this long for the store's lock",
	},
	[SET_SUMMARIZER] = {
		.key = "summarizer", .flag = "summarizer", .arg = "NAME",
		.flags = SETTING_SUMMARY, .env = "CONVCTL_SUMMARIZER", .type = SETTING_ENUM,
		.names = summary_kinds, .compute = default_summarizer,
		.help = "what titles and summarizes a conversation",
	},
	[SET_IDLE_SUMMARY] = {
		.key = "idle_summary", .env = "CONVCTL_IDLE_SUMMARY",
		.type = SETTING_ENUM, .names = idle_summaries, .def = "pending",
		.help = "who summarizes a conversation the idle timeout ended, "
		    "with a network summarizer: pending or add",
	},
	[SET_API_BASE] = {
		.key = "api_base", .flag = "api-base", .arg = "URL",
		.flags = SETTING_SUMMARY, .env = "CONVCTL_API_BASE", .type = SETTING_STRING,
		.def = "https://api.openai.com/v1",
		.help = "the root URL of the OpenAI-compatible API",
	},
	[SET_MODEL] = {
		.key = "model", .flag = "model", .arg = "NAME",
		.flags = SETTING_SUMMARY, .env = "CONVCTL_MODEL", .type = SETTING_STRING,
		.compute = default_model, .help = "the model asked",
	},
	[SET_API_KEY] = {
		.key = "api_key", .env = "CONVCTL_API_KEY",
		.env2 = "OPENAI_API_KEY", .type = SETTING_SECRET,
		.help = "the key sent to the OpenAI-compatible API",
	},
	[SET_ANTHROPIC_API_KEY] = {
		.key = "anthropic_api_key", .env = "ANTHROPIC_API_KEY",
		.type = SETTING_SECRET, .help = "the key sent to Anthropic's API",
	},
	[SET_ANTHROPIC_BASE] = {
		.key = "anthropic_base", .env = "CONVCTL_ANTHROPIC_BASE",
		.type = SETTING_STRING, .def = "https://api.anthropic.com/v1",
		.help = "the root URL of Anthropic's API",
	},
	[SET_CONNECT_TIMEOUT] = {
		.key = "connect_timeout", .env = "CONVCTL_CONNECT_TIMEOUT",
		.type = SETTING_NUMBER, .min = "0.001", .max = "3600",
		.def = "10", .help = "seconds allowed to connect to the API",
	},
	[SET_TIMEOUT] = {
		.key = "timeout", .env = "CONVCTL_TIMEOUT",
		.type = SETTING_NUMBER, .min = "0.001", .max = "86400",
		.def = "120", .help = "seconds allowed for a whole request",
	},
	[SET_RETRIES] = {
		.key = "retries", .env = "CONVCTL_RETRIES",
		.type = SETTING_WHOLE, .min = "0", .max = "3", .def = "3",
		.help = "times a failed request is tried again",
	},
	[SET_CA_BUNDLE] = {
		.key = "ca_bundle", .env = "CONVCTL_CA_BUNDLE",
		.type = SETTING_PATH,
		.help = "CA certificates (PEM) to verify the API's with",
	},
	[SET_CONTEXT_CHARS] = {
		.key = "context_chars", .env = "CONVCTL_CONTEXT_CHARS",
		.type = SETTING_WHOLE, .min = "1000", .max = "100000000",
		.def = "48000",
		.help = "the most characters of a conversation sent for a summary",
	},
	[SET_MAX_INPUT_BYTES] = {
		.key = "max_input_bytes", .env = "CONVCTL_MAX_INPUT_BYTES",
		.type = SETTING_WHOLE, .min = "1", .max = LONG_MAX_TEXT,
		.def = "1073741824",
		.help = "the largest store or migrate source read, in bytes",
	},
	[SET_MAX_MESSAGE_BYTES] = {
		.key = "max_message_bytes", .env = "CONVCTL_MAX_MESSAGE_BYTES",
		.type = SETTING_WHOLE, .min = "1", .max = LONG_MAX_TEXT,
		.def = "67108864",
		.help = "the longest message add takes, in bytes",
	},
	[SET_PAGER] = {
		.key = "pager", .env = "CONVCTL_PAGER",
		.type = SETTING_STRING, .compute = default_pager,
		.help = "the pager of long output at a terminal (cat: none)",
	},
};

/* computed defaults */

/* $PAGER (empty: none), else less, as git's */
static const char *
default_pager(const struct settings *st, const char **why)
{
	const char *v = getenv("PAGER");

	(void)st;
	if (v != NULL) {
		*why = "PAGER is set";
		return v;
	}
	*why = "PAGER is not set";
	return "less";
}

static const char *
default_store(const struct settings *st, const char **why)
{
	const char *d = getenv("XDG_DATA_HOME");

	if (d != NULL && *d == '/')
		*why = "under XDG_DATA_HOME";
	else if (d != NULL && *d != '\0')
		*why = "under HOME, XDG_DATA_HOME is not an absolute path";
	else
		*why = "under HOME, XDG_DATA_HOME is not set";
	return st->store_default;
}

/* openai when an OpenAI key or base URL is given, else anthropic when an
 * Anthropic key is, else offline */
static const char *
default_summarizer(const struct settings *st, const char **why)
{
	static const struct {
		enum setting given;
		const char *kind, *why;
	} rules[] = {
		{ SET_API_KEY, "openai", "api_key is set" },
		{ SET_API_BASE, "openai", "api_base is set" },
		{ SET_ANTHROPIC_API_KEY, "anthropic", "anthropic_api_key is set" },
	};
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (st->value[rules[i].given] != NULL) {
			*why = rules[i].why;
			return rules[i].kind;
		}
	*why = "no API key is set";
	return "offline";
}

/* the summarizer's own; none for one that asks no model */
static const char *
default_model(const struct settings *st, const char **why)
{
	const char *v = settings_get(st, SET_SUMMARIZER);
	int kind;

	if (v == NULL || enum_parse(summary_kinds, v, &kind) < 0)
		return NULL;
	switch (kind) {
	case SUMMARY_OPENAI:
		*why = "the openai summarizer's";
		return "gpt-4o-mini";
	case SUMMARY_ANTHROPIC:
		*why = "the anthropic summarizer's";
		return "claude-haiku-4-5";
	default:
		*why = "the summarizer asks no model";
		return NULL;
	}
}

/* values */

void
settings_set(struct settings *st, enum setting s, const char *value,
    enum setting_source src)
{
	free(st->value[s]);
	st->value[s] = value ? xstrdup(value) : NULL;
	st->source[s] = value ? src : SRC_DEFAULT;
}

const char *
settings_effective(const struct settings *st, enum setting s,
    const char **why)
{
	const struct setting_row *r = &setting_table[s];
	const char *dummy;

	if (why == NULL)
		why = &dummy;
	*why = NULL;
	if (st->value[s] != NULL)
		return st->value[s];
	if (r->def != NULL)
		return r->def;
	return r->compute != NULL ? r->compute(st, why) : NULL;
}

const char *
settings_get(const struct settings *st, enum setting s)
{
	return settings_effective(st, s, NULL);
}

const char *
settings_env_used(enum setting s)
{
	const struct setting_row *r = &setting_table[s];
	const char *v = getenv(r->env);

	if ((v == NULL || *v == '\0') && r->env2 != NULL)
		return r->env2;
	return r->env;
}

/* loading */

static char *
trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int
lookup(const char *key, enum setting *out)
{
	int i;

	for (i = 0; i < SET_COUNT; i++)
		if (strcmp(setting_table[i].key, key) == 0) {
			*out = (enum setting)i;
			return 0;
		}
	return -1;
}

static void __attribute__((format(printf, 2, 3)))
warn(struct settings *st, const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	st->warnings = xrealloc(st->warnings,
	    (st->nwarnings + 1) * sizeof(*st->warnings));
	st->warnings[st->nwarnings++] = buf_detach(&b);
}

/* "unknown setting 'sumarizer'; did you mean 'summarizer'?" */
static void
unknown_key(struct settings *st, const char *path, int lineno,
    const char *key)
{
	struct suggest s;
	int i;

	suggest_start(&s, key);
	for (i = 0; i < SET_COUNT; i++)
		suggest_try(&s, setting_table[i].key);
	if (s.best != NULL)
		warn(st, "%s:%d: unknown setting '%s'; did you mean '%s'?", path,
		    lineno, key, s.best);
	else
		warn(st, "%s:%d: unknown setting '%s'", path, lineno, key);
}

/* template.NAME = TEXT: a later line for NAME replaces an earlier one */
static void
template_keep(struct settings *st, const char *name, const char *text)
{
	size_t i;

	for (i = 0; i < st->ntemplates; i++)
		if (strcmp(st->template_names[i], name) == 0) {
			free(st->template_texts[i]);
			st->template_texts[i] = xstrdup(text);
			return;
		}
	st->template_names = xrealloc(st->template_names,
	    (st->ntemplates + 1) * sizeof(char *));
	st->template_texts = xrealloc(st->template_texts,
	    (st->ntemplates + 1) * sizeof(char *));
	st->template_names[st->ntemplates] = xstrdup(name);
	st->template_texts[st->ntemplates++] = xstrdup(text);
}

/*
 * A path in the config file as a shell would read it: a leading ~/ (or a
 * lone ~) is $HOME. No shell reads the file, and a ./~/ directory made
 * beside wherever convctl ran is never what was meant. Caller frees.
 */
static char *
config_path_value(const char *v)
{
	const char *home = getenv("HOME");
	struct buf b = { 0 };

	if (v[0] != '~' || (v[1] != '/' && v[1] != '\0') || home == NULL ||
	    *home == '\0')
		return xstrdup(v);
	buf_adds(&b, home);
	while (b.len > 1 && b.data[b.len - 1] == '/')
		b.data[--b.len] = '\0';
	buf_adds(&b, v + 1);
	return buf_detach(&b);
}

/*
 * key = value lines; '#' starts a comment line; a value may be put in
 * double quotes to keep its outer spaces. An unknown key is a warning, so
 * that a typo, or a key a newer convctl knows, does not stop every command.
 */
static int
load_file(struct settings *st, const char *path, struct error *e)
{
	FILE *f;
	char *line = NULL, *p, *key, *val, *eq, *path_val;
	size_t cap = 0, len;
	int lineno = 0, rc = -1, has_secret = 0, has_password = 0;
	enum setting s;
	struct stat sb;

	if ((f = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return 0;
		return error_errno(e, "cannot open config '%s'", path);
	}
	while (getline(&line, &cap, f) != -1) {
		lineno++;
		p = trim(line);
		if (*p == '\0' || *p == '#')
			continue;
		if ((eq = strchr(p, '=')) == NULL) {
			error_set(e, "%s:%d: expected 'key = value'", path, lineno);
			goto out;
		}
		*eq = '\0';
		key = trim(p);
		val = trim(eq + 1);
		len = strlen(val);
		if (len >= 2 && val[0] == '"' && val[len - 1] == '"') {
			val[len - 1] = '\0';
			val++;
		}
		if (strncmp(key, "template.", 9) == 0 && key[9] != '\0') {
			template_keep(st, key + 9, val);
			continue;
		}
		if (lookup(key, &s) < 0) {
			unknown_key(st, path, lineno, key);
			continue;
		}
		if (setting_table[s].type == SETTING_SECRET)
			has_secret = 1;
		if (s == SET_STORE && store_holds_password(val))
			has_password = 1;
		if (setting_table[s].type == SETTING_PATH) {
			path_val = config_path_value(val);
			settings_set(st, s, path_val, SRC_FILE);
			free(path_val);
		} else
			settings_set(st, s, val, SRC_FILE);
	}
	if (ferror(f)) {
		error_errno(e, "cannot read config '%s'", path);
		goto out;
	}
	if ((has_secret || has_password) && fstat(fileno(f), &sb) == 0 &&
	    (sb.st_mode & 077)) {
		error_set(e, "config '%s' holds %s but is readable by others "
		    "(mode %03o); run: chmod 600 '%s'%s", path, has_secret ?
		    "an API key" : "a database password (in store)",
		    (unsigned)(sb.st_mode & 0777), path, has_secret ? "" :
		    ", or keep the password in ~/.pgpass");
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

int
settings_load(struct settings *st, struct error *e)
{
	const struct setting_row *r;
	const char *v, *cfg;
	int i;

	memset(st, 0, sizeof(*st));
	st->store_default = home_path("XDG_DATA_HOME", ".local/share",
	    "convctl/store.json");
	cfg = getenv("CONVCTL_CONFIG");
	st->config_path = cfg && *cfg ? xstrdup(cfg) :
	    home_path("XDG_CONFIG_HOME", ".config", "convctl/config");
	st->templates_dir = home_path("XDG_CONFIG_HOME", ".config",
	    "convctl/templates");
	if (load_file(st, st->config_path, e) < 0)
		return -1;

	for (i = 0; i < SET_COUNT; i++) {
		r = &setting_table[i];
		v = getenv(r->env);
		if ((v == NULL || *v == '\0') && r->env2 != NULL)
			v = getenv(r->env2);
		if (v != NULL && *v != '\0')
			settings_set(st, (enum setting)i, v, SRC_ENV);
	}
	return 0;
}

/* checking */

int
settings_invalid(const struct settings *st, enum setting s, const char *what,
    struct error *e)
{
	const struct setting_row *r = &setting_table[s];
	const char *v = settings_get(st, s);
	struct buf shown = { 0 };

	/* a URL's password is not shown, nor a secret */
	if (r->type == SETTING_SECRET)
		buf_adds(&shown, "********");
	else
		buf_add_url(&shown, v != NULL ? v : "");
	v = shown.data;
	switch (st->source[s]) {
	case SRC_FLAG:
		/* named as it was typed: --idle-timeout, not idle_timeout */
		if (r->flag != NULL)
			error_set(e, "invalid --%s '%s': %s", r->flag, v, what);
		else
			error_set(e, "invalid -%c '%s': %s", r->letter, v, what);
		break;
	case SRC_ENV:
		error_set(e, "invalid %s '%s': %s", r->env, v, what);
		break;
	case SRC_FILE:
		error_set(e, "invalid %s '%s' in '%s': %s", r->key, v,
		    st->config_path, what);
		break;
	default:
		error_set(e, "invalid %s '%s': %s", r->key, v, what);
		break;
	}
	buf_free(&shown);
	return -1;
}

int
error_bad_number(struct error *e, const char *subject, int whole,
    const char *min, const char *max, const char *v)
{
	return error_set(e, "%s expects %s from %s to %s, not '%s'", subject,
	    whole ? "a whole number" : "a number", min, max, v);
}

/* error_bad_number for setting s, named as it was given: --wait,
 * CONVCTL_WAIT, wait in the config file */
static int
bad_number(const struct settings *st, enum setting s, struct error *e)
{
	const struct setting_row *r = &setting_table[s];
	const char *v = settings_get(st, s);
	struct buf subject = { 0 };
	int rc;

	switch (st->source[s]) {
	case SRC_FLAG:
		if (r->flag != NULL)
			buf_addf(&subject, "--%s", r->flag);
		else
			buf_addf(&subject, "-%c", r->letter);
		break;
	case SRC_ENV:
		buf_adds(&subject, r->env);
		break;
	case SRC_FILE:
		buf_addf(&subject, "%s in '%s'", r->key, st->config_path);
		break;
	default:
		buf_adds(&subject, r->key);
	}
	rc = error_bad_number(e, subject.data, r->type == SETTING_WHOLE, r->min,
	    r->max, v != NULL ? v : "");
	buf_free(&subject);
	return rc;
}

/* v as a whole number; -1 when it is none */
static int
parse_long(const char *v, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(v, &end, 10);
	return end == v || *end != '\0' || errno != 0 ? -1 : 0;
}

void
setting_range(enum setting s, long *min, long *max)
{
	/* the table's own bounds: they parse (tests/unit/settings.c), and a
	 * too large one is clamped to LONG_MAX */
	*min = strtol(setting_table[s].min, NULL, 10);
	*max = strtol(setting_table[s].max, NULL, 10);
}

int
settings_long(const struct settings *st, enum setting s, long *out,
    struct error *e)
{
	const char *v = settings_get(st, s);
	long n, min, max;

	if (v == NULL)
		return settings_invalid(st, s, "not set", e);
	setting_range(s, &min, &max);
	if (parse_long(v, &n) < 0 || n < min || n > max)
		return bad_number(st, s, e);
	*out = n;
	return 0;
}

int
settings_double(const struct settings *st, enum setting s, double *out,
    struct error *e)
{
	const char *v = settings_get(st, s);
	char *end;
	double n;

	if (v == NULL)
		return settings_invalid(st, s, "not set", e);
	errno = 0;
	n = strtod(v, &end);
	if (end == v || *end != '\0' || errno != 0 || isnan(n) ||
	    n < strtod(setting_table[s].min, NULL) ||
	    n > strtod(setting_table[s].max, NULL))
		return bad_number(st, s, e);
	*out = n;
	return 0;
}

int
settings_enum(const struct settings *st, enum setting s, int *out,
    struct error *e)
{
	const char *v = settings_get(st, s);
	struct buf what = { 0 };
	int rc;

	if (v == NULL)
		return settings_invalid(st, s, "not set", e);
	if (enum_parse(setting_table[s].names, v, out) == 0)
		return 0;
	buf_adds(&what, "expected ");
	enum_list(&what, setting_table[s].names);
	rc = settings_invalid(st, s, what.data, e);
	buf_free(&what);
	return rc;
}

int
settings_check(const struct settings *st, enum setting s, struct error *e)
{
	long l;
	double d;
	int i;

	switch (setting_table[s].type) {
	case SETTING_WHOLE:
		return settings_long(st, s, &l, e);
	case SETTING_NUMBER:
		return settings_double(st, s, &d, e);
	case SETTING_ENUM:
		return settings_enum(st, s, &i, e);
	default:
		return 0;
	}
}

void
settings_free(struct settings *st)
{
	size_t i;

	for (i = 0; i < SET_COUNT; i++)
		free(st->value[i]);
	for (i = 0; i < st->nwarnings; i++)
		free(st->warnings[i]);
	free(st->warnings);
	for (i = 0; i < st->ntemplates; i++) {
		free(st->template_names[i]);
		free(st->template_texts[i]);
	}
	free(st->template_names);
	free(st->template_texts);
	free(st->templates_dir);
	free(st->config_path);
	free(st->store_default);
	memset(st, 0, sizeof(*st));
}

void
settings_origin(struct buf *b, const struct settings *st, enum setting s)
{
	const struct setting_row *r = &setting_table[s];

	switch (st->source[s]) {
	case SRC_FLAG:
		if (r->flag != NULL)	/* as typed: --max-conversations */
			buf_addf(b, "set by --%s", r->flag);
		else
			buf_addf(b, "set by -%c", r->letter);
		break;
	case SRC_ENV:
		buf_addf(b, "set by %s", r->env);
		break;
	case SRC_FILE:
		buf_addf(b, "set in '%s'", st->config_path ? st->config_path : "");
		break;
	default:
		buf_adds(b, "the default");
	}
}
