#!/bin/sh
# edit: one message of any conversation replaced or removed, by id or position
# check: valgrind
. "$(dirname "$0")/../lib.sh"

contents() {	# contents ID: each message's content, one a line
	store_jq "$CONVCTL_STORE" -r --arg id "$1" ".conversations[] | select(.id == \$id) | .messages[].content"
}
field() {
	store_jq "$CONVCTL_STORE" -r --arg id "$1" ".conversations[] | select(.id == \$id) | .$2"
}

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "one" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:01Z convctl add -r assistant "two" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:02Z convctl add "three" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
a=conv-1770199200000

test_expect 'edit ID -1 TEXT replaces the newest message, as written' '
	convctl edit $a -1 "THREE" >out && test ! -s out &&
	printf "one\ntwo\nTHREE\n" >want && contents $a >got && test_cmp want got
'

test_expect 'a position from the start, an id, options after the operands' '
	convctl edit $a 1 ONE --dry-run && contents $a | head -n 1 | grep -qx one &&
	convctl edit $a 1 ONE && contents $a | head -n 1 | grep -qx ONE &&
	mid=$(store_jq "$CONVCTL_STORE" -r ".conversations[0].messages[1].id") &&
	convctl edit $a "$mid" TWO && contents $a | sed -n 2p | grep -qx TWO &&
	convctl edit $a -2 "Two, again" && contents $a | sed -n 2p | grep -qx "Two, again"
'

test_expect 'without TEXT the content is standard input; its id and time stay' '
	before=$(store_jq "$CONVCTL_STORE" -c ".conversations[0].messages[0] | del(.content)") &&
	printf "first\nline two\n" | convctl edit $a 1 &&
	printf "first\nline two\n" >want &&
	store_jq "$CONVCTL_STORE" -r ".conversations[0].messages[0].content" >got && test_cmp want got &&
	test "$(store_jq "$CONVCTL_STORE" -c ".conversations[0].messages[0] | del(.content)")" = "$before"
'

test_expect 'the summary is marked stale' '
	test "$(field $a summaryStale)" = true &&
	convctl summarize --pending | cut -f 1 | grep -qx $a &&
	test "$(field $a summaryStale)" = null
'

test_expect '--delete removes one message' '
	convctl edit --delete $a -1 &&
	printf "first\nline two\nTwo, again\n" >want && contents $a >got && test_cmp want got &&
	convctl show $a | grep -qx "Messages: 2" &&
	test "$(field $a summaryStale)" = true
'

test_expect 'a message that is not there, or TEXT with --delete, changes nothing' '
	snapshot "$CONVCTL_STORE" &&
	for p in 3 -3 0 -0 99999999999999999999999; do
		fails_with 1 convctl edit $a $p x &&
		echo "convctl: edit: no message at position $p in conversation '\''$a'\'': it has 2, 1 to 2 or -1 to -2" >want &&
		test_cmp want err || return 1
	done &&
	for p in +1 m-nope 1.0 " 1" -; do
		fails_with 1 convctl edit $a "$p" x &&
		echo "convctl: edit: no message '\''$p'\'' in conversation '\''$a'\'': no message has that id, and a position is 1 the first, -1 the newest" >want &&
		test_cmp want err || return 1
	done &&
	fails_with 1 convctl fork $a --at +1 &&
	stderr_has "fork: no message '\''+1'\'' in conversation '\''$a'\'': no message has that id" &&
	fails_with 1 convctl fork $a --at 0 &&
	stderr_has "fork: no message at position 0 in conversation '\''$a'\'': it has 2, 1 to 2 or -1 to -2" &&
	fails_with 1 convctl edit conv-404 1 x &&
	fails_with 2 convctl edit --delete $a 1 x &&
	stderr_has "edit: --delete takes no TEXT" &&
	fails_with 1 convctl edit $a 1 "" && stderr_has "empty message" &&
	unchanged "$CONVCTL_STORE"
'

test_expect 'the active conversation can be edited too' '
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl add "typo" >/dev/null &&
	convctl edit "$(convctl show --json | jq -r .id)" -1 "fixed" &&
	convctl prompt | tail -n 1 | grep -qx "User: fixed"
'
test_done
