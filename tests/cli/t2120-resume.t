#!/bin/sh
# resume: an ended conversation active again; the one active before ended
# as end ends it; the idle timeout counts from the resume
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Plan the trip" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:01Z convctl add -r assistant "Where to?" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-04T11:00:00Z convctl add "Something else" >/dev/null
a=conv-1770199200000 b=conv-1770202800000

test_expect '--dry-run, an unknown id and the active one change nothing' '
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl resume --dry-run $a >out &&
	file_is $a out && store_kept "$CONVCTL_STORE" &&
	fails_with 1 convctl resume conv-404 &&
	stderr_has "convctl: resume: no conversation '\''conv-404'\''" &&
	fails_with 1 convctl resume $b &&
	stderr_has "resume: conversation '\''$b'\'' is already active" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'resume ends the active one as end does, summary included' '
	# the summary as JSON: one line, however many it holds
	store_jq "$CONVCTL_STORE" -c ".conversations[] | select(.id == \"$a\") | .summary" >old &&
	read -r old_summary <old && test "$old_summary" != null &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl resume --json $a >out &&
	jq -e ".id == \"$a\" and .ended == \"$b\"" out >/dev/null &&
	# the store read once: the fields field would print, by one jq
	A=".conversations[] | select(.id == \"$a\")" B=".conversations[] | select(.id == \"$b\")" &&
	store_is "$CONVCTL_STORE" -r "$B | .endedAt" 2026-02-04T11:00:00.000Z \
	    -r "$B | .summary | . != null and . != \"null\"" true \
	    -r "$A | .endedAt" null -r "$A | .resumedAt" 2026-02-04T12:00:00.000Z \
	    -c "$A | .summary" "$old_summary" -r "$A | .summaryStale" true \
	    -c "[.conversations[] | select(.endedAt == null)] | length" 1
'

test_expect 'an add right after joins it: the idle timeout counts from the resume' '
	CONVCTL_NOW=2026-02-04T12:10:00Z convctl add "To Lisbon" >out &&
	file_is $a out &&
	convctl prompt --format jsonl >p && jq -r .content p >got && line_is -1 "To Lisbon" got
'

test_expect 'the next end refreshes the stale summary' '
	CONVCTL_NOW=2026-02-04T12:11:00Z convctl end >/dev/null &&
	conv_is $a "summary | contains(\"3 messages\")" true summaryStale null
'

# with no summarizer, so that the idle end leaves its summary stale (the
# offline one would summarize it at once: t2040-idle-summary.t)
test_expect 'idle past the timeout after the resume, it ended at the resume' '
	CONVCTL_NOW=2026-02-04T13:00:00Z convctl resume --no-summary $b >/dev/null &&
	CONVCTL_NOW=2026-02-04T13:31:00Z CONVCTL_SUMMARIZER=none \
	    convctl add "much later" >out &&
	read -r id <out && test "$id" != $b &&
	conv_is $b endedAt 2026-02-04T13:00:00.000Z summaryStale true
'

test_expect 'summarize --pending picks the stale one' '
	convctl summarize --pending >out &&
	cut_f 1 out >ids && has_line $b ids &&
	conv_is $b summaryStale null
'
# three conversations, the first two ended without a summary, the third
# active; prints nothing
three() {
	use_store "$1" &&
	CONVCTL_NOW=2026-02-05T10:00:00Z convctl add "Left pending" >/dev/null &&
	CONVCTL_NOW=2026-02-05T10:01:00Z convctl end --no-summary >/dev/null &&
	CONVCTL_NOW=2026-02-05T11:00:00Z convctl add "To resume" >/dev/null &&
	CONVCTL_NOW=2026-02-05T11:01:00Z convctl end --no-summary >/dev/null &&
	CONVCTL_NOW=2026-02-05T12:00:00Z convctl add "Active one" >/dev/null
}
p=conv-1770285600000 r=conv-1770289200000 c=conv-1770292800000

test_expect 'resume summarizes the pending ones too, as end does' '
	three pending &&
	CONVCTL_NOW=2026-02-05T12:30:00Z convctl resume $r >out 2>err &&
	file_is $r out && test ! -s err &&
	C=".conversations[] | select(.id == \"$c\")" P=".conversations[] | select(.id == \"$p\")" &&
	R=".conversations[] | select(.id == \"$r\")" &&
	store_is "$CONVCTL_STORE" -r "$C | .summary | contains(\"Active one\")" true \
	    -r "$P | .summary | contains(\"Left pending\")" true \
	    -r "$R | .summary" null -r "$R | .endedAt" null
'

test_expect 'resume --no-summary leaves them all pending' '
	three nosum &&
	CONVCTL_NOW=2026-02-05T12:30:00Z convctl resume --no-summary $r >/dev/null &&
	store_is "$CONVCTL_STORE" -r "[.conversations[] | select(.summary != null)] | length" 0
'
test_done
