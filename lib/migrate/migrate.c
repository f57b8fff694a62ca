/*
 * migrate.c - brings other tools' histories into the store, once: the run.
 *
 * A run reads every source first (a file, or the files of a directory), each
 * through its format's reader (formats.c tells which), and fails on the first
 * thing wrong before the store is touched. Only then are ids checked against
 * the store, the conversations appended, and each source recorded in the
 * store's imports ledger (ledger.c), so that the same bytes are never
 * imported twice. The caller saves the store, or, on error, does not. It
 * knows no format: only the table in formats.c does.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats.h"
#include "migrate.h"

/* finding the sources */

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* the session id a file's name gives: ID.jsonl, or ID/events.jsonl */
static char *
session_of(const char *file)
{
	const char *base = strrchr(file, '/'), *start;
	static const char *const exts[] = { ".jsonl", ".ndjson", ".json" };
	size_t n, i;
	char *s;

	base = base ? base + 1 : file;
	if (strcmp(base, "events.jsonl") == 0 && base > file + 1) {
		for (start = base - 2; start > file && *start != '/'; start--)
			;
		if (*start == '/')
			start++;
		n = (size_t)(base - 1 - start);
	} else {
		start = base;
		n = strlen(base);
		for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
			if (has_suffix(base, exts[i]) && n > strlen(exts[i])) {
				n -= strlen(exts[i]);
				break;
			}
	}
	s = xmalloc(n + 1);
	memcpy(s, start, n);
	s[n] = '\0';
	return s;
}

static void
add_source(struct migrate_result *res, const char *file)
{
	struct mig_source *s;

	res->src = xrealloc(res->src, (res->nsrc + 1) * sizeof(*res->src));
	s = &res->src[res->nsrc++];
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	s->name = mig_utf8_clean(file);
	s->session = session_of(s->name);
	s->convs = json_array();
	s->own = json_array();
	s->renamed = json_object();
	s->hashes = json_array();
}

/* how deep collect_tree() looks: Codex's sessions/YYYY/MM/DD/ is 3 */
#define DIR_DEPTH 4

/* the directories a walk has read, by device and inode, each once */
struct walk {
	struct migrate_result *res;
	struct stat self;		/* the store's file */
	int have_self;
	struct seen {
		char *path;		/* as the walk first reached it */
		int open;		/* being read: a way back to it is a loop */
	} *seen;
	size_t nseen, cap;
	json_t *by_inode;		/* "DEV:INO" -> its index in seen */
};

/* the key of the directory sb names in w->by_inode */
static const char *
walk_key(char key[64], const struct stat *sb)
{
	snprintf(key, 64, "%ju:%ju", (uintmax_t)sb->st_dev,
	    (uintmax_t)sb->st_ino);
	return key;
}

/* the directory sb names, read before or being read; else NULL */
static struct seen *
walk_seen(struct walk *w, const struct stat *sb)
{
	char key[64];
	json_t *i = json_object_get(w->by_inode, walk_key(key, sb));

	return i != NULL ? &w->seen[json_integer_value(i)] : NULL;
}

/* aider's log in a project, the one file of a name starting with "." a
 * walk reads */
#define AIDER_LOG ".aider.chat.history.md"

/*
 * dir is Gemini CLI's home (~/.gemini: a tmp/ directory, where its sessions
 * are, beside its settings.json or projects.json): of it only tmp/ is read,
 * the rest being its settings, credentials, extensions and the like
 */
static int
gemini_home(const char *dir)
{
	static const char *const marks[] = { "settings.json", "projects.json",
	    NULL };
	struct buf p = { 0 };
	struct stat sb;
	size_t i;
	int yes = 0;

	buf_addf(&p, "%s/tmp", dir);
	if (stat(p.data, &sb) == 0 && S_ISDIR(sb.st_mode))
		for (i = 0; marks[i] != NULL && !yes; i++) {
			p.len = 0;
			buf_addf(&p, "%s/%s", dir, marks[i]);
			yes = stat(p.data, &sb) == 0 && S_ISREG(sb.st_mode);
		}
	buf_free(&p);
	return yes;
}

