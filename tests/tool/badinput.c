/*
 * badinput.c - `test-tool badinput DIR`: every reader and writer of convctl
 * on each bad store (or bad migrate source) that tests/helpers/badinput.py
 * wrote into DIR, in this process; the checks badinput.py makes when it runs
 * the binary once per input per command (its docstring):
 *   refused:  exit 1, one printable line "convctl: CMD: " naming the store
 *             and the place (the field, a line:column or a JSON path), the
 *             store byte for byte unchanged, no temporary file left;
 *   accepted: readers exit 0, what a writer wrote loads again (recent
 *             --json); a store a reader accepted is JSON;
 * the readers agree. A source is refused (1 or 2) naming the file and a
 * place, the store unchanged, or accepted leaving a store that loads.
 * DIR/list says what each input is; DIR's name the category.
 */
#include <errno.h>
#include <glob.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"

#define NREADERS 5
#define NWRITERS 5
static const char *const commands[NREADERS + NWRITERS][6] = {
	{ "show" }, { "show", "--format", "json" }, { "recent", "--json" },
	{ "prompt" }, { "prompt", "--format", "openai" },
	{ "add", "--at", "2026-03-01T00:00:00Z", "probe" },
	{ "end" }, { "prune", "--max", "0" }, { "migrate", "SOURCE" },
	{ "summarize", "--pending", "--summarizer", "offline" },
};

struct run {
	const char *store, *source;	/* the store; migrate's good source */
	char *tmp_glob;			/* the store's temporary files */
	struct buf err, after;
	int n, bad, refused, accepted;
};

/* a temporary file of the store's left beside it */
static int
temps(const struct run *r)
{
	glob_t g;
	int found = glob(r->tmp_glob, 0, NULL, &g) == 0 && g.gl_pathc > 0;

	globfree(&g);
	return found;
}

/* err is one line "convctl: CMD: ..." without a control character */
static int
one_line(const struct buf *err, const char *cmd)
{
	size_t n = err->len, i;
	char prefix[64];

	if (n > 0 && err->data[n - 1] == '\n')
		n--;
	snprintf(prefix, sizeof(prefix), "convctl: %s: ", cmd);
	if (n < strlen(prefix) || memcmp(err->data, prefix, strlen(prefix)) != 0)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)err->data[i] < 0x20 || err->data[i] == 0x7f)
			return 0;
	return 1;
}

static int
matches(const char *pattern, const char *s)
{
	regex_t re;
	int m;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
		fprintf(stderr, "test-tool: bad pattern %s\n", pattern);
		exit(2);
	}
	m = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return m;
}

/* NULL when the store a writer wrote loads (recent --json), else why not */
static const char *
load_error(const char *writer)
{
	static char why[512];
	static const char *const recent[] = { "convctl", "recent", "--json", NULL };
	struct buf err = { 0 };

	if (tool_convctl(recent, &err) == 0) {
		buf_free(&err);
		return NULL;
	}
	snprintf(why, sizeof(why), "a store %s wrote does not load: %s", writer,
	    err.data);
	buf_free(&err);
	return why;
}

static void
fail(struct run *r, const char *what, const char *cmd, const char *why)
{
	size_t n = r->err.len;

	while (n > 0 && (r->err.data[n - 1] == '\n' || r->err.data[n - 1] == ' '))
		n--;
	r->bad++;
	fprintf(tool_out, "FAIL %s: convctl %s: %s; stderr: %.*s\n", what, cmd,
	    why, (int)(n < 300 ? n : 300), r->err.data);
}

/* one bad store: every command (for truncated: the three readers that say
 * whether it loads and two writers; for big: recent and add) */
