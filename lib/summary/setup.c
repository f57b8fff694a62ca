/*
 * setup.c - which summarizer, and how to reach it, from the
 * settings and the command line's flags. It checks what a request will
 * carry (URLs, keys without control characters, readable CA bundle) before
 * any conversation is read; it knows nothing of conversations or HTTP.
 */
#include <string.h>
#include <unistd.h>

#include "summary.h"

static int
want_url(const struct settings *st, enum setting s, struct error *e)
{
	const char *v = settings_get(st, s);

	if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
		return settings_invalid(st, s, "expected an http:// or https:// URL",
		    e);
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
				    "control character", setting_table[s].key,
				    st->config_path);
			return error_set(e, "the key in %s holds a control "
			    "character", setting_table[s].env);
		}
	return 0;
}

int
summary_config_load(struct summary_config *cf, const struct settings *st,
    struct error *e)
{
	struct llm_config *l = &cf->llm;
	const char *ca;
	int kind;

	memset(cf, 0, sizeof(*cf));
	if (settings_enum(st, SET_SUMMARIZER, &kind, e) < 0)
		return -1;
	cf->kind = (enum summary_kind)kind;
	if (cf->kind != SUMMARY_OPENAI && cf->kind != SUMMARY_ANTHROPIC)
		return 0;

	if (settings_long(st, SET_CONTEXT_CHARS, &cf->context_chars, e) < 0 ||
	    settings_double(st, SET_CONNECT_TIMEOUT, &l->connect_timeout,
	    e) < 0 ||
	    settings_double(st, SET_TIMEOUT, &l->timeout, e) < 0 ||
	    settings_long(st, SET_RETRIES, &l->retries, e) < 0)
		return -1;
	if ((ca = settings_get(st, SET_CA_BUNDLE)) != NULL) {
		if (access(ca, R_OK) < 0)
			return error_errno(e, "cannot read ca_bundle '%s'", ca);
		l->ca_bundle = ca;
	}
	l->model = settings_get(st, SET_MODEL);	/* the summarizer's default */
	l->model_hint = "the model setting chooses it: --model, CONVCTL_MODEL "
	    "or model in the config file";
	if (cf->kind == SUMMARY_ANTHROPIC) {
		l->api = LLM_ANTHROPIC;
		l->base = settings_get(st, SET_ANTHROPIC_BASE);
		l->key = settings_get(st, SET_ANTHROPIC_API_KEY);
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
	l->base = settings_get(st, SET_API_BASE);
	if (want_key(st, SET_API_KEY, e) < 0)
		return -1;
	if (st->source[SET_API_BASE] == SRC_DEFAULT) {
		/* a local server needs no key; OpenAI's own API does */
		if (l->key == NULL)
			return error_set(e, "the openai summarizer needs an API "
			    "key for %s: set CONVCTL_API_KEY or OPENAI_API_KEY, or "
			    "CONVCTL_API_BASE for a local server", l->base);
	} else if (want_url(st, SET_API_BASE, e) < 0)
		return -1;
	return 0;
}

int
summary_local(const struct summary_config *cf)
{
	return cf->kind == SUMMARY_OFFLINE;
}

/* a local summary costs the add nothing to speak of; a network one is a
 * request the add would wait on, which the user asks for */
int
summary_at_idle_end(const struct summary_config *cf,
    const struct settings *st, struct error *e)
{
	int v;

	if (summary_local(cf))
		return 1;
	switch (cf->kind) {
	case SUMMARY_OPENAI:
	case SUMMARY_ANTHROPIC:
		if (settings_enum(st, SET_IDLE_SUMMARY, &v, e) < 0)
			return -1;
		return v == IDLE_SUMMARY_ADD;
	default:
		return 0;
	}
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
	struct buf names = { 0 };
	size_t i;
	int k;

	if (fl->summarizer != NULL &&
	    enum_parse(summary_kinds, fl->summarizer, &k) < 0) {
		enum_list(&names, summary_kinds);
		error_set(e, "unknown summarizer '%s' (expected %s)",
		    fl->summarizer, names.data);
		buf_free(&names);
		return SUMMARY_SETUP_BAD_FLAG;
	}
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (flags[i].value != NULL)
			settings_set(st, flags[i].s, flags[i].value, SRC_FLAG);
	if (summary_config_load(cf, st, e) < 0)
		return SUMMARY_SETUP_BAD_SETTING;
	return SUMMARY_SETUP_OK;
}
