#!/bin/sh
# edit: one message of any conversation replaced or removed, by id or position
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

contents() {	# contents ID: each message's content, one a line
	store_jq "$CONVCTL_STORE" -r --arg id "$1" ".conversations[] | select(.id == \$id) | .messages[].content"
}

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "one" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:01Z convctl add -r assistant "two" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:02Z convctl add "three" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
a=conv-1770199200000
A=".conversations[] | select(.id == \"$a\")"	# the conversation, for store_is

test_expect 'edit ID -1 TEXT replaces the newest message, as written' '
	convctl edit $a -1 "THREE" >out && test ! -s out &&
	printf "one\ntwo\nTHREE\n" >want && contents $a >got && same_file want got
'

test_expect 'a position from the start, an id, options after the operands' '
	convctl edit $a 1 ONE --dry-run && contents $a >got && line_is 1 one got &&
	# one jq: the second message'\''s id, then the contents
	convctl edit $a 1 ONE && store_jq "$CONVCTL_STORE" -r \
	    "$A | .messages[1].id, .messages[].content" >got &&
	read -r mid <got && line_is 2 ONE got &&
	convctl edit $a "$mid" TWO && contents $a >got && line_is 2 TWO got &&
	convctl edit $a -2 "Two, again" && contents $a >got && line_is 2 "Two, again" got
'

test_expect 'without TEXT the content is standard input; its id and time stay' '
	store_jq "$CONVCTL_STORE" -c ".conversations[0].messages[0] | del(.content)" >before &&
	read -r before <before &&
	printf "first\nline two\n" >in && convctl edit $a 1 <in &&
	# as JSON: the text exactly, its last newline dropped
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages[0].content" "\"first\\nline two\"" \
	    -c ".conversations[0].messages[0] | del(.content)" "$before"
'

test_expect 'the summary is marked stale' '
	store_is "$CONVCTL_STORE" -r "$A | .summaryStale" true &&
	convctl summarize --pending >out && cut_f 1 out >ids && has_line $a ids &&
	store_is "$CONVCTL_STORE" -r "$A | .summaryStale" null
'

test_expect '--delete removes one message' '
	convctl edit --delete $a -1 &&
	store_is "$CONVCTL_STORE" -r "$A | .messages[].content" "first
line two
Two, again" -r "$A | .summaryStale" true &&
	convctl show $a >out && has_line "Messages: 2" out
'

test_expect 'a message that is not there, or TEXT with --delete, changes nothing' '
	keep_store "$CONVCTL_STORE" &&
	for p in 3 -3 0 -0 99999999999999999999999; do
		fails_with 1 convctl edit $a $p x &&
		echo "convctl: edit: no message at position $p in conversation '\''$a'\'': it has 2, 1 to 2 or -1 to -2" >want &&
		same_file want err || return 1
	done &&
	for p in +1 m-nope 1.0 " 1" -; do
		fails_with 1 convctl edit $a "$p" x &&
		echo "convctl: edit: no message '\''$p'\'' in conversation '\''$a'\'': no message has that id, and a position is 1 the first, -1 the newest" >want &&
		same_file want err || return 1
	done &&
	fails_with 1 convctl fork $a --at +1 &&
	stderr_has "fork: no message '\''+1'\'' in conversation '\''$a'\'': no message has that id" &&
	fails_with 1 convctl fork $a --at 0 &&
	stderr_has "fork: no message at position 0 in conversation '\''$a'\'': it has 2, 1 to 2 or -1 to -2" &&
	fails_with 1 convctl edit conv-404 1 x &&
	fails_with 2 convctl edit --delete $a 1 x &&
	stderr_has "edit: --delete takes no TEXT" &&
	fails_with 1 convctl edit $a 1 "" && stderr_has "empty message" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'the active conversation can be edited too' '
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl add "typo" >/dev/null &&
	convctl show --json >j && jq -r .id j >id && read -r id <id &&
	convctl edit "$id" -1 "fixed" &&
	convctl prompt >p && line_is -1 "User: fixed" p
'
test_done
