/*
 * kinds.c - the names of the summary settings' values, which the settings
 * table parses and lib/summary/setup.c reads: data only, kept here so that
 * settings.c, below the summaries, needs nothing of lib/summary.
 */
#include "settings.h"

/* in the order a list of them is written: "openai, anthropic, offline or none" */
const struct name_table summary_kinds[] = {
	{ "openai", SUMMARY_OPENAI }, { "anthropic", SUMMARY_ANTHROPIC },
	{ "offline", SUMMARY_OFFLINE }, { "none", SUMMARY_NONE }, { NULL, 0 },
};

const struct name_table idle_summaries[] = {
	{ "pending", IDLE_SUMMARY_PENDING }, { "add", IDLE_SUMMARY_ADD },
	{ NULL, 0 },
};
