/*
 * report.c - what a migrate run found and did, as lines or one JSON object.
 * It reads the run's result and changes nothing; it knows no format but by
 * name, and nothing of the ledger.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate.h"

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* how many of ids[0..n) this run imported */
static size_t
imported_among(const struct migrate_result *res, char *const *ids, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += migrate_was_imported(res, ids[i]);
	return k;
}

/* the conversations of s that grew: [{id, messages: N, replaced: [ID],
 * kept: N, title?, titleWas?}] */
static json_t *
grown_of(const struct migrate_result *res, const struct mig_source *s)
{
	json_t *out = json_array(), *g;
	size_t i;

	json_array_foreach(res->grown, i, g)
		if (strcmp(json_str(g, "file", NULL), s->name) == 0)
			json_array_append_new(out, json_pack("{s:O, s:I, s:O, "
			    "s:O, s:O*, s:O*}", "id", json_object_get(g,
			    "id"), "messages", (json_int_t)json_array_size(
			    json_object_get(g, "messages")), "replaced",
			    json_object_get(g, "replaced"), "kept",
			    json_object_get(g, "kept"), "title",
			    json_object_get(g, "title"), "titleWas",
			    json_object_get(g, "titleWas")));
	return out;
}

/* a grown conversation's lines: what is added, what replaced, what kept */
static void
grown_lines(struct buf *out, json_t *c, int dry_run)
{
	json_t *replaced = json_object_get(c, "replaced"), *v;
	size_t n = (size_t)json_integer_value(json_object_get(c, "messages"));
	size_t kept = (size_t)json_integer_value(json_object_get(c, "kept"));
	size_t i, cut = json_array_size(replaced);

	if (json_str(c, "title", NULL) != NULL &&
	    json_str(c, "titleWas", NULL) != NULL)
		buf_addf(out, "  %s: %sretitled '%s' (the source's title was "
		    "'%s')\n", json_str(c, "id", NULL), dry_run ?
		    "would be " : "", json_str(c, "title", NULL),
		    json_str(c, "titleWas", NULL));
	else if (json_str(c, "title", NULL) != NULL)
		buf_addf(out, "  %s: %stitled '%s' (imported before without "
		    "a title)\n", json_str(c, "id", NULL), dry_run ?
		    "would be " : "", json_str(c, "title", NULL));
	if (n > 0 || json_str(c, "title", NULL) == NULL)
		buf_addf(out, "  %s: %zu new %s, %s (imported before, grown "
		    "since)\n", json_str(c, "id", NULL), n, plural(n,
		    "message", "messages"), dry_run ? "would be added" :
		    "added");
	if (cut > 0) {
		buf_addf(out, "  %s: %zu %s from the source %s by its current "
		    "branch:", json_str(c, "id", NULL), cut, plural(cut,
		    "message", "messages"), dry_run ? "would be replaced" :
		    "replaced");
		json_array_foreach(replaced, i, v)
			buf_addf(out, "%s '%s'", i > 0 ? "," : "",
			    json_string_value(v));
		buf_addc(out, '\n');
	}
	if (kept > 0)
		buf_addf(out, "  %s: %zu %s not from the source (added or "
		    "edited since) kept\n", json_str(c, "id", NULL), kept,
		    plural(kept, "message", "messages"));
}

static const char *const status_names[] = { "imported", "already-imported",
    "duplicate", "empty", "skipped" };

static json_t *
report_json(const struct migrate_result *res, int dry_run,
    char *const *pruned, size_t npruned)
{
	json_t *root, *sources, *src, *convs, *ids;
	struct mig_source *s;
	size_t k, i;

	sources = json_array();
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		convs = json_array();
		for (i = 0; i < json_array_size(s->convs); i++) {
			json_t *o = json_pack("{s:s, s:I}", "id",
			    mig_conv_id(s, i), "messages",
			    (json_int_t)mig_conv_messages(s, i));

			if (json_object_get(s->renamed, mig_conv_id(s, i)))
				json_object_set(o, "renamedFrom", json_object_get(
				    s->renamed, mig_conv_id(s, i)));
			json_array_append_new(convs, o);
		}
		src = json_pack("{s:s, s:s, s:s, s:s, s:o, s:I}", "file", s->name,
		    "format", migrate_format_name(s->format), "sha256", s->sha,
		    "status", status_names[s->status], "conversations", convs,
		    "messages", (json_int_t)s->messages);
		json_object_set_new(src, "known", json_integer((json_int_t)
		    s->known));
		json_object_set_new(src, "grown", grown_of(res, s));
		if (s->status == SRC_BEFORE)
			json_object_set_new(src, "importedAt", json_string(s->before));
		else if (s->status == SRC_DUPLICATE)
			json_object_set_new(src, "sameAs", mig_clean_string(s->before));
		json_array_append_new(sources, src);
	}
	ids = json_array();
	for (i = 0; i < npruned; i++)
		json_array_append_new(ids, json_string(pruned[i]));
	root = json_pack("{s:o, s:b, s:I, s:I, s:I, s:o, s:O, s:o, s:I, s:I}",
	    "path", mig_clean_string(res->rq->path), "dryRun", dry_run,
	    "conversations", (json_int_t)res->nconv, "messages",
	    (json_int_t)res->nmsg, "grownMessages", (json_int_t)res->ngrown,
	    "sources", sources, "notes", res->notes, "pruned", ids,
	    "prunedCount", (json_int_t)npruned, "prunedImported",
	    (json_int_t)imported_among(res, pruned, npruned));
	return root;
}

