/*
 * summary-config.c - which summarizer, and how to reach it, from the
 * settings and the command line's flags. It checks what a request will
 * carry (URLs, keys without control characters, readable CA bundle) before
 * any conversation is read; it knows nothing of conversations or HTTP.
 */
#include <string.h>
#include <unistd.h>

#include "summary.h"

/* how a setting is named where its value came from */
static int
bad_setting(const struct settings *st, enum setting s, const char *what,
    struct error *e)
{
	const char *v = settings_get(st, s);
	struct buf flag = { 0 };
	char *p;

	switch (st->source[s]) {
	case SRC_FLAG:
		buf_adds(&flag, setting_key(s));
		for (p = flag.data; *p != '\0'; p++)	/* api_base: --api-base */
			if (*p == '_')
				*p = '-';
		error_set(e, "invalid --%s '%s': %s", flag.data, v, what);
		buf_free(&flag);
		return -1;
	case SRC_FILE:
		return error_set(e, "invalid %s '%s' in '%s': %s", setting_key(s),
		    v, st->config_path, what);
	default:
		return error_set(e, "invalid %s '%s': %s", setting_env(s), v, what);
	}
}

static int
want_url(const struct settings *st, enum setting s, struct error *e)
{
	const char *v = settings_get(st, s);

	if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
		return bad_setting(st, s, "expected an http:// or https:// URL", e);
	return 0;
}

/* a key goes into a header line: a control character there could forge one */
static int
want_key(const struct settings *st, enum setting s, struct error *e)
{
	const unsigned char *k = (const unsigned char *)settings_get(st, s);

	for (; k != NULL && *k != '\0'; k++)
		if (*k < 0x20 || *k == 0x7f) {
			if (st->source[s] == SRC_FILE)
				return error_set(e, "the %s in '%s' holds a "
				    "control character", setting_key(s),
				    st->config_path);
			return error_set(e, "the key in %s holds a control "
			    "character", setting_env(s));
		}
	return 0;
}

int
summary_config_load(struct summary_config *cf, const struct settings *st,
    struct error *e)
{
	const char *kind = settings_get(st, SET_SUMMARIZER), *ca;
	struct llm_config *l = &cf->llm;

	memset(cf, 0, sizeof(*cf));
	if (kind != NULL) {
		if (summary_kind_parse(kind, &cf->kind) < 0)
			return bad_setting(st, SET_SUMMARIZER, "expected openai, "
			    "anthropic, offline or none", e);
	} else if (settings_get(st, SET_API_KEY) != NULL ||
	    settings_get(st, SET_API_BASE) != NULL)
		cf->kind = SUMMARY_OPENAI;
	else if (settings_get(st, SET_ANTHROPIC_API_KEY) != NULL)
		cf->kind = SUMMARY_ANTHROPIC;
	else
		cf->kind = SUMMARY_OFFLINE;
	if (cf->kind != SUMMARY_OPENAI && cf->kind != SUMMARY_ANTHROPIC)
		return 0;

	if (settings_long(st, SET_CONTEXT_CHARS, 1000, 100000000,
	    &cf->context_chars, e) < 0 ||
	    settings_double(st, SET_CONNECT_TIMEOUT, 0.001, 3600,
	    &l->connect_timeout, e) < 0 ||
	    settings_double(st, SET_TIMEOUT, 0.001, 86400, &l->timeout, e) < 0 ||
	    settings_long(st, SET_RETRIES, 0, 3, &l->retries, e) < 0)
		return -1;
	if ((ca = settings_get(st, SET_CA_BUNDLE)) != NULL) {
		if (access(ca, R_OK) < 0)
			return error_errno(e, "cannot read ca_bundle '%s'", ca);
		l->ca_bundle = ca;
	}
	l->model = settings_get(st, SET_MODEL);
	if (cf->kind == SUMMARY_ANTHROPIC) {
		l->api = LLM_ANTHROPIC;
		l->base = settings_get(st, SET_ANTHROPIC_BASE);
		l->key = settings_get(st, SET_ANTHROPIC_API_KEY);
		if (l->model == NULL)
			l->model = "claude-3-5-haiku-latest";
		if (want_url(st, SET_ANTHROPIC_BASE, e) < 0 ||
		    want_key(st, SET_ANTHROPIC_API_KEY, e) < 0)
			return -1;
		if (l->key == NULL)
			return error_set(e, "the anthropic summarizer needs an API "
			    "key: set ANTHROPIC_API_KEY, or anthropic_api_key in "
			    "'%s'", st->config_path);
		return 0;
	}
	l->api = LLM_OPENAI;
	l->key = settings_get(st, SET_API_KEY);
	if (want_key(st, SET_API_KEY, e) < 0)
		return -1;
	if ((l->base = settings_get(st, SET_API_BASE)) == NULL) {
		l->base = "https://api.openai.com/v1";
		/* a local server needs no key; OpenAI's own API does */
		if (l->key == NULL)
			return error_set(e, "the openai summarizer needs an API "
			    "key for %s: set CONVCTL_API_KEY or OPENAI_API_KEY, or "
			    "CONVCTL_API_BASE for a local server", l->base);
	} else if (want_url(st, SET_API_BASE, e) < 0)
		return -1;
	if (l->model == NULL)
		l->model = "gpt-4o-mini";
	return 0;
}

enum summary_setup
summary_config_resolve(struct summary_config *cf, struct settings *st,
    const struct summary_flags *fl, struct error *e)
{
	const struct {
		const char *value;
		enum setting s;
	} flags[] = {
		{ fl->summarizer, SET_SUMMARIZER },
		{ fl->model, SET_MODEL },
		{ fl->api_base, SET_API_BASE },
	};
	enum summary_kind k;
	size_t i;

	if (fl->summarizer != NULL && summary_kind_parse(fl->summarizer, &k) < 0) {
		error_set(e, "unknown summarizer '%s' (expected openai, "
		    "anthropic, offline or none)", fl->summarizer);
		return SUMMARY_SETUP_BAD_FLAG;
	}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].value != NULL)
			settings_set(st, flags[i].s, flags[i].value, SRC_FLAG,
			    NULL);
	if (summary_config_load(cf, st, e) < 0)
		return SUMMARY_SETUP_BAD_SETTING;
	return SUMMARY_SETUP_OK;
}