/*
 * a directory: NAME.json, NAME.jsonl, NAME.ndjson and NAME/events.jsonl, by
 * name, and those of the directories in it (Claude Code's projects/DIR/,
 * Codex's sessions/YYYY/MM/DD/, a tree of projects), in name order; but a
 * directory holding .aider.chat.history.md is a project aider worked in,
 * and that file is all of it that is read; never the store itself,
 * should it live there, nor what is not tmp/ in Gemini CLI's home. Links
 * are followed, but each directory is read once: a link back to a directory
 * being read (a loop) or to one read already is said in a note and skipped,
 * so that links to "." cannot multiply the walk.
 */
static int
collect_tree(struct walk *w, const char *dir, const struct stat *dsb,
    int depth, struct error *e)
{
	struct dirent **names = NULL;
	struct stat sb;
	struct buf p = { 0 };
	struct seen *old;
	const char *n;
	char key[64];
	size_t me;
	int i, count, home, rc = -1;

	if (w->nseen == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->seen = xrealloc(w->seen, w->cap * sizeof(*w->seen));
	}
	me = w->nseen++;
	json_object_set_new(w->by_inode, walk_key(key, dsb),
	    json_integer((json_int_t)me));
	w->seen[me].path = xstrdup(dir);
	w->seen[me].open = 1;
	/* a project aider worked in: its log, and nothing else of the
	 * project's (package.json, node_modules…) is history */
	buf_addf(&p, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", AIDER_LOG);
	if (stat(p.data, &sb) == 0 && S_ISREG(sb.st_mode)) {
		add_source(w->res, p.data);
		count = 0;
		rc = 0;
		goto out;
	}
	if ((count = scandir(dir, &names, NULL, alphasort)) < 0) {
		error_errno(e, "cannot read directory '%s'", dir);
		goto out;
	}
	home = gemini_home(dir);
	for (i = 0; i < count; i++) {
		n = names[i]->d_name;
		if (n[0] == '.' || (home && strcmp(n, "tmp") != 0))
			continue;
		p.len = 0;
		buf_addf(&p, "%s%s%s", dir, has_suffix(dir, "/") ? "" : "/", n);
		if (stat(p.data, &sb) < 0) {
			error_errno(e, "cannot read '%s'", p.data);
			goto out;
		}
		if (w->have_self && sb.st_dev == w->self.st_dev &&
		    sb.st_ino == w->self.st_ino)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			if ((old = walk_seen(w, &sb)) != NULL) {
				mig_notes_add(w->res->notes, old->open ?
				    "'%s': a loop, back to '%s', which holds it: "
				    "skipped" : "'%s': the same directory as "
				    "'%s', read already: skipped",
				    p.data, old->path);
				continue;
			}
			buf_adds(&p, "/events.jsonl");
			if (stat(p.data, &sb) == 0 && S_ISREG(sb.st_mode))
				add_source(w->res, p.data);
			else if (depth < DIR_DEPTH) {
				p.len -= strlen("/events.jsonl");
				p.data[p.len] = '\0';
				if (stat(p.data, &sb) < 0) {
					error_errno(e, "cannot read '%s'",
					    p.data);
					goto out;
				}
				if (collect_tree(w, p.data, &sb, depth + 1,
				    e) < 0)
					goto out;
			}
		} else if (S_ISREG(sb.st_mode) && (has_suffix(n, ".json") ||
		    has_suffix(n, ".jsonl") || has_suffix(n, ".ndjson")))
			add_source(w->res, p.data);
	}
	rc = 0;
out:
	w->seen[me].open = 0;
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	buf_free(&p);
	return rc;
}

/* the sources of the directory dir (sb its stat) */
static int
collect_dir(struct migrate_result *res, const char *dir,
    const struct stat *sb, const char *store, struct error *e)
{
	struct walk w = { res, { 0 }, 0, NULL, 0, 0, json_object() };
	size_t i;
	int rc;

	w.have_self = stat(store, &w.self) == 0;
	rc = collect_tree(&w, dir, sb, 0, e);
	for (i = 0; i < w.nseen; i++)
		free(w.seen[i].path);
	free(w.seen);
	json_decref(w.by_inode);
	return rc;
}




/* 1: the same bytes as an earlier source of this run (SRC_DUPLICATE) */
static int
duplicate(struct migrate_result *res, size_t k)
{
	struct mig_source *s = &res->src[k];
	size_t i;

	for (i = 0; i < k; i++)
		if (strcmp(res->src[i].sha, s->sha) == 0) {
			s->status = SRC_DUPLICATE;
			s->before = xstrdup(res->src[i].file);
			s->format = res->src[i].format;
			return 1;
		}
	return 0;
}



static int pack(struct mig_reader *, size_t, struct error *);

