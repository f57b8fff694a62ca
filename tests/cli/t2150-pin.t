#!/bin/sh
# pin: never removed by the rolling limit or prune, only by delete; the
# limit counts only the unpinned
# check: valgrind
. "$(dirname "$0")/../lib.sh"

# ids: the ids recent lists, sorted, each followed by a space (one jq sorts
# and joins them: no sort and tr)
ids() { convctl recent --json -n 100 | jq -j "[.[].id] | sort | map(. + \" \") | add // \"\""; }

for h in 10 11 12 13; do
	CONVCTL_NOW=2026-02-04T$h:00:00Z convctl add "at $h" >/dev/null
	CONVCTL_NOW=2026-02-04T$h:01:00Z convctl end >/dev/null
done
a=conv-1770199200000 b=conv-1770202800000 c=conv-1770206400000 d=conv-1770210000000

test_expect 'pin marks it; recent shows the mark; --dry-run changes nothing' '
	snapshot "$CONVCTL_STORE" &&
	convctl pin -n $a && unchanged "$CONVCTL_STORE" &&
	convctl pin $a >out && test ! -s out &&
	test "$(store_jq "$CONVCTL_STORE" ".conversations[0].pinned")" = true &&
	convctl recent | grep "^$a" | cut -f 5 | grep -qx pinned &&
	convctl recent --json | jq -e ".[-1].pinned == true and .[0].pinned == false" >/dev/null &&
	convctl show $a | grep -qx "Pinned:   yes"
'

test_expect 'prune passes over the pinned, and counts only the unpinned' '
	convctl prune --max 1 --json >out &&
	jq -c . out >got && echo "[\"$b\",\"$c\"]" >want && test_cmp want got &&
	test "$(ids)" = "$a $d " &&
	convctl prune --older-than 0 >/dev/null && test "$(ids)" = "$a "
'

test_expect 'the rolling limit of every write keeps the pinned beyond it' '
	CONVCTL_NOW=2026-02-04T14:00:00Z convctl add x >/dev/null &&
	CONVCTL_NOW=2026-02-04T14:01:00Z convctl --max-conversations 1 end >/dev/null 2>err &&
	test "$(ids)" = "$a conv-1770213600000 " &&
	CONVCTL_NOW=2026-02-04T15:00:00Z convctl add y >/dev/null &&
	CONVCTL_NOW=2026-02-04T15:01:00Z convctl --max-conversations 1 end >/dev/null 2>err &&
	holds "removed 1 oldest ended conversation" err &&
	test "$(ids)" = "$a conv-1770217200000 "
'

test_expect '--remove unpins; then the limit may take it; delete takes it anyway' '
	convctl pin --remove $a && convctl recent | grep "^$a" | grep -qv pinned &&
	convctl pin $a && convctl delete $a >/dev/null && test "$(ids)" = "conv-1770217200000 " &&
	fails_with 1 convctl pin conv-404 && stderr_has "pin: no conversation"
'
test_done
