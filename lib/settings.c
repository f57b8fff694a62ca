/*
 * settings.c - each setting from its flag, CONVCTL_* variable, config file or
 * default, read as a string or a bounded number; knows nothing of the store.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convctl.h"

static const struct {
	const char *key;
	const char *env;	/* CONVCTL_* */
	const char *env2;	/* a second name honoured after it, or NULL */
	const char *def;	/* NULL: computed, or none */
	int secret;
} table[SET_COUNT] = {
	[SET_STORE] = { "store", "CONVCTL_STORE", NULL, NULL, 0 },
	[SET_IDLE_TIMEOUT] = { "idle_timeout", "CONVCTL_IDLE_TIMEOUT", NULL, "30", 0 },
	[SET_MAX_CONVERSATIONS] = { "max_conversations", "CONVCTL_MAX_CONVERSATIONS", NULL, "1000", 0 },
	[SET_WAIT] = { "wait", "CONVCTL_WAIT", NULL, "10", 0 },
	[SET_SUMMARIZER] = { "summarizer", "CONVCTL_SUMMARIZER", NULL, NULL, 0 },
	[SET_API_BASE] = { "api_base", "CONVCTL_API_BASE", NULL, NULL, 0 },
	[SET_MODEL] = { "model", "CONVCTL_MODEL", NULL, NULL, 0 },
	[SET_API_KEY] = { "api_key", "CONVCTL_API_KEY", "OPENAI_API_KEY", NULL, 1 },
	[SET_ANTHROPIC_API_KEY] = { "anthropic_api_key", "ANTHROPIC_API_KEY", NULL, NULL, 1 },
	[SET_ANTHROPIC_BASE] = { "anthropic_base", "CONVCTL_ANTHROPIC_BASE", NULL, "https://api.anthropic.com/v1", 0 },
	[SET_CONNECT_TIMEOUT] = { "connect_timeout", "CONVCTL_CONNECT_TIMEOUT", NULL, "10", 0 },
	[SET_TIMEOUT] = { "timeout", "CONVCTL_TIMEOUT", NULL, "120", 0 },
	[SET_RETRIES] = { "retries", "CONVCTL_RETRIES", NULL, "3", 0 },
	[SET_CA_BUNDLE] = { "ca_bundle", "CONVCTL_CA_BUNDLE", NULL, NULL, 0 },
	[SET_CONTEXT_CHARS] = { "context_chars", "CONVCTL_CONTEXT_CHARS", NULL, "48000", 0 },
	[SET_MAX_INPUT_BYTES] = { "max_input_bytes", "CONVCTL_MAX_INPUT_BYTES", NULL, "1073741824", 0 },
	[SET_MAX_MESSAGE_BYTES] = { "max_message_bytes", "CONVCTL_MAX_MESSAGE_BYTES", NULL, "67108864", 0 },
};

const char *
setting_key(enum setting s)
{
	return table[s].key;
}

const char *
setting_env(enum setting s)
{
	return table[s].env;
}

const char *
setting_env_alt(enum setting s)
{
	return table[s].env2;
}

int
setting_is_secret(enum setting s)
{
	return table[s].secret;
}

const char *
setting_source_name(enum setting_source src)
{
	static const char *names[] = { "default", "config file", "environment", "flag" };

	return names[src];
}

int
settings_set(struct settings *st, enum setting s, const char *value,
    enum setting_source src, struct error *e)
{
	(void)e;
	free(st->value[s]);
	st->value[s] = value ? xstrdup(value) : NULL;
	st->source[s] = src;
	return 0;
}

const char *
settings_get(const struct settings *st, enum setting s)
{
	return st->value[s];
}

static char *
home_path(const char *xdg_var, const char *home_rel, const char *rel)
{
	const char *base = getenv(xdg_var), *home;
	struct buf b = { 0 };

	if (base != NULL && *base == '/')
		buf_adds(&b, base);
	else {
		home = getenv("HOME");
		buf_adds(&b, home && *home ? home : ".");
		buf_addc(&b, '/');
		buf_adds(&b, home_rel);
	}
	buf_addc(&b, '/');
	buf_adds(&b, rel);
	return buf_detach(&b);
}

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
		if (strcmp(table[i].key, key) == 0) {
			*out = (enum setting)i;
			return 0;
		}
	return -1;
}

/*
 * key = value lines; '#' starts a comment line; a value may be put in
 * double quotes to keep its outer spaces.
 */
