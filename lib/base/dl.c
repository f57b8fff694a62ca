/*
 * dl.c - what the libraries convctl opens at run time share (libcurl in
 * llm.c, libpq in pq.c): looking up their functions by name.
 */
#include <dlfcn.h>

#include "base.h"

void *
dl_function(void *lib, const char *name, const char **missing)
{
	void *fn;

	if ((fn = dlsym(lib, name)) == NULL && *missing == NULL)
		*missing = name;
	return fn;
}
