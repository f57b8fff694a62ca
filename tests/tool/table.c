/*
 * table.c - `test-tool commands FILE`: a table of convctl commands, each
 * run in this process, with the exit status it must give and the texts its
 * standard error must hold. FILE's lines:
 *   STATUS ARG...     a command (its words split at spaces: no word of it
 *                     holds one), the status it must exit with
 *   <TAB>TEXT         a text the last command's stderr must hold (the rest
 *                     of the line, spaces kept)
 *   # ...             a comment; an empty line is none
 * Prints a line for each command that failed and "N commands, F failures".
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

struct cmd {
	long line;
	int status;
	char *words;		/* the line, as written */
	const char *argv[64];
};

static int bad;

/* stderr as it was, on one line of the report or more, newline-ended */
static void
put_err(const struct buf *err)
{
	fputs(err->data, tool_out);
	if (err->len == 0 || err->data[err->len - 1] != '\n')
		fputc('\n', tool_out);
}

/* the command of c run; then each of its texts checked as it comes */
static int
run(struct cmd *c, struct buf *err)
{
	int got = tool_convctl(c->argv, err);

	if (got != c->status) {
		bad++;
		fprintf(tool_out, "FAIL line %ld: convctl %s: exit status %d, "
		    "want %d; stderr: ", c->line, c->words, got, c->status);
		put_err(err);
		return -1;
	}
	return 0;
}

int
tool_table(int argc, char **argv)
{
	struct buf file = { 0 }, err = { 0 };
	struct cmd c = { 0 };
	char *line, *next, *w;
	long n = 0, count = 0;
	int ran_ok = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: test-tool commands FILE\n");
		return 2;
	}
	if (tool_read(argv[1], &file) < 0) {
		fprintf(stderr, "test-tool: cannot read %s\n", argv[1]);
		return 2;
	}
	for (line = file.data; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next == NULL)
			next = line + strlen(line);
		else
			*next++ = '\0';
		n++;
		if (*line == '\0' || *line == '#')
			continue;
		if (*line == '\t') {
			if (c.words == NULL) {
				fprintf(stderr, "test-tool: %s:%ld: a text before "
				    "any command\n", argv[1], n);
				return 2;
			}
			if (ran_ok && strstr(err.data, line + 1) == NULL) {
				bad++;
				ran_ok = 0;	/* one failure a command */
				fprintf(tool_out, "FAIL line %ld: convctl %s: "
				    "stderr lacks '%s': ", n, c.words, line + 1);
				put_err(&err);
			}
			continue;
		}
		free(c.words);
		c.words = NULL;
		c.line = n;
		c.status = (int)strtol(line, &w, 10);
		if (w == line || *w != ' ') {
			fprintf(stderr, "test-tool: %s:%ld: not STATUS ARG...\n",
			    argv[1], n);
			return 2;
		}
		c.words = xstrdup(w + 1);
		{
			char *copy = xstrdup(w + 1), *save = NULL, *word;
			int k = 0;

			c.argv[k++] = "convctl";
			for (word = strtok_r(copy, " ", &save); word != NULL &&
			    k < 63; word = strtok_r(NULL, " ", &save))
				c.argv[k++] = word;
			c.argv[k] = NULL;
			tool_case(c.words);
			ran_ok = run(&c, &err) == 0;
			count++;
			free(copy);
		}
	}
	fprintf(tool_out, "%ld commands, %d failures\n", count, bad);
	free(c.words);
	buf_free(&file);
	buf_free(&err);
	return bad ? 1 : 0;
}
