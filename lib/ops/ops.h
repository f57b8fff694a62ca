/*
 * ops.h - the operations a command and its MCP tool share, one function each
 * holding the whole rule: a request (what the face parsed), a result (what
 * the face prints or renders). The CLI (cmd/NAME.c) and `convctl mcp`
 * (lib/mcp/tools.c) only turn their input into the request and the result
 * into their output; the store's transaction, the limits, the time, the
 * idle timeout, the rolling limit and the summaries are here (add.c, end.c,
 * switch.c, exchange.c, organize.c, remove.c). Their arguments are declared
 * once in lib/args (args.h).
 */
#ifndef CONVCTL_OPS_H
#define CONVCTL_OPS_H

#include "ending.h"

/* how an operation came out; error says why unless OPS_DONE */
enum ops_status {
	OPS_DONE,
	OPS_FAILED,		/* nothing written; error.kind says which
				 * kind (a database's: try again) */
	OPS_BAD_ARG,		/* an argument is not of its form: a usage
				 * error; nothing read */
	OPS_REFUSED,		/* the argument is well formed but the store
				 * refuses it (a time before the last
				 * message, too far ahead): nothing written */
	OPS_BAD_STORE,		/* the store setting names no store file
				 * (a device, a FIFO): error.hint says more */
	OPS_CONFLICT,		/* add: the message would not go to the
				 * conversation expected */
	OPS_PARTIAL,		/* written, a summary pending: pending[] */
};

/* a line to say (a warning, what the rolling limit removed), not printed
 * by lib/: the face says it its way */
typedef void ops_say_fn(void *arg, const char *line);

struct ops_add_result;
struct ops_end_result;
struct ops_switch_result;
struct ops_record_result;

/* ops.c: the warning of a clock behind the last message (at last): what
 * was done ("recorded", "ended") at that message's time instead */
void ops_skew_line(struct buf *, int64_t clock, int64_t last,
    const char *done);
/* ops.c: the tools a message names, as a typo of the face's input: at
 * most TOOL_MAX_COUNT (count_name names them in that error: "--tool name",
 * "tool name"), each one line of at most TOOL_MAX_CHARS characters; 0 or
 * -1. An empty name or one not UTF-8 is tool_names_check()'s, after */
int ops_tools_check(const char *const *tools, size_t n, const char *count_name,
    struct error *);
/* ops.c: the ending protocol's outcome (ending_run()) as an operation's
 * status: its error in *error, the ids whose summaries are pending moved
 * from ending to pending[] (as many as ending's, NULL-ended); stopped is
 * the status when a callback of the operation's stopped it (what that
 * callback decided) */
enum ops_status ops_ending_status(enum ending_status, struct ending_result *,
    struct error *error, char **pending, enum ops_status stopped);
/* ops.c: the summarizer an ending asks after its write: cf when it is set
 * up and not none (its requests and replies to log), else the setup's
 * error (ce) said as the ending's, the conversation's summary pending */
void ops_ending_summarizer(struct ending_request *, struct summary_config *cf,
    enum summary_setup setup, const struct error *ce,
    void (*log)(void *arg, const char *line), void *log_arg);
/* ops.c: the store the settings name, for an operation's write (its read
 * when dry_run); NULL with *status set (OPS_BAD_STORE: the setting names
 * no store file) */
struct store *ops_open(const struct settings *, int dry_run, struct error *,
    enum ops_status *);