static void
store_case(struct run *r, const char *cat, const char *what,
    const struct buf *doc, int is_json, const char *place, int full)
{
	const char *argv[8];
	int results[NREADERS + NWRITERS], ran[NREADERS + NWRITERS];
	int i, j, n = 0, refused = 1, readers_ok = 1, any_ok = 0;
	char name[128];
	const char *why;

	for (i = 0; i < NREADERS + NWRITERS; i++) {
		ran[i] = strcmp(cat, "truncated") == 0 ?
		    (i >= 2 && i < NREADERS + 2) :
		    strcmp(cat, "big") == 0 && !full ? (i == 2 || i == NREADERS) : 1;
		if (!ran[i])
			continue;
		argv[0] = "convctl";
		for (j = 0; commands[i][j] != NULL; j++)
			argv[j + 1] = strcmp(commands[i][j], "SOURCE") == 0 ?
			    r->source : commands[i][j];
		argv[j + 1] = NULL;
		snprintf(name, sizeof(name), "%s: %s", what, commands[i][0]);
		tool_case(name);
		tool_write(r->store, doc->data, doc->len);
		results[i] = tool_convctl(argv, &r->err);
		n++;
		if (tool_read(r->store, &r->after) < 0)
			r->after.len = (size_t)-1;
		why = NULL;
		if (results[i] != 0 && results[i] != 1)
			why = "exit status other than 0 or 1";
		else if (temps(r))
			why = "temporary file left";
		else if (results[i] == 1) {
			if (r->after.len != doc->len ||
			    memcmp(r->after.data, doc->data, doc->len) != 0)
				why = "store changed by a refused command";
			else if (!one_line(&r->err, commands[i][0]))
				why = "error is not one printable line 'convctl: CMD: ...'";
			else if (strstr(r->err.data, r->store) == NULL)
				why = "error does not name the store";
			else if (strstr(r->err.data, "no conversations in") != NULL)
				;
			else if (*place != '\0' && strstr(r->err.data, place) == NULL)
				why = "error does not name the field";
			else if (*place == '\0' && !matches("(:[0-9]+:[0-9]+: )|"
			    "(conversations|version|lastMigrated|at the top)",
			    r->err.data))
				why = "error names no line:column and no JSON path";
		} else if (i >= NREADERS)
			why = load_error(commands[i][0]);
		if (why != NULL) {
			char cmd[128];

			snprintf(cmd, sizeof(cmd), "%s%s%s", commands[i][0],
			    commands[i][1] ? " " : "", commands[i][1] ? commands[i][1] : "");
			fail(r, what, cmd, why);
		}
		if (results[i] != 1)
			refused = 0;
		if (results[i] == 0)
			any_ok = 1;
		if (i >= 2 && i < NREADERS && results[i] != 0)
			readers_ok = 0;
	}
	r->n++;
	/* recent and prompt succeed on any store that loads (show fails on
	 * one without conversations): they say whether it was accepted */
	if (refused)
		r->refused++;
	else if (readers_ok)
		r->accepted++;
	else {
		r->bad++;
		fprintf(tool_out, "FAIL %s: readers disagree:", what);
		for (i = 0; i < NREADERS + NWRITERS; i++)
			if (ran[i])
				fprintf(tool_out, " %s %d", commands[i][0], results[i]);
		fputc('\n', tool_out);
	}
	/* a store accepted by a reader must be JSON; refused by one, by all */
	if (any_ok && !is_json) {
		size_t k;

		for (k = 0; k < doc->len; k++)
			if (doc->data[k] != ' ' && doc->data[k] != '\n' &&
			    doc->data[k] != '\r' && doc->data[k] != '\t' &&
			    doc->data[k] != '\v' && doc->data[k] != '\f')
				break;
		if (k < doc->len) {
			r->bad++;
			fprintf(tool_out, "FAIL %s: accepted, yet it is not JSON\n", what);
		}
	}
}

/* one bad source, through migrate -f FORMAT and through detection, into a
 * store holding the small one (start) */
static void
source_case(struct run *r, const char *what, const char *fmt,
    const char *src, const struct buf *start)
{
	const char *with_f[] = { "convctl", "migrate", "-f", fmt, src, NULL };
	const char *detect[] = { "convctl", "migrate", src, NULL };
	const char *const *argvs[] = { with_f, detect };
	const char *name = strrchr(src, '/') + 1, *why;
	int k, rc;

	r->n++;
	for (k = 0; k < 2; k++) {
		tool_case(what);
		tool_write(r->store, start->data, start->len);
		rc = tool_convctl(argvs[k], &r->err);
		if (tool_read(r->store, &r->after) < 0)
			r->after.len = (size_t)-1;
		why = NULL;
		if (rc != 0 && rc != 1 && rc != 2)
			why = "exit status other than 0, 1 or 2";
		else if (temps(r))
			why = "temporary file left";
		else if (rc != 0) {
			if (r->after.len != start->len ||
			    memcmp(r->after.data, start->data, start->len) != 0)
				why = "store changed by a refused migrate";
			else if (!one_line(&r->err, "migrate"))
				why = "error is not one printable line 'convctl: migrate: ...'";
			else if (strstr(r->err.data, name) == NULL)
				why = "error does not name the file";
			else if (!matches("(:[0-9]+:[0-9]+: )|(:[0-9]+: )|"
			    "(': line [0-9]+: )|(at the top)|"
			    "(': [^ ]*[.[][^ ]*: )|(': [$]?[[:alnum:]_-]+: )|"
			    "(not (a|an|one of) )|(no .* in it)|(cannot tell)",
			    r->err.data))
				why = "error names no line:column and no JSON path";
		} else
			why = load_error("migrate");
		if (why != NULL)
			fail(r, what, k == 0 ? "migrate -f" : "migrate", why);
		else if (rc != 0)
			r->refused++;
		else
			r->accepted++;
	}
}

