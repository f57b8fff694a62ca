/*
 * template.c - named system prompts for add --template: the config file's
 * template.NAME lines (settings.c keeps them), else a file of that name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../internal.h"

/* a name template_text takes: not empty, no leading dot, no slash */
static int
good_name(const char *name)
{
	return *name != '\0' && *name != '.' && strchr(name, '/') == NULL;
}

int
template_text(const struct settings *st, const char *name, size_t max,
    char **text, size_t *len, struct error *e)
{
	struct buf b = { 0 }, path = { 0 };
	size_t i;
	int fd, rc = -1;

	if (!good_name(name))
		return error_set(e, "bad template name '%s'", name);
	for (i = 0; i < st->ntemplates; i++)
		if (strcmp(st->template_names[i], name) == 0) {
			buf_adds(&b, st->template_texts[i]);
			goto found;
		}
	buf_addf(&path, "%s/%s", st->templates_dir, name);
	if ((fd = open(path.data, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			error_set(e, "no template '%s' (neither template.%s in "
			    "'%s' nor the file '%s')", name, name,
			    st->config_path, path.data);
		else
			error_errno(e, "cannot open template '%s'", path.data);
		goto out;
	}
	rc = buf_read_max(&b, fd, path.data, max,
	    setting_table[SET_MAX_MESSAGE_BYTES].key, e);
	close(fd);
	if (rc < 0)
		goto out;
	while (b.len > 0 && b.data[b.len - 1] == '\n')
		b.data[--b.len] = '\0';
found:
	if (b.len == 0) {
		rc = error_set(e, "template '%s' is empty", name);
		goto out;
	}
	*len = b.len;
	*text = buf_detach(&b);
	rc = 0;
out:
	buf_free(&b);
	buf_free(&path);
	return rc;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct template_seen *)a)->name,
	    ((const struct template_seen *)b)->name);
}

size_t
template_list(const struct settings *st, struct template_seen **out)
{
	struct template_seen *v = NULL;
	struct dirent *d;
	struct stat sb;
	struct buf path = { 0 };
	size_t n = 0, i, from_file;
	DIR *dir;

	for (i = 0; i < st->ntemplates; i++) {
		if (!good_name(st->template_names[i]))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].name = xstrdup(st->template_names[i]);
		v[n++].file = NULL;
	}
	from_file = n;
	if ((dir = opendir(st->templates_dir)) != NULL) {
		while ((d = readdir(dir)) != NULL) {
			if (!good_name(d->d_name))
				continue;
			for (i = 0; i < from_file; i++)	/* the config's wins */
				if (strcmp(v[i].name, d->d_name) == 0)
					break;
			path.len = 0;
			buf_addf(&path, "%s/%s", st->templates_dir, d->d_name);
			if (i < from_file || stat(path.data, &sb) < 0 ||
			    !S_ISREG(sb.st_mode))
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].name = xstrdup(d->d_name);
			v[n++].file = buf_detach(&path);
		}
		closedir(dir);
	}
	buf_free(&path);
	if (n > 0)
		qsort(v, n, sizeof(*v), by_name);
	*out = v;
	return n;
}

void
template_list_free(struct template_seen *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].file);
	}
	free(v);
}
