#!/bin/sh
# resume: an ended conversation active again; the one active before ended
# as end ends it; the idle timeout counts from the resume
. "$(dirname "$0")/../lib.sh"

# field ID NAME: the stored value, "null" when absent or null; one jq reads
# a file store (no cat or pipe before it)
field() {
	if is_db "$CONVCTL_STORE"; then
		store_jq "$CONVCTL_STORE" -r --arg id "$1" ".conversations[] | select(.id == \$id) | .$2"
	else
		jq -r --arg id "$1" ".conversations[] | select(.id == \$id) | .$2" "$CONVCTL_STORE"
	fi
}

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Plan the trip" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:01Z convctl add -r assistant "Where to?" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-04T11:00:00Z convctl add "Something else" >/dev/null
a=conv-1770199200000 b=conv-1770202800000

test_expect '--dry-run, an unknown id and the active one change nothing' '
	snapshot "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl resume --dry-run $a >out &&
	file_is $a out && unchanged "$CONVCTL_STORE" &&
	fails_with 1 convctl resume conv-404 &&
	stderr_has "convctl: resume: no conversation '\''conv-404'\''" &&
	fails_with 1 convctl resume $b &&
	stderr_has "resume: conversation '\''$b'\'' is already active" &&
	unchanged "$CONVCTL_STORE"
'

test_expect 'resume ends the active one as end does, summary included' '
	old_summary=$(field $a summary) && test "$old_summary" != null &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl resume --json $a >out &&
	jq -e ".id == \"$a\" and .ended == \"$b\"" out >/dev/null &&
	# the store read once: the fields field would print, by one jq
	A=".conversations[] | select(.id == \"$a\")" B=".conversations[] | select(.id == \"$b\")" &&
	store_is "$CONVCTL_STORE" -r "$B | .endedAt" 2026-02-04T11:00:00.000Z \
	    -r "$B | .summary | . != null and . != \"null\"" true \
	    -r "$A | .endedAt" null -r "$A | .resumedAt" 2026-02-04T12:00:00.000Z \
	    -r "$A | .summary" "$old_summary" -r "$A | .summaryStale" true \
	    -c "[.conversations[] | select(.endedAt == null)] | length" 1
'

test_expect 'an add right after joins it: the idle timeout counts from the resume' '
	CONVCTL_NOW=2026-02-04T12:10:00Z convctl add "To Lisbon" >out &&
	file_is $a out &&
	convctl prompt --format jsonl | jq -r .content | tail -n 1 | grep -qx "To Lisbon"
'

test_expect 'the next end refreshes the stale summary' '
	CONVCTL_NOW=2026-02-04T12:11:00Z convctl end >/dev/null &&
	field $a summary | grep -q "3 messages" &&
	test "$(field $a summaryStale)" = null
'

# with no summarizer, so that the idle end leaves its summary stale (the
# offline one would summarize it at once: t2040-idle-summary.t)
test_expect 'idle past the timeout after the resume, it ended at the resume' '
	CONVCTL_NOW=2026-02-04T13:00:00Z convctl resume --no-summary $b >/dev/null &&
	CONVCTL_NOW=2026-02-04T13:31:00Z CONVCTL_SUMMARIZER=none \
	    convctl add "much later" >out &&
	test "$(cat out)" != $b &&
	test "$(field $b endedAt)" = 2026-02-04T13:00:00.000Z &&
	test "$(field $b summaryStale)" = true
'

test_expect 'summarize --pending picks the stale one' '
	convctl summarize --pending >out &&
	cut -f 1 out | grep -qx $b &&
	test "$(field $b summaryStale)" = null
'
# three conversations, the first two ended without a summary, the third
# active; prints nothing
three() {
	export CONVCTL_STORE=$(store_at "$1") &&
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
	field $c summary | grep -q "Active one" &&
	field $p summary | grep -q "Left pending" &&
	test "$(field $r summary)" = null && test "$(field $r endedAt)" = null
'

test_expect 'resume --no-summary leaves them all pending' '
	three nosum &&
	CONVCTL_NOW=2026-02-05T12:30:00Z convctl resume --no-summary $r >/dev/null &&
	test "$(store_jq "$CONVCTL_STORE" "[.conversations[] | select(.summary != null)] | length")" = 0
'
test_done
