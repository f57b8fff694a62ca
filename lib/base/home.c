/*
 * home.c - where a user's files go by default, as the XDG base directory
 * spec says
 */
#include <stdlib.h>

#include "base.h"

/* $XDG_VAR/rel, else $HOME/home_rel/rel (malloc'd), as the XDG spec says */
char *
home_path(const char *xdg_var, const char *home_rel, const char *rel)
{
	const char *base = getenv(xdg_var), *home;
	struct buf b = { 0 };

	if (base != NULL && *base == '/')
		buf_adds(&b, base);
	else {
		home = getenv("HOME");
		buf_adds(&b, home && *home ? home : ".");
		buf_addc(&b, '/');
		buf_adds(&b, home_rel);
	}
	buf_addc(&b, '/');
	buf_adds(&b, rel);
	return buf_detach(&b);
}
