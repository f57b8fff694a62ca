/*
 * ledger.c - the store's record of what migrate imported ("imports": each
 * source's SHA-256, format, file, time, conversation ids and the hash of
 * each conversation's messages), so the same bytes are never read twice
 * (and, known.c, the same conversations never imported twice). It knows formats by name
 * only, and reads no source.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"

int
mig_ledger(struct store *st, json_t **imports, struct error *e)
{
	*imports = json_object_get(store_root(st), "imports");
	if (*imports != NULL && !json_is_array(*imports))
		return error_set(e, "'%s': imports: expected an array",
		    store_path(st));
	return 0;
}

/* the record of an earlier import of these bytes, or NULL */
static json_t *
imported_before(json_t *imports, const char *sha)
{
	json_t *rec;
	size_t i;
	const char *h;

	json_array_foreach(imports, i, rec)
		if ((h = json_str(rec, "sha256", NULL)) != NULL &&
		    strcmp(h, sha) == 0)
			return rec;
	return NULL;
}

int
mig_ledger_seen(json_t *imports, struct mig_source *s)
{
	json_t *rec = imported_before(imports, s->sha);

	if (rec == NULL)
		return 0;
	s->status = SRC_BEFORE;
	s->before = xstrdup(json_str(rec, "importedAt", NULL) ?
	    json_str(rec, "importedAt", NULL) : "an earlier run");
	if (json_str(rec, "format", NULL) != NULL)
		migrate_format_parse(json_str(rec, "format", NULL), &s->format);
	return 1;
}

void
mig_ledger_record(struct store *st, const struct migrate_result *res,
    json_t *imports)
{
	char ts[TS_LEN], real[PATH_MAX];
	json_t *rec, *ids;
	struct mig_source *s;
	size_t k, i;

	if (imports == NULL) {
		imports = json_array();
		json_object_set_new(store_root(st), "imports", imports);
	}
	ts_format(res->rq->now, ts);
	for (k = 0; k < res->nsrc; k++) {
		s = &res->src[k];
		if (s->status != SRC_NEW)
			continue;
		ids = json_array();
		for (i = 0; i < json_array_size(s->convs); i++)
			json_array_append_new(ids, json_string(mig_conv_id(s,
			    i)));
		rec = json_pack("{s:s, s:s, s:o, s:s, s:o, s:O}", "sha256",
		    s->sha, "format", migrate_format_name(s->format), "file",
		    mig_clean_string(realpath(s->file, real) ? real : s->file),
		    "importedAt", ts, "conversations", ids, "hashes",
		    s->hashes);
		json_array_append_new(imports, rec);
	}
	json_object_set_new(store_root(st), "lastMigrated", json_string(ts));
}