static int
read_source(struct migrate_result *res, size_t k, json_t *imports,
    struct error *e)
{
	struct mig_source *s = &res->src[k];
	struct mig_reader r = { res->rq, s, res->notes, 0, pack };
	struct mig_input in = { 0 };
	struct buf text = { 0 }, id = { 0 };
	json_t *root = NULL;
	int rc = -1;

	if (mig_source_text(res->rq, s, &text, e) < 0)
		goto out;
	sha256_hex(text.data, text.len, s->sha);
	if (strcmp(s->file, "-") == 0) {	/* no name: a session id by content */
		free(s->session);
		buf_addf(&id, "stdin-%.12s", s->sha);
		s->session = buf_detach(&id);
	}
	if (mig_ledger_seen(imports, s) || duplicate(res, k)) {
		rc = 0;
		goto out;
	}
	mig_no_bom(&text);
	in.text = text.data ? text.data : "";
	in.own = text.data;
	in.len = text.len;
	/* nothing but blanks: nothing to import, whatever the format */
	if (strspn(in.text, " \t\r\n") == in.len) {
		s->format = MIGRATE_DETECT;
		mig_note(&r, "'%s': empty", s->file);
		rc = 0;
		goto out;
	}
	if (!mig_detect_items(&r, &in) &&
	    mig_detect(&r, in.text, in.len, &root, e) < 0)
		goto out;
	in.root = root;
	rc = mig_format(s->format)->read(&r, &in, e);
out:
	free(in.items);
	json_decref(root);
	buf_free(&text);
	return rc;
}

/* --skip-bad: a source that failed is left out whole, and said so */
static void
bad_source(struct migrate_result *res, size_t k, struct error *e)
{
	struct mig_source *s = &res->src[k];

	mig_notes_add(res->notes, "skipped (--skip-bad): %s", e->msg);
	e->msg[0] = '\0';
	s->status = SRC_BAD;
	json_array_clear(s->convs);
	json_array_clear(s->own);
	s->messages = 0;
}

/* placing the conversations in the store */

static int
id_taken(struct store *st, json_t *taken, const char *id)
{
	return store_find(st, id) != NULL || json_object_get(taken, id) != NULL;
}

static char *
free_id(struct store *st, json_t *taken, const char *id)
{
	struct buf b = { 0 };
	int n = 2;

	do {
		b.len = 0;
		buf_addf(&b, "%s-%d", id, n++);
	} while (id_taken(st, taken, b.data));
	return buf_detach(&b);
}

/* each conversation gets its id, or a free one; a clash of its own is a conflict */
static int
place_ids(struct store *st, struct migrate_result *res, struct error *e)
{
	json_t *taken = json_object(), *c, *by;
	struct mig_source *s;
	const char *id;
	char *fresh;
	size_t k, i;
	int rc = -1;

	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		for (i = 0; i < json_array_size(s->convs); i++) {
			id = mig_conv_id(s, i);
			if (!id_taken(st, taken, id)) {
				json_object_set_new(taken, id, json_string(s->name));
				continue;
			}
			fresh = free_id(st, taken, id);
			if (json_is_true(json_array_get(s->own, i)) &&
			    !res->rq->rename_conflicts) {
				by = json_object_get(taken, id);
				if (by != NULL)
					error_set(e, "'%s': conversation '%s' is also "
					    "in '%s'; nothing imported "
					    "(--rename-conflicts imports it as "
					    "'%s')", s->file, id,
					    json_string_value(by), fresh);
				else
					error_set(e, "'%s': conversation '%s' is "
					    "already in the store; nothing "
					    "imported (--rename-conflicts imports "
					    "it as '%s')", s->file, id, fresh);
				free(fresh);
				goto out;
			}
			if (json_is_true(json_array_get(s->own, i)))
				json_object_set_new(s->renamed, fresh,
				    json_string(id));
			c = mig_conv(s, i);
			json_object_set_new(c, "id", json_string(fresh));
			mig_conv_put(s, i, c);
			json_object_set_new(taken, fresh, json_string(s->name));
			free(fresh);
		}
	}
	rc = 0;
out:
	json_decref(taken);
	return rc;
}

