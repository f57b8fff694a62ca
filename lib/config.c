/*
 * config.c - the effective settings as `convctl config` shows them: each
 * value, where it came from, secrets masked here so no caller can forget.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/* a key keeps its last four characters when it is long enough to spare them */
static void
mask(struct buf *b, const char *v)
{
	size_t len = strlen(v);

	buf_adds(b, "********");
	if (len >= 16)
		buf_adds(b, v + len - 4);
}

/* the variable that was read: the CONVCTL_* name, else the one after it */
static const char *
env_used(enum setting s)
{
	const char *v = getenv(setting_env(s));

	if ((v == NULL || *v == '\0') && setting_env_alt(s) != NULL)
		return setting_env_alt(s);
	return setting_env(s);
}

void
settings_render(struct buf *b, const struct settings *set, int json)
{
	struct buf v = { 0 };
	struct stat sb;
	json_t *root, *all, *o;
	enum setting s;
	int i, exists = stat(set->config_path, &sb) == 0;

	root = json_pack("{s:s, s:b}", "configFile", set->config_path,
	    "configFileExists", exists);
	all = json_object();
	if (!json)
		buf_addf(b, "# config file: %s%s\n", set->config_path,
		    exists ? "" : " (not found)");
	for (i = 0; i < SET_COUNT; i++) {
		s = (enum setting)i;
		v.len = 0;
		buf_adds(&v, "");
		if (set->value[s] != NULL && setting_is_secret(s))
			mask(&v, set->value[s]);
		else if (set->value[s] != NULL)
			buf_adds(&v, set->value[s]);
		if (json) {
			o = json_pack("{s:o, s:s, s:s, s:b}", "value",
			    set->value[s] ? json_string(v.data) : json_null(),
			    "source", setting_source_name(set->source[s]),
			    "env", setting_env(s), "secret", setting_is_secret(s));
			if (set->source[s] == SRC_ENV)
				json_object_set_new(o, "from",
				    json_string(env_used(s)));
			else if (set->source[s] == SRC_FILE)
				json_object_set_new(o, "from",
				    json_string(set->config_path));
			json_object_set_new(all, setting_key(s), o);
			continue;
		}
		buf_addf(b, "%-18s %s  (%s", setting_key(s),
		    set->value[s] != NULL ? v.data : "(not set)",
		    setting_source_name(set->source[s]));
		if (set->source[s] == SRC_ENV)
			buf_addf(b, " %s", env_used(s));
		buf_adds(b, ")\n");
	}
	if (json) {
		json_object_set_new(root, "settings", all);
		json_dump_buf(b, root);
		buf_addc(b, '\n');
	} else
		json_decref(all);
	json_decref(root);
	buf_free(&v);
}
