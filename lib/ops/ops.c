/*
 * ops.c - what the operations' results say the same way on both faces,
 * the check of the tools a message names that add and run share, and the
 * store as the operations open it.
 */
#include "../internal.h"
#include "ops.h"

void
ops_skew_line(struct buf *b, int64_t clock, int64_t last, const char *done)
{
	char c[TS_LEN], l[TS_LEN], behind[DURATION_LEN];

	ts_format(clock, c);
	ts_format(last, l);
	duration_format(last - clock, behind);
	buf_addf(b, "warning: the clock (%s) is %s before the last message "
	    "(%s); %s at the last message's time", c, behind, l, done);
}

int
ops_tools_check(const char *const *tools, size_t n, const char *count_name,
    struct error *e)
{
	size_t i;

	if (label_count_check(count_name, n, TOOL_MAX_COUNT, e) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (label_check("tool name", tools[i], TOOL_MAX_CHARS, e) < 0)
			return -1;
	return 0;
}

struct store *
ops_open(const struct settings *set, int dry_run, struct error *e,
    enum ops_status *status)
{
	struct store *st = NULL;
	int rc;

	if ((rc = lifecycle_begin(set, dry_run ? STORE_READ : STORE_WRITE, &st,
	    e)) < 0) {
		*status = rc == -2 ? OPS_BAD_STORE : OPS_FAILED;
		return NULL;
	}
	return st;
}

enum ops_status
ops_ending_status(enum ending_status st, struct ending_result *ending,
    struct error *error, char **pending, enum ops_status stopped)
{
	size_t i;

	switch (st) {
	case ENDING_BAD_STORE:	/* a device, a FIFO: the wrong thing named */
		*error = ending->error;
		return OPS_BAD_STORE;
	case ENDING_FAILED:
		*error = ending->error;
		return OPS_FAILED;
	case ENDING_STOPPED:
		return stopped;
	case ENDING_PENDING:
		for (i = 0; ending->pending[i] != NULL; i++) {
			pending[i] = ending->pending[i];
			ending->pending[i] = NULL;
		}
		return OPS_PARTIAL;
	case ENDING_DONE:
		break;
	}
	return OPS_DONE;
}

void
ops_ending_summarizer(struct ending_request *er, struct summary_config *cf,
    enum summary_setup setup, const struct error *ce,
    void (*log)(void *arg, const char *line), void *log_arg)
{
	if (setup != SUMMARY_SETUP_OK)
		er->setup_error = ce->msg;
	else if (cf->kind != SUMMARY_NONE) {
		cf->llm.log = log;
		cf->llm.log_arg = log_arg;
		er->cf = cf;
	}
}
