/*
 * convctl.h - the interface between cmd/ and lib/, the library under
 * convctl(1); convctl's own, not installed (README, "How the code is laid out").
 *
 * The library knows the store, JSON, HTTP, time, locking and settings. It never
 * prints and never exits: a function that fails returns -1 (or NULL) and fills
 * a struct error with one line that names the problem and the place; the caller
 * decides what to print and which exit status that is.
 *
 * Who allocates frees: a function returning char * hands the caller a string
 * to free(); pointers into a struct store or struct conv live as long as it.
 *
 * Names carry their module's prefix. The interface is in the headers below,
 * from the most basic up, each grouped by source file; include this one.
 */
#ifndef CONVCTL_H
#define CONVCTL_H

#include "base/base.h"
#include "settings/settings.h"
#include "store/store.h"
#include "conv/conv.h"
#include "render/render.h"
#include "search/search.h"
#include "ops/run.h"
#include "migrate/import.h"
#include "summary/summarize.h"
#include "ops/ending.h"
#include "ops/ops.h"
#include "migrate/commit.h"
#include "args/args.h"
#include "mcp/mcp.h"

#endif