/* the fields of a list line, split at tabs in place */
static int
fields(char *line, char **f, int n)
{
	int i;

	for (i = 0; i < n - 1; i++) {
		char *tab = strchr(line, '\t');

		if (tab == NULL)
			return -1;
		f[i] = line;
		*tab = '\0';
		line = tab + 1;
	}
	f[n - 1] = line;
	return 0;
}

int
tool_badinput(int argc, char **argv)
{
	struct run r = { 0 };
	struct buf list = { 0 }, doc = { 0 }, start = { 0 }, path = { 0 };
	const char *dir, *cat, *store = getenv("CONVCTL_STORE");
	const char *full = getenv("BADINPUT_FULL");
	char *line, *next, *f[4], *slash;
	struct buf g = { 0 };

	if (argc != 2 || store == NULL) {
		fprintf(stderr, "usage: CONVCTL_STORE=FILE test-tool badinput DIR\n");
		return 2;
	}
	if (full == NULL || *full == '\0')
		full = getenv("TEST_FULL");
	dir = argv[1];
	cat = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	r.store = store;
	slash = strrchr(store, '/');
	/* dir/.base.* */
	if (slash != NULL)
		buf_addf(&g, "%.*s/.%s.*", (int)(slash - store), store, slash + 1);
	else
		buf_addf(&g, ".%s.*", store);
	r.tmp_glob = g.data;
	buf_addf(&path, "%s/list", dir);
	if (tool_read(path.data, &list) < 0) {
		fprintf(stderr, "test-tool: cannot read %s\n", path.data);
		return 2;
	}
	/* migrate's good source, and the start store of the sources, written
	 * by badinput.py beside the list */
	path.len = 0;
	buf_addf(&path, "%s/../source.json", dir);
	r.source = xstrdup(path.data);
	path.len = 0;
	buf_addf(&path, "%s/../start.json", dir);
	if (strcmp(cat, "sources") == 0 && tool_read(path.data, &start) < 0) {
		fprintf(stderr, "test-tool: cannot read %s\n", path.data);
		return 2;
	}
	path.len = 0;
	buf_addf(&path, "%s/../src", dir);
	if (strcmp(cat, "sources") == 0 && mkdir(path.data, 0777) < 0 &&
	    errno != EEXIST) {
		fprintf(stderr, "test-tool: cannot make %s\n", path.data);
		return 2;
	}
	for (line = list.data; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next == NULL)
			next = line + strlen(line);
		else
			*next++ = '\0';
		if (fields(line, f, 4) < 0) {
			fprintf(stderr, "test-tool: bad line in %s/list: %s\n", dir, line);
			return 2;
		}
		path.len = 0;
		buf_addf(&path, "%s/%s", dir, f[0]);
		if (strcmp(cat, "sources") == 0) {
			/* the input under the name the fixture's copy has */
			char *src;

			if (tool_read(path.data, &doc) < 0)
				goto unreadable;
			path.len = 0;
			buf_addf(&path, "%s/../src/%s", dir, f[2]);
			src = xstrdup(path.data);
			tool_write(src, doc.data, doc.len);
			source_case(&r, f[3], f[1], src, &start);
			free(src);
		} else {
			if (tool_read(path.data, &doc) < 0)
				goto unreadable;
			store_case(&r, cat, f[3], &doc, f[1][0] == '1', f[2],
			    full != NULL && *full != '\0');
		}
	}
	fprintf(tool_out, "%s: %d inputs, %d refused, %d accepted, %d failures\n",
	    strcmp(cat, "sources") == 0 ? "sources" : cat, r.n, r.refused,
	    r.accepted, r.bad);
	buf_free(&list);
	buf_free(&doc);
	buf_free(&start);
	buf_free(&path);
	buf_free(&r.err);
	buf_free(&r.after);
	buf_free(&g);
	free((char *)r.source);
	return r.bad ? 1 : 0;
unreadable:
	fprintf(stderr, "test-tool: cannot read %s\n", path.data);
	return 2;
}