/* add.c */
struct ops_add_request {
	struct settings *settings;
	enum conv_role role;
	const char *text;		/* may hold NUL bytes */
	size_t len;
	const char *text_name;		/* the text as the face names it in a
					 * size error: "TEXT" */
	/* ops_tools_check() first (tools_name: its count_name), then
	 * tool_names_check() */
	const char *const *tools;
	size_t ntools;
	const char *tools_name;
	/* the time asked for, ISO 8601 (at_name names it: "--at"); NULL:
	 * the clock, read under the lock */
	const char *at;
	const char *at_name;
	const char *dedupe_key;		/* NULL: none */
	const char *expect_conv;	/* NULL: any */
	const char *template_name;	/* a template opens a conversation it
					 * starts; NULL: none */
	/* after the write, before the one its idle boundary ended is
	 * summarized: the face answers here (res->id is set) */
	void (*answered)(void *arg, const struct ops_add_result *);
	void *arg;
	/* the summary's progress, errors and notes (summarize_request's) */
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
struct ops_add_result {
	enum ops_status status;
	struct error error;
	const char *arg;		/* the argument that was wrong, when
					 * one was: "text", "tools", "at" */
	char *id;			/* the conversation written; owned */
	int64_t at;			/* the time recorded */
	int64_t clock;			/* the clock read, when no time was
					 * asked for; at is later when the
					 * clock was behind the last message */
	int started;			/* it started a conversation */
	int template_unused;		/* template_name given, and the
					 * message went to one already
					 * started */
	long max;			/* ops_add_check: max_message_bytes,
					 * the most a face reading the text
					 * needs to read */
};
enum ops_status ops_add(const struct ops_add_request *, struct ops_add_result *);
/* what ops_add checks before the text is looked at (the idle timeout, the
 * tools, the time asked for; the limit read into res->max): for a face
 * that reads the text after */
enum ops_status ops_add_check(const struct ops_add_request *,
    struct ops_add_result *);
void ops_add_result_free(struct ops_add_result *);

/* end.c */
struct ops_end_request {
	struct settings *settings;
	int no_summary;			/* end it alone */
	struct summary_flags flags;	/* over the settings: NULL not given */
	/* the model's requests and replies, for --verbose; NULL: none */
	void (*llm_log)(void *arg, const char *line);
	void *llm_log_arg;
	/* after the write, before any summary is asked for: the face answers
	 * here (res->id, NULL when none was active) */
	void (*answered)(void *arg, const struct ops_end_result *);
	void *arg;
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
struct ops_end_result {
	enum ops_status status;	/* OPS_BAD_ARG: a summarizer flag (arg
				 * "summarizer") */
	struct error error;
	const char *arg;
	char *id;		/* the conversation ended, or NULL: none was
				 * active; owned */
	int64_t ended_at;	/* its endedAt */
	int64_t now;		/* the time of the end: ended_at is later
				 * when the clock was behind its last
				 * message (earlier: it was idle) */
	/* OPS_PARTIAL: why its summary is pending and what to do, NULL-ended;
	 * owned */
	char *pending[3];
};
enum ops_status ops_end(const struct ops_end_request *, struct ops_end_result *);
void ops_end_result_free(struct ops_end_result *);

/* switch.c: resume and fork: another conversation made active, the one
 * active before ended as ops_end ends it, its summary after */
enum ops_switch_kind {
	OPS_RESUME,			/* id, ended, active again */
	OPS_FORK,			/* id copied, up to at, into a new
					 * active one */
};
struct ops_switch_request {
	struct settings *settings;
	enum ops_switch_kind kind;
	const char *id;			/* the conversation resumed or copied */
	const char *at;			/* OPS_FORK: the last message copied,
					 * its id or a position
					 * (conv_message_find); NULL: all */
	int dry_run;			/* read only: nothing written, nothing
					 * summarized */
	int no_summary;			/* the one active ended alone */
	struct summary_flags flags;	/* over the settings: NULL not given */
	void (*llm_log)(void *arg, const char *line);
	void *llm_log_arg;
	/* after the write, before any summary is asked for: the face answers
	 * here (res->id, ended, forked_from); non-zero stops it there, no
	 * summary asked for (res->stopped) */
	int (*answered)(void *arg, const struct ops_switch_result *);
	void *arg;
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
struct ops_switch_result {
	enum ops_status status;		/* OPS_FAILED: the id or at is wrong
					 * (error), or the store failed */
	struct error error;
	char *id;			/* the conversation made active; owned */
	char *ended;			/* the one ended, or NULL; owned */
	json_t *forked_from;		/* its forkedFrom, or NULL; owned */
	int64_t now;			/* the time of the end and the change */
	int stopped;			/* answered's non-zero return */
	/* OPS_PARTIAL: why the summary of ended is pending, NULL-ended;
	 * owned */
	char *pending[3];
};
enum ops_status ops_switch(const struct ops_switch_request *,
    struct ops_switch_result *);
void ops_switch_result_free(struct ops_switch_result *);

/* exchange.c: `convctl run`'s exchange, before its command runs (the
 * limits, the prompt given as text, the tools: ex's two messages set up)
 * and after (both recorded in one write) */
struct ops_run_request {
	const struct settings *settings;
	const char *text;		/* the prompt given as text; NULL: the
					 * face reads it (at most res->max
					 * bytes) into ex->prompt_spool */
	size_t len;
	const char *text_name;		/* as a size error names it:
					 * "--prompt" */
	const char *const *tools;	/* the answer's: ops_tools_check(),
					 * tools_name its count_name */
	size_t ntools;
	const char *tools_name;
};
struct ops_run_result {
	enum ops_status status;		/* OPS_BAD_ARG: tools; OPS_FAILED: a
					 * setting, or the text's size */
	struct error error;
	long max;			/* max_message_bytes: the most a
					 * prompt or answer may have */
};
enum ops_status ops_run_start(const struct ops_run_request *,
    struct exchange *ex, struct ops_run_result *);
struct ops_record_request {
	struct settings *settings;
	struct exchange *ex;		/* planned (exchange_plan), its reply
					 * got */
	struct buf *said;		/* the prompt's text, freed once the
					 * store holds its copy */
	void (*llm_log)(void *arg, const char *line);
	void *llm_log_arg;
	/* after the write, before the one its idle boundary ended is
	 * summarized: the face answers here (res->id, moved) */
	void (*answered)(void *arg, const struct ops_record_result *);
	void *arg;
	void (*report)(void *arg, const struct summarize_event *);
	void *report_arg;
};
struct ops_record_result {
	enum ops_status status;		/* OPS_CONFLICT: another conversation
					 * became active meanwhile; error
					 * says "...; nothing recorded" */
	struct error error;
	char *id;			/* the conversation written; owned */
	int moved;			/* to a new one: the one it joined was
					 * ended while the command ran */
	char *pending[3];
};
enum ops_status ops_run_record(const struct ops_record_request *,
    struct ops_record_result *);
void ops_record_result_free(struct ops_record_result *);

/* organize.c: title and tag, on the conversation id, active or ended */
struct ops_title_request {
	const struct settings *settings;
	const char *id;
	const char *title;
	int dry_run;			/* checked, nothing written */
	ops_say_fn *say;		/* what the rolling limit removed */
	void *say_arg;
};
struct ops_title_result {
	enum ops_status status;
	struct error error;
	const char *arg;		/* OPS_BAD_ARG: "title" */
};
enum ops_status ops_title(const struct ops_title_request *,
    struct ops_title_result *);

struct ops_tag_request {
	const struct settings *settings;
	const char *id;
	char *const *tags;
	size_t ntags;
	int remove;			/* the tags removed instead */
	int dry_run;
	ops_say_fn *say;
	void *say_arg;
};
struct ops_tag_result {
	enum ops_status status;
	struct error error;
	const char *arg;		/* OPS_BAD_ARG: "tags" */
	char **tags;			/* the tags it has after, NULL-ended
					 * (ntags of them); owned */
	size_t ntags;
};
enum ops_status ops_tag(const struct ops_tag_request *, struct ops_tag_result *);
void ops_tag_result_free(struct ops_tag_result *);

/* organize.c: edit, one message of the conversation id replaced (or
 * removed), active or ended */
struct ops_edit_request {
	const struct settings *settings;
	const char *id;
	const char *message;		/* its id or its position: 1 the
					 * first, -1 the newest */
	const char *text;		/* NULL: the message removed; may
					 * hold NUL bytes */
	size_t len;
	const char *text_name;		/* the text as the face names it in a
					 * size error: "TEXT" */
	int dry_run;			/* checked, nothing written */
	ops_say_fn *say;		/* what the rolling limit removed */
	void *say_arg;
};
struct ops_edit_result {
	enum ops_status status;
	struct error error;
};
enum ops_status ops_edit(const struct ops_edit_request *,
    struct ops_edit_result *);

/* organize.c: pin, the conversations ids kept from the rolling limit and
 * prune (or let go: remove); one unknown id changes none */
struct ops_pin_request {
	const struct settings *settings;
	char *const *ids;
	size_t nids;
	int remove;
	int dry_run;
	ops_say_fn *say;
	void *say_arg;
};
struct ops_pin_result {
	enum ops_status status;
	struct error error;
};
enum ops_status ops_pin(const struct ops_pin_request *, struct ops_pin_result *);

/* remove.c: delete, conversations removed for good by id (conv_delete's
 * rule: the active one only with force) */
struct ops_delete_request {
	const struct settings *settings;
	char *const *ids;
	size_t nids;
	int force;			/* the active conversation too */
	int dry_run;			/* what would go, nothing removed */
	ops_say_fn *say;		/* what the rolling limit removed */
	void *say_arg;
};
struct ops_delete_result {
	enum ops_status status;
	struct error error;
	char **ids;			/* those removed (or that would be),
					 * NULL-ended; owned */
	size_t nids;
};
enum ops_status ops_delete(const struct ops_delete_request *,
    struct ops_delete_result *);
void ops_delete_result_free(struct ops_delete_result *);

/* remove.c: prune, the oldest ended conversations removed */
struct ops_prune_request {
	const struct settings *settings;
	int max_given;			/* max, not the max_conversations
					 * setting, this once */
	long max;			/* ended conversations kept */
	/* also those ended longer ago than this duration ("30d"; NULL:
	 * none), older_than_name names it in an error: "--older-than" */
	const char *older_than;
	const char *older_than_name;
	int dry_run;			/* what would go, nothing removed */
	/* after each removal (done of total), when not NULL */
	void (*progress)(void *arg, size_t done, size_t total);
	void *progress_arg;
	ops_say_fn *say;		/* what the commit said */
	void *say_arg;
};
struct ops_prune_result {
	enum ops_status status;	/* OPS_BAD_ARG: older_than (arg
				 * "older-than") */
	struct error error;
	const char *arg;
	char **ids;			/* those removed (or that would be),
					 * oldest first, NULL-ended; owned */
	size_t nids;
};
enum ops_status ops_prune(const struct ops_prune_request *,
    struct ops_prune_result *);
void ops_prune_result_free(struct ops_prune_result *);

#endif
