/*
 * template.c - named system prompts for add --template: the config file's
 * template.NAME lines (settings.c keeps them), else a file of that name.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../internal.h"

int
template_text(const struct settings *st, const char *name, size_t max,
    char **text, size_t *len, struct error *e)
{
	struct buf b = { 0 }, path = { 0 };
	size_t i;
	int fd, rc = -1;

	if (*name == '\0' || *name == '.' || strchr(name, '/') != NULL)
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
