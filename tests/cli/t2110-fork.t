#!/bin/sh
# fork: a conversation copied, up to a message, into a new active one
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

conv() {	# conv ID: the stored conversation, compact
	store_jq "$CONVCTL_STORE" -c --arg id "$1" ".conversations[] | select(.id == \$id)"
}
sel() {		# sel ID: a jq filter for conversation ID, for store_is
	sel=".conversations[] | select(.id == \"$1\")"
}

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "one" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:01Z convctl add -r assistant --tool grep "two" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:02Z convctl add "three" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-04T11:00:00Z convctl add "busy" >/dev/null
a=conv-1770199200000 b=conv-1770202800000

test_expect 'a bad message, an unknown id or --dry-run change nothing' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl fork $a --at 4 &&
	stderr_has "convctl: fork: no message at position 4 in conversation" &&
	fails_with 1 convctl fork conv-404 &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl fork -n $a >out &&
	file_is conv-1770206400000 out &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'fork --at 2: a new active conversation of copies, new ids' '
	conv $a >orig && read -r orig <orig &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl fork $a --at 2 --json >out &&
	jq -e ".id == \"conv-1770206400000\" and .ended == \"$b\" and .forkedFrom == \"$a\"" out >/dev/null &&
	f=conv-1770206400000 &&
	# one jq: the forked one unchanged, the fork, no message id twice (as
	# sort | uniq -d would find one)
	sel $a && A=$sel && sel $f &&
	store_is "$CONVCTL_STORE" -c "$A" "$orig" \
	    -r "$sel | .endedAt == null and .forkedFrom == \"'$a'\" and
	    .startedAt == \"2026-02-04T12:00:00.000Z\" and
	    (.messages | map(.content) == [\"one\", \"two\"]) and
	    .messages[1].toolsUsed == [\"grep\"]" true \
	    -r "[.conversations[].messages[].id] | length == (unique | length)" true
'

test_expect 'the one active before was ended and summarized' '
	sel $b &&
	store_is "$CONVCTL_STORE" -r "$sel | .endedAt == \"2026-02-04T11:00:00.000Z\" and .summary != null" true
'

test_expect 'the next add joins the fork; the idle timeout counts from its start' '
	CONVCTL_NOW=2026-02-04T12:05:00Z convctl add "three, differently" >out &&
	file_is conv-1770206400000 out &&
	convctl prompt --format jsonl >p && jq -r .content p >got &&
	printf "one\ntwo\nthree, differently\n" >want && same_file want got
'

test_expect 'fork of the active one, whole, by default; --at takes an id' '
	CONVCTL_NOW=2026-02-04T13:00:00Z convctl fork conv-1770206400000 >out &&
	read -r g <out && lines_are 1 out && test "$g" = conv-1770210000000 &&
	# one jq: the new one'\''s length, the first message'\''s id
	sel $g && G=$sel && sel $a &&
	store_jq "$CONVCTL_STORE" -r "($G | .messages | length), ($sel | .messages[0].id)" >got &&
	{ read -r n && read -r mid; } <got && test "$n" = 3 &&
	CONVCTL_NOW=2026-02-04T13:01:00Z convctl fork --no-summary $a --at "$mid" >out &&
	read -r h <out && lines_are 1 out && sel "$h" &&
	store_is "$CONVCTL_STORE" -c "$sel | [.messages[].content]" "[\"one\"]" \
	    -r "$G | .summary" null
'
test_expect 'fork summarizes the pending ones too, as end does' '
	use_store pending &&
	CONVCTL_NOW=2026-02-05T10:00:00Z convctl add "Left pending" >/dev/null &&
	CONVCTL_NOW=2026-02-05T10:01:00Z convctl end --no-summary >/dev/null &&
	CONVCTL_NOW=2026-02-05T11:00:00Z convctl add "Active one" >/dev/null &&
	CONVCTL_NOW=2026-02-05T12:00:00Z convctl fork conv-1770285600000 >out 2>err &&
	file_is conv-1770292800000 out && test ! -s err &&
	# the ended ones'\'' summaries'\'' lines holding each text, as grep -c
	# counts them in jq -r'\''s lines
	S=".conversations[] | select(.endedAt != null) | .summary | tostring | split(\"\\n\")[]" &&
	store_is "$CONVCTL_STORE" -r "[$S | select(contains(\"Left pending\"))] | length" 1 \
	    -r "[$S | select(contains(\"Active one\"))] | length" 1
'
test_done
