#!/bin/sh
# tag: the conversation's "tags" array; shown by show and recent, filtering
# recent --tag and search --tag
# check: valgrind
. "$(dirname "$0")/../lib.sh"

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "milk for the house" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-04T11:00:00Z convctl add "milk for the office" >/dev/null
CONVCTL_NOW=2026-02-04T11:01:00Z convctl end >/dev/null
a=conv-1770199200000 b=conv-1770202800000

test_expect 'tag adds tags once, in order, and prints them' '
	convctl tag $a home errands home >out &&
	printf "home\nerrands\n" >want && test_cmp want out &&
	store_json "$CONVCTL_STORE" | jq -c ".conversations[0].tags" >got &&
	echo "[\"home\",\"errands\"]" >want && test_cmp want got &&
	convctl tag --json $b work >out && echo "[\"work\"]" >want && test_cmp want out
'

test_expect '--remove removes them; --dry-run prints what it would leave' '
	snapshot "$CONVCTL_STORE" &&
	convctl tag -n --remove $a errands >out && echo home >want && test_cmp want out &&
	unchanged "$CONVCTL_STORE" &&
	convctl tag --remove $a errands nothere >out && test_cmp want out &&
	test "$(store_json "$CONVCTL_STORE" | jq -c ".conversations[0].tags")" = "[\"home\"]"
'

test_expect 'show and recent show the tags' '
	convctl show $a | grep -qx "Tags:     home" &&
	convctl show -f markdown $a | grep -qx -- "- \*\*Tags:\*\* home" &&
	printf "%s\t2026-02-04T11:01:00.000Z\t1\tMilk for the office\t#work\n%s\t2026-02-04T10:01:00.000Z\t1\tMilk for the house\t#home\n" $b $a >want &&
	convctl recent >got && test_cmp want got &&
	convctl recent --json | jq -c "map(.tags)" >got &&
	echo "[[\"work\"],[\"home\"]]" >want && test_cmp want got
'

test_expect 'recent --tag and search --tag keep only those tagged' '
	convctl recent --tag home | cut -f 1 >got && echo $a >want && test_cmp want got &&
	convctl recent --tag none >got && test ! -s got &&
	convctl search --tag work milk | cut -f 1 >got && echo $b >want && test_cmp want got &&
	convctl search milk | wc -l | grep -qx 2
'

test_expect 'tags another tool wrote are kept; bad ones change nothing' '
	snapshot "$CONVCTL_STORE" &&
	fails_with 1 convctl tag $a "" && stderr_has "tag: tag '\'''\'' is empty" &&
	fails_with 1 convctl tag conv-404 x &&
	fails_with 2 convctl tag $a &&
	unchanged "$CONVCTL_STORE" &&
	store_json "$CONVCTL_STORE" | jq ".conversations[1].tags = \"odd\"" >s2 && store_seed <s2 &&
	fails_with 1 convctl tag $b x && stderr_has "its tags are not an array" &&
	convctl recent -n 1 >out && grep -q "Milk for the office$" out
'
test_done