/* at most one conversation is active: a second is ended at its last message */
static void
one_active(struct store *st, struct migrate_result *res)
{
	int active = store_active(st) != NULL;
	json_t *c, *msgs, *end;
	struct mig_source *s;
	size_t k, i, n;

	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		for (i = 0; i < json_array_size(s->convs); i++) {
			if (!mig_conv_active(s, i))
				continue;
			if (!active) {
				active = 1;
				continue;
			}
			c = mig_conv(s, i);
			msgs = json_object_get(c, "messages");
			n = json_array_size(msgs);
			end = n > 0 ? json_object_get(json_array_get(msgs, n - 1),
			    "timestamp") : json_object_get(c, "startedAt");
			json_object_set(c, "endedAt", end);
			mig_notes_add(res->notes, "'%s': conversation '%s' was active; "
			    "ended it at %s, as the store has an active one",
			    s->file, json_str(c, "id", NULL),
			    json_string_value(end));
			mig_conv_put(s, i, c);
		}
	}
}

/*
 * Conversation i of s (c) made ready for the store: checked (the readers
 * build valid ones; this is the store's own check), its title marked as
 * given and its messages as the source's, as append_all() stores it
 */
static int
ready(struct mig_source *s, size_t i, json_t *c, struct error *e)
{
	struct buf where = { 0 };
	json_t *m;
	size_t j;
	int own = json_is_true(json_array_get(s->own, i)), rc;

	rc = conv_validate(c, mig_path(&where, "'%s': conversation %zu",
	    s->file, i), e);
	buf_free(&where);
	if (rc < 0)
		return -1;
	/* a title the source gave is given, as one set with `title` is: a
	 * summarizer keeps it; one that came with a summary is a
	 * summarizer's, taken as it is */
	if (own && json_is_string(json_object_get(c, "title")) &&
	    !json_is_string(json_object_get(c, "summary")))
		conv_mark_title_given(c);
	/* a conversation of the source's own id may be imported again: its
	 * messages say they are the source's, and a re-import may change a
	 * title that is still the source's (known.c), but in a store taken
	 * as it is */
	if (own && !mig_format(s->format)->as_is) {
		mig_mark_title(c);
		json_array_foreach(json_object_get(c, "messages"), j, m)
			mig_mark(m);
	}
	return 0;
}

/*
 * the reader's r->pack: each conversation it made from index from on
 * ready() and packed, held as text until the store has it; its hash is
 * of its messages as read (known.c), before ready() marks them
 */
static int
pack(struct mig_reader *r, size_t from, struct error *e)
{
	struct mig_source *s = r->src;
	char h[SHA256_HEX_LEN];
	size_t i;

	for (i = from; i < json_array_size(s->convs); i++) {
		mig_conv_hash(json_array_get(s->convs, i), h);
		if (ready(s, i, json_array_get(s->convs, i), e) < 0)
			return -1;
		mig_pack(s, i, h);
	}
	return 0;
}

/* each conversation appended, ready() first unless packed (then ready
 * already), a packed one as its text */
static int
append_all(struct store *st, struct migrate_result *res, struct error *e)
{
	struct mig_source *s;
	json_t *c;
	size_t k, i, len;
	char *text;
	int own;

	for (k = 0; k < res->nsrc; k++)
		for (s = &res->src[k], i = 0; i < json_array_size(s->convs);
		    i++) {
			own = json_is_true(json_array_get(s->own, i));
			/* a summary on a conversation the source did not name
			 * is one the reader wrote (SmartHole's flat history) */
			json_object_set_new(res->imported, mig_conv_id(s, i),
			    json_boolean(!own && mig_conv_summary(s, i)));
			res->nconv++;
			res->nmsg += mig_conv_messages(s, i);
			if (mig_conv_packed(s, i)) {
				text = mig_conv_give(s, i, &len);
				if (store_append_text(st, text, len, e) == NULL)
					return -1;
				continue;
			}
			c = json_array_get(s->convs, i);
			if (ready(s, i, c, e) < 0 ||
			    store_append(st, json_incref(c), e) == NULL)
				return -1;
		}
	return 0;
}

int
migrate_run(struct store *st, const struct migrate_request *rq,
    struct migrate_result **out, struct error *e)
{
	struct migrate_result *res = xmalloc(sizeof(*res));
	json_t *imports;
	struct stat sb;
	size_t k;

