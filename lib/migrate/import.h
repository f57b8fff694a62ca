/*
 * import.h - migrate: other tools' histories into the store, as cmd/
 * calls it. The formats and the run's parts are lib/migrate/'s own.
 */
#ifndef CONVCTL_IMPORT_H
#define CONVCTL_IMPORT_H

#include "../store/store.h"

/* migrate/: other tools' histories into conversations, all or nothing */
enum migrate_format {	/* a new one: the recipe in lib/migrate/formats.c */
	MIGRATE_SMARTHOLE, MIGRATE_MESSAGES, MIGRATE_JSONL, MIGRATE_CHATSIDIAN,
	MIGRATE_AIWHISPERER, MIGRATE_CHATGPT, MIGRATE_CLAUDE, MIGRATE_CODEX,
	MIGRATE_LLM, MIGRATE_CONVCTL, MIGRATE_MARKDOWN,
	MIGRATE_CLAUDEAI, MIGRATE_AIDER, MIGRATE_GEMINI,
	MIGRATE_DETECT
};
/* the names, from the table of formats: "smarthole, messages, …" */
const char *migrate_format_list(void);
int migrate_format_parse(const char *, enum migrate_format *);
const char *migrate_format_name(enum migrate_format);
struct migrate_request {
	const char *path;		/* a file, or a directory of them */
	enum migrate_format format;	/* MIGRATE_DETECT: from name and content */
	int rename_conflicts;		/* a taken id gets -2, -3…; else an error */
	int split;			/* cut at gaps longer than idle_timeout */
	int dry_run;			/* notes say what would be done */
	/* a bad source, record or line is skipped, and named in a note,
	 * rather than failing the run */
	int skip_bad;
	int64_t idle_timeout;		/* ms */
	int64_t now;			/* for messages without a time, and the record */
	size_t max_bytes;		/* the largest source read; 0: no limit */
	/* path's bytes, read before the store was locked (a pipe, a device:
	 * see migrate_read); NULL: each source is read by migrate_run */
	const char *data;
	size_t len;
	/* called as entries are read, so a caller may show progress; or NULL */
	void (*progress)(void *arg, const char *file, size_t done, size_t total);
	void *progress_arg;
};
struct migrate_result;
/*
 * Reads every source under rq->path, checks it, and adds what is new to st in
 * memory: its conversations, a record of each source in "imports" and
 * lastMigrated. Sources recorded before are skipped. On error st may hold part
 * of the import: the caller must not save it. Either way the caller frees
 * *result with migrate_free().
 */
int migrate_run(struct store *, const struct migrate_request *,
    struct migrate_result **, struct error *);
/* all of the source file, at most max bytes (0: no limit; the error names
 * max_input_bytes), into b */
int migrate_read(const char *file, size_t max, struct buf *b, struct error *);
size_t migrate_imported(const struct migrate_result *);	/* conversations */
int migrate_changed(const struct migrate_result *);	/* a source was new */
int migrate_was_imported(const struct migrate_result *, const char *id);
/* 1: imported, with a summary migrate wrote rather than the source's */
int migrate_made_summary(const struct migrate_result *, const char *id);
/*
 * the conversations the import added that want a summary (none, or the one
 * migrate wrote when cf names a model), less the pruned ids the rolling limit
 * removed or would: new jobs (summary_job_free each, then free the array)
 */
struct summary_config;
struct summary_job **migrate_summary_jobs(struct store *,
    const struct migrate_result *, const struct summary_config *cf,
    char *const *pruned, size_t npruned, size_t *njobs);
/* the i-th line to tell the user (a torn line skipped…); NULL past the last */
const char *migrate_note(const struct migrate_result *, size_t i);
/* what was found and done; pruned: ids the rolling limit removed after */
void migrate_report(struct buf *, const struct migrate_result *, int dry_run,
    char *const *pruned, size_t npruned, int json);
void migrate_free(struct migrate_result *);

#endif
