/*
 * ops.c - what the operations' results say the same way on both faces.
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
