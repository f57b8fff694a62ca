#!/bin/sh
# convctl end: ends the active conversation
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

test_expect 'end with no store says so on stderr, exits 0 and writes nothing' '
	convctl end >out 2>err &&
	test ! -s out &&
	has_line "convctl: end: no active conversation" err &&
	! store_exists "$S"
'

test_expect 'end ends the active conversation at now and prints its id' '
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl add hi >id &&
	CONVCTL_NOW=2026-02-04T17:30:00.5Z convctl end >out 2>err &&
	same_file id out &&
	test ! -s err &&
	store_is "$S" -r ".conversations[0].endedAt" 2026-02-04T17:30:00.500Z
'

test_expect 'end with nothing active exits 0 and leaves the store unchanged' '
	keep_store "$S" &&
	convctl end >out 2>err &&
	test ! -s out &&
	has_line "convctl: end: no active conversation" err &&
	store_kept "$S"
'

test_expect 'a clock behind the last message ends it at that message, and warns' '
	CONVCTL_NOW=2026-02-04T18:00:00Z convctl add again >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl end >/dev/null 2>err &&
	store_is "$S" -r ".conversations[1].endedAt" 2026-02-04T18:00:00.000Z &&
	echo "convctl: end: warning: the clock (2026-02-04T17:00:00.000Z) is 1h before the last message (2026-02-04T18:00:00.000Z); ended at the last message'\''s time" >want &&
	same_file want err
'

test_expect 'only the active conversation is ended; ended ones keep their time' '
	store_is "$S" -r ".conversations[0].endedAt" 2026-02-04T17:30:00.500Z \
	    -r "[.conversations[] | select(.endedAt == null)] | length" 0
'

test_expect 'the next add after end starts a new conversation' '
	CONVCTL_NOW=2026-02-04T18:00:01Z convctl add new >id &&
	echo conv-1770228001000 >want && same_file want id &&
	store_is "$S" -r ".conversations | length" 3
'

test_expect 'end applies the rolling limit' '
	CONVCTL_NOW=2026-02-04T18:00:02Z convctl --max-conversations 1 end >out &&
	echo conv-1770228001000 >want && same_file want out &&
	store_is "$S" -r "[.conversations[].id] | join(\",\")" conv-1770228001000
'

test_expect 'end takes no operands' '
	keep_store "$S" &&
	fails_with 2 convctl end conv-1770228001000 &&
	stderr_has "unexpected argument" &&
	store_kept "$S"
'

test_expect 'a bad CONVCTL_NOW is an error and changes nothing' '
	CONVCTL_NOW=2026-02-04T18:00:03Z convctl add x >/dev/null &&
	keep_store "$S" &&
	CONVCTL_NOW=soon fails_with 1 convctl end &&
	stderr_has "CONVCTL_NOW is not an ISO 8601 time" &&
	store_kept "$S"
'

test_expect 'end -h prints the usage and options and exits 0' '
	convctl end -h >out &&
	line_starts "usage: convctl end" out &&
	convctl help end >help && same_file out help
'

test_expect 'a conversation idle past the timeout ended with its last message' '
	store_rm "$S" &&
	CONVCTL_NOW=2026-02-05T09:00:00Z convctl add "left open" >id &&
	CONVCTL_NOW=2026-02-05T09:00:05Z convctl add --role assistant ok >/dev/null &&
	CONVCTL_NOW=2026-02-05T11:00:00Z convctl end >out 2>err &&
	same_file id out && test ! -s err &&
	store_is "$S" -r ".conversations[-1].endedAt" 2026-02-05T09:00:05.000Z &&
	CONVCTL_NOW=2026-02-05T12:00:00Z convctl add "within the timeout" >/dev/null &&
	CONVCTL_NOW=2026-02-05T12:29:00Z convctl end >/dev/null &&
	store_is "$S" -r ".conversations[-1].endedAt" 2026-02-05T12:29:00.000Z
'

# a local summarizer sends nothing, so its summaries are made under the lock
# and written with the end: one rename, and the store and output exactly what
# the two writes of before (the end, then the summaries) gave
if command -v strace >/dev/null 2>&1 && [ -z "${CONVCTL_WRAPPER:-}" ]; then
	test_file 'end with the offline summarizer writes once what end then summarize wrote' '
		rm -f "$S" &&
		CONVCTL_NOW=2026-02-05T08:00:00Z convctl add "an earlier question" >/dev/null &&
		CONVCTL_NOW=2026-02-05T08:01:00Z convctl end --no-summary >/dev/null &&
		CONVCTL_NOW=2026-02-05T09:00:00Z convctl add "Add milk to my list" >/dev/null &&
		CONVCTL_NOW=2026-02-05T09:00:01Z convctl add --role assistant \
		    --tool edit_file "Added milk." >/dev/null &&
		cp "$S" before.json &&
		CONVCTL_NOW=2026-02-05T09:10:00Z convctl end --no-summary >expect &&
		CONVCTL_NOW=2026-02-05T09:10:00Z convctl summarize --pending \
		    --summarizer offline >/dev/null &&
		jq_is "$S" -r "[.conversations[] | select(.summary != null)] | length" 2 &&
		cp "$S" two-writes.json && cp before.json "$S" &&
		CONVCTL_NOW=2026-02-05T09:10:00Z ASAN_OPTIONS=detect_leaks=0 \
		    strace -f -e trace=rename,renameat,renameat2 -o trace \
		    "$CONVCTL_BIN" end --summarizer offline >out 2>err &&
		same_file expect out && test ! -s err &&
		# the renames of the store: one (as grep -c "rename.*store\.json\"")
		n=0 && while IFS= read -r l; do
			case $l in *rename*"store.json\""*) n=$((n + 1)) ;; esac
		done <trace &&
		test "$n" -eq 1 &&
		same_file two-writes.json "$S"
	'
else
	test_n=$((test_n + 1))
	why="strace is not installed"
	[ -z "${CONVCTL_WRAPPER:-}" ] || why="convctl runs under a wrapper (it traces convctl itself)"
	echo "ok $test_n # SKIP one write for a local summary: $why"
fi

test_done
