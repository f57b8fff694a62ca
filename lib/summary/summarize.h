/*
 * summarize.h - titles and summaries: the LLM request (llm.c), one
 * summary (summary*.c) and a batch of them (batch.c).
 */
#ifndef CONVCTL_SUMMARIZE_H
#define CONVCTL_SUMMARIZE_H

#include "../conv/conv.h"

/* llm.c: one chat request over HTTP (libcurl, started by the first request) */
enum llm_api { LLM_OPENAI, LLM_ANTHROPIC };
struct llm_config {
	enum llm_api api;
	const char *base;		/* the API root, e.g. https://api.openai.com/v1 */
	const char *model;
	const char *model_hint;		/* what chooses the model, for a 404 */
	const char *key;		/* NULL: no key is sent */
	const char *ca_bundle;		/* NULL: the system's CA certificates */
	double connect_timeout;		/* seconds */
	double timeout;			/* seconds, for each attempt */
	long retries;			/* attempts after the first */
	/* --verbose: each line of the exchange, the key replaced by [redacted] */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};
/* sends system and user text; *text is the model's reply, caller frees */
int llm_chat(const struct llm_config *, const char *system, const char *user,
    char **text, struct error *);
/* *text: the model's words in a 2xx reply body from url; caller frees */
int llm_reply_text(enum llm_api, const char *url, const char *body, size_t len,
    char **text, struct error *);
/* the provider's own error message in a reply body, one line; caller frees */
char *llm_error_message(const char *body, size_t len);
/* replaces every copy of secret in b with [redacted] */
void llm_redact(struct buf *, const char *secret);
void llm_cleanup(void);			/* after the last request */

/* summary.c: titles and summaries of ended conversations (the kinds and
 * their names: settings.h) */
struct summary_config {
	enum summary_kind kind;
	struct llm_config llm;		/* openai and anthropic */
	long context_chars;		/* conversation text sent, in code points */
};
/*
 * setup.c: the summarizer and its settings, checked. Without a
 * summarizer setting, the settings table's computed default holds: openai
 * when an OpenAI API key or a base URL is configured, else anthropic when an
 * Anthropic key is, else offline. Pointers are into the settings.
 */
int summary_config_load(struct summary_config *, const struct settings *,
    struct error *);
/* what the command line gave over the settings; NULL: not given */
struct summary_flags {
	const char *summarizer, *model, *api_base;
};
enum summary_setup {
	SUMMARY_SETUP_OK,
	SUMMARY_SETUP_BAD_FLAG,		/* the summarizer flag names none */
	SUMMARY_SETUP_BAD_SETTING,	/* a setting (or flag value) is wrong */
};
/*
 * A conversation the idle boundary ended is summarized by the add that
 * crossed it (after its write, no lock held) when the summarizer is local
 * (offline), or when the idle_summary setting says "add" for a network
 * one; by default a network summarizer leaves it pending, for the next end
 * or summarize --pending.
 */
/* (enum idle_summary and its names: settings.h) */
int summary_at_idle_end(const struct summary_config *,
    const struct settings *, struct error *);	/* 1 yes, 0 no, -1 e */
/* 1: the summarizer makes summaries here, sending nothing (offline) */
int summary_local(const struct summary_config *);
/* the flags set in st (as SRC_FLAG), then summary_config_load */
enum summary_setup summary_config_resolve(struct summary_config *,
    struct settings *st, const struct summary_flags *, struct error *);

/* a copy of one conversation, summarized while the store is closed */
struct summary_job;
struct summary_job *summary_job_new(struct conv *);
const char *summary_job_id(const struct summary_job *);
/* whether storing it keeps the conversation's title; a new job keeps one
 * set by hand (conv_title_by_hand) */
void summary_job_keep_title(struct summary_job *, int keep);
void summary_job_free(struct summary_job *);

struct summary_result {
	char *title, *summary;
	int offline_title;		/* the reply had no title: the offline one */
	int offline_summary;		/* nor a summary */
};
void summary_result_free(struct summary_result *);
/* model.c: what a model is sent, and how its reply is read */
extern const char summary_instructions[];	/* the system prompt */
/* the conversation as sent: longer than max code points, its start and its
 * end with a marked gap between them; caller frees */
char *summary_prompt(const struct summary_job *, long max);
/* the TITLE: and SUMMARY: of a model's reply, NULL where it has none */
void summary_parse_reply(const char *reply, char **title, char **summary);
/* offline.c, deterministic: from the first request, the last
 * answer, the tools, the message count and the time span */
void summary_offline(const struct summary_job *, struct summary_result *);
/* summary.c: with the configured summarizer; never touches the store */
int summary_make(const struct summary_config *, const struct summary_job *,
    struct summary_result *, struct error *);
enum summary_stored {
	SUMMARY_STORE_FAILED = -1,	/* e says why */
	SUMMARY_STORED,			/* in st, not yet saved */
	SUMMARY_STORE_GONE,		/* the conversation is gone */
	SUMMARY_STORE_CHANGED,		/* it changed since the job was made,
					 * and is left as it is */
};
enum summary_stored summary_store(struct store *, const struct summary_job *,
    const struct summary_result *, struct error *);

