/*
 * settings.h - the settings table and what is made from it (settings.c,
 * config.c). It knows no store.
 */
#ifndef CONVCTL_SETTINGS_H
#define CONVCTL_SETTINGS_H

#include "../base/base.h"

/*
 * kinds.c: the values of the summarizer and idle_summary settings and their
 * names, which the table parses; what each kind does is lib/summary's.
 */
enum summary_kind { SUMMARY_NONE, SUMMARY_OFFLINE, SUMMARY_OPENAI,
	SUMMARY_ANTHROPIC };
extern const struct name_table summary_kinds[];	/* "openai", ... */
enum idle_summary { IDLE_SUMMARY_PENDING, IDLE_SUMMARY_ADD };
extern const struct name_table idle_summaries[];	/* "pending", "add" */

/*
 * settings.c: every setting is one row of setting_table (its key, flag,
 * variables, type, bounds, default and help); parsing, precedence (flag >
 * environment > config file > default), validation, `convctl config` and
 * the common options are all made from the rows.
 */
enum setting {
	SET_STORE,
	SET_IDLE_TIMEOUT,	/* minutes */
	SET_MAX_CONVERSATIONS,
	SET_WAIT,		/* seconds */
	SET_SUMMARIZER,
	SET_IDLE_SUMMARY,	/* pending or add, for a network summarizer */
	SET_API_BASE,
	SET_MODEL,
	SET_API_KEY,
	SET_ANTHROPIC_API_KEY,
	SET_ANTHROPIC_BASE,
	SET_CONNECT_TIMEOUT,	/* seconds */
	SET_TIMEOUT,		/* seconds, whole request */
	SET_RETRIES,
	SET_CA_BUNDLE,
	SET_CONTEXT_CHARS,
	SET_MAX_INPUT_BYTES,	/* a store or a migrate source */
	SET_MAX_MESSAGE_BYTES,	/* one message add reads */
	SET_PAGER,		/* long output at a terminal; "" or cat: none */
	SET_COUNT
};
enum setting_source { SRC_DEFAULT, SRC_FILE, SRC_ENV, SRC_FLAG };
extern const struct name_table setting_sources[]; /* "config file", ... */
enum setting_type {
	SETTING_STRING,
	SETTING_PATH,		/* a file's path; in the config file ~/ is $HOME/ */
	SETTING_SECRET,		/* masked when shown; its file must be 0600 */
	SETTING_WHOLE,		/* a whole number from min to max */
	SETTING_NUMBER,		/* fractions allowed, from min to max */
	SETTING_ENUM,		/* one of names */
};
enum {
	SETTING_COMMON = 1,	/* its flag is a common option of every command */
	SETTING_SUMMARY = 2,	/* its flag is an option of the commands that
				 * summarize (end, summarize, migrate) */
};
struct settings;
struct setting_row {
	const char *key;	/* in the config file: "idle_timeout" */
	const char *flag;	/* its long option, "idle-timeout"; NULL: none */
	char letter;		/* its short option, 's'; 0: none */
	const char *arg;	/* the flag's value in -h: "MINUTES" */
	unsigned flags;		/* SETTING_COMMON; else only the commands that
				 * declare the flag take it */
	const char *env;	/* "CONVCTL_IDLE_TIMEOUT" */
	const char *env2;	/* read when env is not set, or NULL */
	enum setting_type type;
	const char *min, *max;	/* bounds as written: "0", "52560000" */
	const struct name_table *names;	/* SETTING_ENUM */
	const char *def;	/* the default; NULL: none, or computed */
	/* a default computed from the environment or other settings, NULL
	 * when there is none; *why says from what: "no API key is set" */
	const char *(*compute)(const struct settings *, const char **why);
	const char *help;	/* one line, for -h */
};
extern const struct setting_row setting_table[SET_COUNT];
struct settings {
	char *value[SET_COUNT];		/* NULL: not given, the default holds */
	enum setting_source source[SET_COUNT];
	char *config_path;		/* the config file looked at */
	char *store_default;		/* under XDG_DATA_HOME or HOME */
	char **warnings;		/* what the caller should print */
	size_t nwarnings;
	/* the config file's template.NAME = TEXT lines: names[i], texts[i] */
	char **template_names, **template_texts;
	size_t ntemplates;
	char *templates_dir;		/* XDG_CONFIG_HOME/convctl/templates */
};
/* the config file, then the environment over it */
int settings_load(struct settings *, struct error *);
/* value NULL: back to the default */
void settings_set(struct settings *, enum setting, const char *value,
    enum setting_source);
/* the value given, else the default (*why says how a computed one was
 * chosen, NULL for a fixed one; why may be NULL), else NULL */
const char *settings_effective(const struct settings *, enum setting,
    const char **why);
const char *settings_get(const struct settings *, enum setting);
/*
 * The value checked against its row; the error names the setting as it
 * was given (--idle-timeout, CONVCTL_IDLE_TIMEOUT, idle_timeout in FILE)
 * and says what is wrong in one wording for all.
 */
int settings_long(const struct settings *, enum setting, long *out,
    struct error *);
int settings_double(const struct settings *, enum setting, double *out,
    struct error *);
int settings_enum(const struct settings *, enum setting, int *out,
    struct error *);
/* the check its type asks for, whatever the type; for the fuzzer and tests */
int settings_check(const struct settings *, enum setting, struct error *);
/* "invalid SETTING 'VALUE': what", the setting named as it was given */
int settings_invalid(const struct settings *, enum setting, const char *what,
    struct error *);
/* "SUBJECT expects a whole number (whole; else a number) from MIN to MAX,
 * not 'V'": the one wording of every bad number, a setting's (from its row's
 * bounds, named as it was given) or a command's option's */
int error_bad_number(struct error *, const char *subject, int whole,
    const char *min, const char *max, const char *v);
/* a SETTING_WHOLE row's bounds */
void setting_range(enum setting, long *min, long *max);
void settings_free(struct settings *);
/* where s came from, as a user would name it: "set by --wait", "set by
 * CONVCTL_WAIT", "set in '~/.config/convctl/config'", "the default" */
void settings_origin(struct buf *, const struct settings *, enum setting s);
/* the variable s was read from: env, else env2 when only that is set */
const char *settings_env_used(enum setting s);

/* config.c: each setting's effective value (secrets masked) and source, one
 * a line: KEY VALUE (SOURCE [VARIABLE | : WHY]), or as JSON */
void settings_render(struct buf *, const struct settings *, int json);

/* template.c: the templates add --template finds, sorted by name: the config
 * file's template.NAME lines (file NULL), then the files of templates_dir
 * that no such line hides (file: its path); *out freed with
 * template_list_free */
struct template_seen {
	char *name;
	char *file;
};
size_t template_list(const struct settings *, struct template_seen **out);
void template_list_free(struct template_seen *, size_t n);

/*
 * template.c: a named system prompt: the config file's template.NAME, else
 * the file NAME in settings->templates_dir, less its trailing newlines, at
 * most max bytes. *text: caller frees.
 */
int template_text(const struct settings *, const char *name, size_t max,
    char **text, size_t *len, struct error *);

#endif
