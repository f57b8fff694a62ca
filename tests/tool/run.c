/*
 * run.c - `test-tool run REQUESTS DIR`: convctl commands run one after the
 * other in this process, each with its own environment changes, what each
 * printed kept: for a helper that compares many runs (searchprop.py) and
 * would otherwise start a process each. REQUESTS holds a JSON object a
 * line, {"argv": [ARG...], "env": {NAME: VALUE or null}} (argv without
 * "convctl"; a null VALUE unsets NAME, for that command only); command N
 * (from 0) leaves its standard output in DIR/N.out, its standard error in
 * DIR/N.err, and its exit status as line N+1 of DIR/status; DIR/transcript
 * has them all, each command as "== ARG ARG...", its standard output, its
 * standard error and "== exit STATUS", a line each.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tool.h"

/* the environment variable name as it was (value NULL: unset) */
struct saved {
	char *name, *value;
};

/* the whole of path appended to f */
static void
append(FILE *f, const char *path)
{
	struct buf b = { 0 };

	if (tool_read(path, &b) == 0)
		fwrite(b.data, 1, b.len, f);
	buf_free(&b);
}

static int
one(json_t *req, const char *dir, long n, FILE *status, FILE *transcript)
{
	json_t *argv = json_object_get(req, "argv"), *env = json_object_get(req,
	    "env"), *v;
	const char *words[256], *name;
	struct saved saved[16];
	struct buf path = { 0 }, err = { 0 };
	size_t i, k, nsaved = 0;
	int rc, fd;

	if (!json_is_array(argv) || json_array_size(argv) > 254)
		return -1;
	words[0] = "convctl";
	json_array_foreach(argv, i, v) {
		if (!json_is_string(v))
			return -1;
		words[i + 1] = json_string_value(v);
	}
	words[json_array_size(argv) + 1] = NULL;
	if (env != NULL) {
		json_object_foreach(env, name, v) {
			const char *was = getenv(name);

			if (nsaved == sizeof(saved) / sizeof(saved[0]))
				return -1;
			saved[nsaved].name = xstrdup(name);
			saved[nsaved++].value = was ? xstrdup(was) : NULL;
			if (json_is_string(v))
				setenv(name, json_string_value(v), 1);
			else
				unsetenv(name);
		}
	}
	buf_addf(&path, "%s/%ld.out", dir, n);
	if ((fd = open(path.data, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return -1;
	tool_case(path.data);
	rc = tool_convctl_out(words, fd, &err);
	close(fd);
	path.len = 0;
	buf_addf(&path, "%s/%ld.err", dir, n);
	tool_write(path.data, err.data, err.len);
	fprintf(status, "%d\n", rc);
	fputs("==", transcript);
	for (i = 1; words[i] != NULL; i++)
		fprintf(transcript, " %s", words[i]);
	fputc('\n', transcript);
	path.len = 0;
	buf_addf(&path, "%s/%ld.out", dir, n);
	append(transcript, path.data);
	fwrite(err.data, 1, err.len, transcript);
	fprintf(transcript, "== exit %d\n", rc);
	for (k = 0; k < nsaved; k++) {
		if (saved[k].value != NULL)
			setenv(saved[k].name, saved[k].value, 1);
		else
			unsetenv(saved[k].name);
		free(saved[k].name);
		free(saved[k].value);
	}
	buf_free(&path);
	buf_free(&err);
	return 0;
}

int
tool_run(int argc, char **argv)
{
	struct buf file = { 0 }, path = { 0 };
	char *line, *next;
	FILE *status, *transcript;
	long n = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: test-tool run REQUESTS DIR\n");
		return 2;
	}
	if (tool_read(argv[1], &file) < 0) {
		fprintf(stderr, "test-tool: cannot read %s\n", argv[1]);
		return 2;
	}
	buf_addf(&path, "%s/status", argv[2]);
	if ((status = fopen(path.data, "w")) == NULL) {
		fprintf(stderr, "test-tool: cannot write %s\n", path.data);
		return 2;
	}
	path.len = 0;
	buf_addf(&path, "%s/transcript", argv[2]);
	if ((transcript = fopen(path.data, "w")) == NULL) {
		fprintf(stderr, "test-tool: cannot write %s\n", path.data);
		return 2;
	}
	for (line = file.data; *line != '\0'; line = next) {
		json_error_t je;
		json_t *req;

		next = strchr(line, '\n');
		if (next == NULL)
			next = line + strlen(line);
		else
			*next++ = '\0';
		if (*line == '\0')
			continue;
		req = json_loads(line, 0, &je);
		if (req == NULL || one(req, argv[2], n, status, transcript) < 0) {
			fprintf(stderr, "test-tool: %s: request %ld is not "
			    "{\"argv\": [...], \"env\": {...}}\n", argv[1], n + 1);
			return 2;
		}
		json_decref(req);
		n++;
	}
	buf_free(&file);
	buf_free(&path);
	return fclose(status) == 0 && fclose(transcript) == 0 ? 0 : 2;
}