enum summary_status { SUMMARY_DONE, SUMMARY_WOULD, SUMMARY_SKIPPED,
	SUMMARY_FAILED, SUMMARY_CHANGED, SUMMARY_GONE };

/* batch.c: a batch of summaries, made with no lock held; it never prints */
struct summarize_item {
	struct summary_job *job;	/* the item owns it */
	int todo;			/* 0: left as it is (SUMMARY_SKIPPED) */
	/* filled by summarize_run */
	enum summary_status status;
	struct summary_result res;	/* SUMMARY_DONE */
	char *error;			/* why not: FAILED, CHANGED, GONE */
	int again;			/* FAILED as the store could not be
					 * written now (ERROR_TEMPORARY: its
					 * lock held past the wait, a server
					 * gone): a new try may store it */
};
enum summarize_event_kind {
	SUMMARIZE_BEGIN,	/* total: the items to summarize */
	SUMMARIZE_ITEM,		/* the done-th of total, id, begins */
	SUMMARIZE_STORING,	/* the store is opened to write what was made */
	SUMMARIZE_ERROR,	/* msg: why id was not summarized or stored; id
				 * NULL: the store could not be opened or saved */
	SUMMARIZE_VERBOSE,	/* msg: a --verbose line about id (only when
				 * cf->llm.log is set) */
	SUMMARIZE_NOTE,		/* msg: what writing did besides (the rolling
				 * limit removed some; the directory flush
				 * failed) */
};
struct summarize_event {
	enum summarize_event_kind kind;
	size_t done, total;
	const char *id;
	const char *msg;
};
struct summarize_request {
	const struct summary_config *cf;
	/* the store, the wait for its lock and the rolling limit, each
	 * looked up when results are written */
	const struct settings *settings;
	int dry_run;			/* summarize nothing: SUMMARY_WOULD */
	/* progress, errors and --verbose lines, as they happen; or NULL */
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
enum summarize_outcome {
	SUMMARIZE_DONE_ALL,	/* every item to do was done (or would be) */
	SUMMARIZE_DONE_SOME,
	SUMMARIZE_DONE_NONE,
	SUMMARIZE_AGAIN,	/* none done, each failed only for now (again) */
};
/*
 * Summarizes items[i] with todo set while no lock is held, then stores each
 * result under the lock where its conversation is still there and unchanged
 * (with a model, before each request and at the end).
 */
enum summarize_outcome summarize_run(const struct summarize_request *,
    struct summarize_item *, size_t n);
/*
 * For a local summarizer only (summary_local): summarizes the items into st,
 * which the caller holds locked with its own changes in it, and commits it
 * all in one write (the rolling limit applied), reporting as summarize_run.
 * 0; -1: that write failed (reported), nothing was written and the items
 * are failed: the caller may write its own changes alone; -2: the store
 * cannot be written now (ERROR_TEMPORARY: a server gone, or a read-only
 * standby), said in e and not reported: nor can the caller's changes be.
 */
int summarize_local(struct store *, const struct summarize_request *,
    struct summarize_item *, size_t n, struct error *);
/* lifecycle_commit, reporting as summarize_run what it did besides (the
 * rolling limit's removals, a directory not flushed); the failure is the
 * caller's to report */
enum commit_status summarize_commit(struct store *,
    const struct summarize_request *, struct error *);
enum summarize_which {
	SUMMARIZE_LATEST,	/* the conversation that ended last */
	SUMMARIZE_ID,		/* the one named by id, ended */
	SUMMARIZE_PENDING,	/* every ended one without a summary */
	SUMMARIZE_ALL_ENDED,	/* every ended one */
};
struct summarize_selection {
	enum summarize_which which;
	const char *id;
	int force;			/* redo those with a summary already */
};
/* items (summarize_items_free) for the conversations selected, newest end
 * first; those with a summary already are todo only with force */
int summarize_select(struct store *, const struct summarize_selection *,
    struct summarize_item **, size_t *n, struct error *);
/*
 * items[*n..] (*n counted up) for the conversations among the window that
 * ended last that have no summary, but the one named skip (NULL: none):
 * those an idle timeout or a failed summary left pending, which end makes
 * with its own; at most window of them (end's: SUMMARIZE_PENDING_WINDOW,
 * a few, so that an imported history is not summarized by end)
 */
#define SUMMARIZE_PENDING_WINDOW 10
int summarize_pending_window(struct store *, size_t window, const char *skip,
    struct summarize_item *items, size_t *n, struct error *);
void summarize_item_clear(struct summarize_item *);	/* job, res, error */
void summarize_items_free(struct summarize_item *, size_t n);
/* text: "ID\tTITLE" for each done, "ID" for each that would be; json:
 * [{id,status,title,summary,error}] for all */
void summarize_render(struct buf *, const struct summarize_item *, size_t n,
    int json);

#endif