	memset(res, 0, sizeof(*res));
	res->rq = rq;
	res->notes = json_array();
	res->imported = json_object();
	res->grown = json_array();
	*out = res;
	/* the stored conversations listed, not read: their ids are what an
	 * import needs, and mig_known() reads the few it compares */
	if (store_load_active(st, e) < 0 ||
	    store_load_ended(st, SIZE_MAX, 0, e) < 0 ||
	    mig_ledger(st, &imports, e) < 0)
		return -1;
	if (rq->data != NULL)	/* read by the caller: standard input, a pipe */
		add_source(res, rq->path);
	else if (stat(rq->path, &sb) < 0)
		return error_errno(e, "cannot read '%s'", rq->path);
	else if (S_ISDIR(sb.st_mode)) {
		if (collect_dir(res, rq->path, &sb, store_path(st), e) < 0)
			return -1;
		if (res->nsrc == 0)
			return error_set(e, "'%s': no .json or .jsonl files in it "
			    "or in the directories in it, nor SESSION/events.jsonl "
			    "or .aider.chat.history.md", rq->path);
	} else
		add_source(res, rq->path);
	for (k = 0; k < res->nsrc; k++) {
		if (read_source(res, k, imports, e) < 0) {
			if (!rq->skip_bad)
				return -1;
			bad_source(res, k, e);
		}
		/* nothing in it: not recorded, so that a later file at the same
		 * place, or the same file grown, is read then */
		if (res->src[k].status == SRC_NEW &&
		    json_array_size(res->src[k].convs) == 0)
			res->src[k].status = SRC_EMPTY;
		if (res->nsrc > 1 && rq->progress != NULL)
			rq->progress(rq->progress_arg, rq->path, k + 1, res->nsrc);
	}
	if (mig_known(st, res, imports, e) < 0)
		return -1;
	for (k = 0; k < res->nsrc; k++)
		if (res->src[k].status == SRC_NEW)
			res->nnew++;
	if (res->nnew == 0)
		return 0;
	if (place_ids(st, res, e) < 0)
		return -1;
	one_active(st, res);
	if (append_all(st, res, e) < 0 ||
	    mig_grow(st, res, e) < 0)
		return -1;
	mig_ledger_record(st, res, imports);
	return 0;
}

size_t
migrate_imported(const struct migrate_result *res)
{
	return res->nconv;
}

int
migrate_changed(const struct migrate_result *res)
{
	return res->nnew > 0;
}

int
migrate_was_imported(const struct migrate_result *res, const char *id)
{
	return json_object_get(res->imported, id) != NULL;
}

int
migrate_made_summary(const struct migrate_result *res, const char *id)
{
	return json_is_true(json_object_get(res->imported, id));
}

/*
 * The conversations the import added that are still in the store, ended, and
 * in want of a summary: those without one, and those with the summary migrate
 * wrote itself, which a model may better but the offline summarizer, saying
 * less, may not. A summary the source gave is kept.
 */
struct summary_job **
migrate_summary_jobs(struct store *st, const struct migrate_result *res,
    const struct summary_config *cf, char *const *pruned, size_t npruned,
    size_t *njobs)
{
	struct summary_job **jobs;
	struct conv **ended;
	const char *id;
	size_t n, i, k;
	int model = cf->kind == SUMMARY_OPENAI || cf->kind == SUMMARY_ANTHROPIC;

	ended = store_ended(st, &n);
	jobs = xmalloc((n + 1) * sizeof(*jobs));
	*njobs = 0;
	for (i = 0; i < n; i++) {
		id = conv_id(ended[i]);
		if (!migrate_was_imported(res, id))
			continue;
		/* --dry-run's rolling limit names what it would remove */
		for (k = 0; k < npruned && strcmp(pruned[k], id) != 0; k++)
			;
		if (k < npruned)
			continue;
		if (conv_summary(ended[i]) == NULL ||
		    (model && migrate_made_summary(res, id)))
			jobs[(*njobs)++] = summary_job_new(ended[i]);
	}
	free(ended);
	return jobs;
}

const char *
migrate_note(const struct migrate_result *res, size_t i)
{
	return json_string_value(json_array_get(res->notes, i));
}

void
migrate_free(struct migrate_result *res)
{
	size_t k;

	if (res == NULL)
		return;
	for (k = 0; k < res->nsrc; k++) {
		free(res->src[k].file);
		free(res->src[k].name);
		free(res->src[k].session);
		free(res->src[k].before);
		json_decref(res->src[k].convs);
		json_decref(res->src[k].own);
		json_decref(res->src[k].renamed);
		json_decref(res->src[k].hashes);
	}
	free(res->src);
	json_decref(res->notes);
	json_decref(res->imported);
	json_decref(res->grown);
	free(res);
}
