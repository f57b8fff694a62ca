#!/bin/sh
# convctl end: ends the active conversation
. "$(dirname "$0")/../lib.sh"

S=$CONVCTL_STORE
q() { store_json "$S" | jq -r "$1"; }

test_expect 'end with no store says so on stderr, exits 0 and writes nothing' '
	convctl end >out 2>err &&
	test ! -s out &&
	grep -qx "convctl: end: no active conversation" err &&
	! store_exists "$S"
'

test_expect 'end ends the active conversation at now and prints its id' '
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl add hi >id &&
	CONVCTL_NOW=2026-02-04T17:30:00.5Z convctl end >out 2>err &&
	test_cmp id out &&
	test ! -s err &&
	test "$(q ".conversations[0].endedAt")" = 2026-02-04T17:30:00.500Z
'

test_expect 'end with nothing active exits 0 and leaves the store unchanged' '
	snapshot "$S" &&
	convctl end >out 2>err &&
	test ! -s out &&
	grep -qx "convctl: end: no active conversation" err &&
	unchanged "$S"
'

test_expect 'a clock behind the last message ends it at that message, and warns' '
	CONVCTL_NOW=2026-02-04T18:00:00Z convctl add again >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl end >/dev/null 2>err &&
	test "$(q ".conversations[1].endedAt")" = 2026-02-04T18:00:00.000Z &&
	echo "convctl: end: warning: the clock (2026-02-04T17:00:00.000Z) is 1h before the last message (2026-02-04T18:00:00.000Z); ended at the last message'\''s time" >want &&
	test_cmp want err
'

test_expect 'only the active conversation is ended; ended ones keep their time' '
	test "$(q ".conversations[0].endedAt")" = 2026-02-04T17:30:00.500Z &&
	test "$(q "[.conversations[] | select(.endedAt == null)] | length")" = 0
'

test_expect 'the next add after end starts a new conversation' '
	CONVCTL_NOW=2026-02-04T18:00:01Z convctl add new >id &&
	echo conv-1770228001000 >want && test_cmp want id &&
	test "$(q ".conversations | length")" = 3
'

test_expect 'end applies the rolling limit' '
	CONVCTL_NOW=2026-02-04T18:00:02Z convctl --max-conversations 1 end >out &&
	echo conv-1770228001000 >want && test_cmp want out &&
	test "$(q "[.conversations[].id] | join(\",\")")" = conv-1770228001000
'

test_expect 'end takes no operands' '
	snapshot "$S" &&
	fails_with 2 convctl end conv-1770228001000 &&
	stderr_has "unexpected argument" &&
	unchanged "$S"
'

test_expect 'a bad CONVCTL_NOW is an error and changes nothing' '
	CONVCTL_NOW=2026-02-04T18:00:03Z convctl add x >/dev/null &&
	snapshot "$S" &&
	CONVCTL_NOW=soon fails_with 1 convctl end &&
	stderr_has "CONVCTL_NOW is not an ISO 8601 time" &&
	unchanged "$S"
'

test_expect 'end -h prints the usage and options and exits 0' '
	convctl end -h >out &&
	grep -q "^usage: convctl end" out &&
	convctl help end | cmp out -
'

test_expect 'a conversation idle past the timeout ended with its last message' '
	store_rm "$S" &&
	CONVCTL_NOW=2026-02-05T09:00:00Z convctl add "left open" >id &&
	CONVCTL_NOW=2026-02-05T09:00:05Z convctl add --role assistant ok >/dev/null &&
	CONVCTL_NOW=2026-02-05T11:00:00Z convctl end >out 2>err &&
	test_cmp id out && test ! -s err &&
	test "$(q ".conversations[-1].endedAt")" = 2026-02-05T09:00:05.000Z &&
	CONVCTL_NOW=2026-02-05T12:00:00Z convctl add "within the timeout" >/dev/null &&
	CONVCTL_NOW=2026-02-05T12:29:00Z convctl end >/dev/null &&
	test "$(q ".conversations[-1].endedAt")" = 2026-02-05T12:29:00.000Z
'

test_done
