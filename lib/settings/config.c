/*
 * config.c - the effective settings as `convctl config` shows them: each
 * value (a default computed from other settings too), where it came from,
 * secrets masked here so no caller can forget: the API keys whole, a URL's
 * password (the store's, api_base's).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../internal.h"

/* a secret shows nothing of itself, not even its length, as git's
 * credential helpers and gh show nothing of a token: where it came from
 * (the source shown beside it) tells which key is in use */
static void
mask(struct buf *b)
{
	buf_adds(b, "********");
}

/* the templates add --template finds, after the settings: "template.NAME
 * (config file)" or "(file PATH)" lines, or the way to make one; with json,
 * root's templatesDir and templates */
static void
render_templates(struct buf *b, const struct settings *set, json_t *root,
    int json)
{
	struct template_seen *v;
	struct stat sb;
	json_t *arr = json_array();
	size_t n = template_list(set, &v), i;
	int dir = stat(set->templates_dir, &sb) == 0 && S_ISDIR(sb.st_mode);

	if (!json) {
		buf_addf(b, "# templates directory: %s%s\n", set->templates_dir,
		    dir ? "" : " (not found)");
		if (n == 0)
			buf_addf(b, "# no templates: add a line 'template.NAME = "
			    "TEXT' to the config file, or a file NAME to the "
			    "templates directory\n");
	}
	for (i = 0; i < n; i++) {
		if (json) {
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s}",
			    "name", v[i].name, "source", v[i].file ? "file" :
			    "config file", "from", v[i].file ? v[i].file :
			    set->config_path));
			continue;
		}
		buf_addf(b, "template.%-9s %s%s)\n", v[i].name, v[i].file ?
		    "(file " : "(config file", v[i].file ? v[i].file : "");
	}
	if (json) {
		json_object_set_new(root, "templatesDir",
		    json_string(set->templates_dir));
		json_object_set_new(root, "templates", arr);
	} else
		json_decref(arr);
	template_list_free(v, n);
}

void
settings_render(struct buf *b, const struct settings *set, int json)
{
	const struct setting_row *r;
	struct buf v = { 0 };
	struct stat sb;
	json_t *root, *all, *o;
	enum setting s;
	const char *val, *why, *src;
	char *shown;
	int i, exists = stat(set->config_path, &sb) == 0;

	root = json_pack("{s:s, s:b}", "configFile", set->config_path,
	    "configFileExists", exists);
	all = json_object();
	if (!json)
		buf_addf(b, "# config file: %s%s\n", set->config_path,
		    exists ? "" : " (not found)");
	for (i = 0; i < SET_COUNT; i++) {
		s = (enum setting)i;
		r = &setting_table[s];
		val = settings_effective(set, s, &why);
		src = enum_name(setting_sources, set->source[s]);
		v.len = 0;
		buf_adds(&v, "");
		if (val != NULL && r->type == SETTING_SECRET)
			mask(&v);
		else if (val != NULL && s == SET_STORE) {
			shown = store_shown(val);
			buf_adds(&v, shown);
			free(shown);
		} else if (val != NULL)
			buf_add_url(&v, val);	/* api_base's password hidden */
		if (json) {
			o = json_pack("{s:o, s:s, s:s, s:b, s:o, s:o}", "value",
			    val ? json_string(v.data) : json_null(),
			    "source", src, "env", r->env,
			    "secret", r->type == SETTING_SECRET,
			    "flag", r->flag ? json_sprintf("--%s", r->flag) :
			    json_null(),
			    "default", r->def ? json_string(r->def) : json_null());
			if (s == SET_STORE && val != NULL)
				json_object_set_new(o, "engine",
				    json_string(store_engine_of(val)));
			if (set->source[s] == SRC_ENV)
				json_object_set_new(o, "from",
				    json_string(settings_env_used(s)));
			else if (set->source[s] == SRC_FILE)
				json_object_set_new(o, "from",
				    json_string(set->config_path));
			else if (why != NULL)
				json_object_set_new(o, "from", json_string(why));
			json_object_set_new(all, r->key, o);
			continue;
		}
		buf_addf(b, "%-18s %s  (%s", r->key,
		    val != NULL ? v.data : "(not set)", src);
		if (set->source[s] == SRC_ENV)
			buf_addf(b, " %s", settings_env_used(s));
		else if (why != NULL)
			buf_addf(b, ": %s", why);
		/* a file is what a path names; a database is said */
		if (s == SET_STORE && val != NULL &&
		    strcmp(store_engine_of(val), "file") != 0)
			buf_addf(b, "; %s store", store_engine_of(val));
		buf_adds(b, ")\n");
	}
	render_templates(b, set, root, json);
	if (json) {
		json_object_set_new(root, "settings", all);
		json_dump_buf(b, root);
		buf_addc(b, '\n');
	} else
		json_decref(all);
	json_decref(root);
	buf_free(&v);
}