static int
load_file(struct settings *st, const char *path, struct error *e)
{
	FILE *f;
	char *line = NULL, *p, *key, *val, *eq;
	size_t cap = 0, len;
	int lineno = 0, rc = -1, has_secret = 0;
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
		if (lookup(key, &s) < 0) {
			error_set(e, "%s:%d: unknown setting '%s'", path, lineno, key);
			goto out;
		}
		if (table[s].secret)
			has_secret = 1;
		settings_set(st, s, val, SRC_FILE, e);
	}
	if (ferror(f)) {
		error_errno(e, "cannot read config '%s'", path);
		goto out;
	}
	if (has_secret && fstat(fileno(f), &sb) == 0 && (sb.st_mode & 077)) {
		error_set(e, "config '%s' holds an API key but is readable by "
		    "others (mode %03o); run: chmod 600 '%s'", path,
		    (unsigned)(sb.st_mode & 0777), path);
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
	const char *v, *cfg;
	int i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < SET_COUNT; i++)
		if (table[i].def != NULL)
			settings_set(st, (enum setting)i, table[i].def, SRC_DEFAULT, e);
	st->value[SET_STORE] = home_path("XDG_DATA_HOME", ".local/share",
	    "convctl/store.json");

	cfg = getenv("CONVCTL_CONFIG");
	st->config_path = cfg && *cfg ? xstrdup(cfg) :
	    home_path("XDG_CONFIG_HOME", ".config", "convctl/config");
	if (load_file(st, st->config_path, e) < 0)
		return -1;

	for (i = 0; i < SET_COUNT; i++) {
		v = getenv(table[i].env);
		if ((v == NULL || *v == '\0') && table[i].env2 != NULL)
			v = getenv(table[i].env2);
		if (v != NULL && *v != '\0')
			settings_set(st, (enum setting)i, v, SRC_ENV, e);
	}
	return 0;
}

static int
bad_value(const struct settings *st, enum setting s, const char *what,
    struct error *e)
{
	const char *v = st->value[s] ? st->value[s] : "";
	char flag[64], *p;

	switch (st->source[s]) {
	case SRC_FLAG:
		/* name the flag as it was typed: --idle-timeout, not idle_timeout */
		snprintf(flag, sizeof(flag), "%s", table[s].key);
		for (p = flag; *p != '\0'; p++)
			if (*p == '_')
				*p = '-';
		return error_set(e, "invalid --%s '%s': %s", flag, v, what);
	case SRC_ENV:
		return error_set(e, "invalid %s '%s': %s", table[s].env, v, what);
	case SRC_FILE:
		return error_set(e, "invalid %s '%s' in '%s': %s", table[s].key,
		    v, st->config_path, what);
	default:
		return error_set(e, "invalid %s '%s': %s", table[s].key, v, what);
	}
}

/* bad_value with what said by fmt: the bounds in the setting's own type */
static int __attribute__((format(printf, 4, 5)))
out_of_range(const struct settings *st, enum setting s, struct error *e,
    const char *fmt, ...)
{
	char what[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return bad_value(st, s, what, e);
}

int
settings_long(const struct settings *st, enum setting s, long min, long max,
    long *out, struct error *e)
{
	const char *v = st->value[s];
	char *end;
	long n;

	if (v == NULL)
		return bad_value(st, s, "not set", e);
	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0)
		return bad_value(st, s, "not a whole number", e);
	if (n < min || n > max)
		return out_of_range(st, s, e, "must be from %ld to %ld", min, max);
	*out = n;
	return 0;
}

int
settings_double(const struct settings *st, enum setting s, double min,
    double max, double *out, struct error *e)
{
	const char *v = st->value[s];
	char *end;
	double n;

	if (v == NULL)
		return bad_value(st, s, "not set", e);
	errno = 0;
	n = strtod(v, &end);
	if (end == v || *end != '\0' || errno != 0 || isnan(n))
		return bad_value(st, s, "not a number", e);
	if (n < min || n > max)
		return out_of_range(st, s, e, "must be from %g to %g", min, max);
	*out = n;
	return 0;
}

void
settings_free(struct settings *st)
{
	int i;

	for (i = 0; i < SET_COUNT; i++)
		free(st->value[i]);
	free(st->config_path);
	memset(st, 0, sizeof(*st));
}

void
settings_origin(struct buf *b, const struct settings *st, enum setting s)
{
	const char *p;

	switch (st->source[s]) {
	case SRC_FLAG:
		buf_adds(b, "set by --");	/* as typed: --max-conversations */
		for (p = table[s].key; *p != '\0'; p++)
			buf_addc(b, *p == '_' ? '-' : *p);
		break;
	case SRC_ENV:
		buf_addf(b, "set by %s", table[s].env);
		break;
	case SRC_FILE:
		buf_addf(b, "set in '%s'", st->config_path ? st->config_path : "");
		break;
	default:
		buf_adds(b, "the default");
	}
}