void
migrate_report(struct buf *out, const struct migrate_result *res, int dry_run,
    char *const *pruned, size_t npruned, int json)
{
	struct mig_source *s;
	json_t *c, *from, *root, *grown;
	size_t k, i, n;

	if (json) {
		root = report_json(res, dry_run, pruned, npruned);
		json_dump_buf(out, root);
		buf_addc(out, '\n');
		json_decref(root);
		return;
	}
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		if (s->status == SRC_BEFORE) {
			buf_addf(out, "%s: %s, imported before (%s); skipped\n",
			    s->file, migrate_format_name(s->format), s->before);
			continue;
		}
		if (s->status == SRC_DUPLICATE) {
			buf_addf(out, "%s: the same bytes as '%s'; skipped\n",
			    s->file, s->before);
			continue;
		}
		if (s->status == SRC_EMPTY && s->format == MIGRATE_DETECT) {
			buf_addf(out, "%s: empty; not recorded\n", s->file);
			continue;
		}
		if (s->status == SRC_EMPTY) {
			buf_addf(out, "%s: %s, nothing to import in it; not "
			    "recorded\n", s->file, migrate_format_name(s->format));
			continue;
		}
		if (s->status == SRC_BAD) {
			buf_addf(out, "%s: skipped as bad (--skip-bad)\n",
			    s->file);
			continue;
		}
		n = json_array_size(s->convs);
		buf_addf(out, "%s: %s, %zu %s, %zu %s\n", s->file,
		    migrate_format_name(s->format), n, plural(n, "conversation",
		    "conversations"), s->messages, plural(s->messages, "message",
		    "messages"));
		for (i = 0; i < json_array_size(s->convs); i++) {
			n = mig_conv_messages(s, i);
			/* a source's ids, escaped: one line each */
			buf_adds(out, "  ");
			buf_add_printable(out, mig_conv_id(s, i));
			buf_addf(out, ": %zu %s", n, plural(n, "message",
			    "messages"));
			from = json_object_get(s->renamed, mig_conv_id(s, i));
			if (from != NULL) {
				buf_adds(out, " (renamed from '");
				buf_add_printable(out, json_string_value(from));
				buf_adds(out, "')");
			}
			buf_addc(out, '\n');
		}
		grown = grown_of(res, s);
		json_array_foreach(grown, i, c)
			grown_lines(out, c, dry_run);
		json_decref(grown);
		if (s->known > 0)
			buf_addf(out, "  %zu %s imported before; left out\n",
			    s->known, plural(s->known, "conversation",
			    "conversations"));
	}
	if (res->nnew == 0) {
		buf_addf(out, "nothing new to import from '%s'\n", res->rq->path);
		return;
	}
	buf_addf(out, "%s %zu %s (%zu %s) from %zu %s", dry_run ?
	    "would import" : "imported", res->nconv, plural(res->nconv,
	    "conversation", "conversations"), res->nmsg, plural(res->nmsg,
	    "message", "messages"), res->nnew, plural(res->nnew, "source",
	    "sources"));
	if (json_array_size(res->grown) > 0)
		buf_addf(out, ", and %zu new %s to %zu %s imported before",
		    res->ngrown, plural(res->ngrown, "message", "messages"),
		    json_array_size(res->grown), plural(json_array_size(
		    res->grown), "conversation", "conversations"));
	buf_addc(out, '\n');
	if (npruned > 0)
		buf_addf(out, "the rolling limit (max_conversations) %s %zu "
		    "oldest ended %s, %zu of them imported here\n", dry_run ?
		    "would remove" : "removed", npruned, plural(npruned,
		    "conversation", "conversations"), imported_among(res, pruned,
		    npruned));
}
