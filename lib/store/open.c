/*
 * open.c - which engine holds a store, from the table of engines: each
 * says which store names it claims and how it shows one; the first that
 * claims the name opens it. store.c never asks which engine it works on.
 */
#include <string.h>

#include "engine.h"

/* the file engine last: it claims every name the others do not */
static const struct store_engine *const engines[] = {
	&store_pg_engine,
	&store_sqlite_engine,
	&store_file_engine,
};

static const struct store_engine *
engine_for(const char *path)
{
	size_t i;

	for (i = 0; i + 1 < sizeof(engines) / sizeof(engines[0]); i++)
		if (engines[i]->claims(path))
			break;
	return engines[i];
}

const char *
store_engine_of(const char *path)
{
	return engine_for(path)->name;
}

char *
store_shown(const char *path)
{
	return engine_for(path)->shown(path);
}

int
store_holds_password(const char *path)
{
	const struct store_engine *en = engine_for(path);

	return en->holds_password != NULL && en->holds_password(path);
}

static int
open_store(struct store **out, const char *path, enum store_mode mode,
    double wait, size_t max, int whole, struct error *e)
{
	struct store *st = xmalloc(sizeof(*st));
	int rc;

	memset(st, 0, sizeof(*st));
	st->engine = engine_for(path);
	st->path = st->engine->shown(path);
	st->mode = mode;
	st->max = max;
	if ((rc = st->engine->open(st, path, wait, whole, e)) < 0) {
		store_close(st);
		return rc;
	}
	*out = st;
	return 0;
}

int
store_open(struct store **out, const char *path, enum store_mode mode,
    double wait, struct error *e)
{
	return open_store(out, path, mode, wait, STORE_MAX_BYTES, 1, e);
}

int
store_open_max(struct store **out, const char *path, enum store_mode mode,
    double wait, size_t max, struct error *e)
{
	return open_store(out, path, mode, wait, max, 0, e);
}
