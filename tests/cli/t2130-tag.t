#!/bin/sh
# tag: the conversation's "tags" array; shown by show and recent, filtering
# recent --tag and search --tag
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "milk for the house" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-04T11:00:00Z convctl add "milk for the office" >/dev/null
CONVCTL_NOW=2026-02-04T11:01:00Z convctl end >/dev/null
a=conv-1770199200000 b=conv-1770202800000
# t1 ... t100 and u1 ... u101, made by the shell once (not seq a case)
i=1 t100= u101=
while [ $i -le 101 ]; do
	[ $i -gt 100 ] || t100="$t100 t$i"
	u101="$u101 u$i"
	i=$((i + 1))
done

test_expect 'tag adds tags once, in order, and prints them' '
	convctl tag $a home errands home >out &&
	printf "home\nerrands\n" >want && same_file want out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].tags" "[\"home\",\"errands\"]" &&
	convctl tag --json $b work >out && echo "[\"work\"]" >want && same_file want out
'

test_expect '--remove removes them; --dry-run prints what it would leave' '
	keep_store "$CONVCTL_STORE" &&
	convctl tag -n --remove $a errands >out && echo home >want && same_file want out &&
	store_kept "$CONVCTL_STORE" &&
	convctl tag --remove $a errands nothere >out && same_file want out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].tags" "[\"home\"]"
'

test_expect 'show and recent show the tags' '
	convctl show $a >out && has_line "Tags:     home" out &&
	convctl show -f markdown $a >out && has_line "- **Tags:** home" out &&
	printf "%s\t2026-02-04T11:01:00.000Z\t1\tMilk for the office\t#work\n%s\t2026-02-04T10:01:00.000Z\t1\tMilk for the house\t#home\n" $b $a >want &&
	convctl recent >got && same_file want got &&
	convctl recent --json >out && jq -c "map(.tags)" out >got &&
	echo "[[\"work\"],[\"home\"]]" >want && same_file want got
'

test_expect 'recent --tag and search --tag keep only those tagged' '
	convctl recent --tag home >out && cut_f 1 out >got && echo $a >want && same_file want got &&
	convctl recent --tag none >got && test ! -s got &&
	convctl search --tag work milk >out && cut_f 1 out >got && echo $b >want && same_file want got &&
	convctl search milk >got && lines_are 2 got
'

test_expect 'tags another tool wrote are kept; bad ones change nothing' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl tag $a "" && stderr_has "tag: tag '\'''\'' is empty" &&
	fails_with 1 convctl tag conv-404 x &&
	fails_with 2 convctl tag $a &&
	store_kept "$CONVCTL_STORE" &&
	store_jq "$CONVCTL_STORE" ".conversations[1].tags = \"odd\"" >s2 && seed_text <s2 &&
	fails_with 1 convctl tag $b x && stderr_has "its tags are not an array" &&
	convctl recent -n 1 >out && found= &&
	while IFS= read -r l; do	# a line ends so, as grep "...$" finds it
		case $l in *"Milk for the office") found=1 ;; esac
	done <out &&
	test -n "$found"
'
# issue 40: bounded and linear; one MCP call is bounded alike (t7000-mcp.t)
test_expect '100 tags a call and a conversation are taken; 101 are refused naming the limit' '
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl add "a third" >/dev/null &&
	c=conv-1770206400000 &&
	convctl tag $c $t100 >out && lines_are 100 out &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 2 convctl tag $c $u101 &&
	stderr_has "convctl: tag: 101 tags given; at most 100 are taken" &&
	fails_with 1 convctl tag $c t5 new &&
	stderr_has "convctl: tag: conversation '\''$c'\'' would have 101 tags; at most 100 are kept on one" &&
	store_kept "$CONVCTL_STORE" &&
	convctl tag $c t1 t100 >out && lines_are 100 out &&
	convctl tag --remove $c t1 t1 t50 >out && lines_are 98 out &&
	convctl tag $c new >out && { i=0 got= && while IFS= read -r l; do
		i=$((i + 1)); case $i in 1|49|99) got="$got$l " ;; esac
	done <out; test "$got" = "t2 t51 new "; }
'

test_expect 'a conversation another tool gave more tags keeps them; removing takes each given copy once' '
	store_jq "$CONVCTL_STORE" -c "(.conversations[] | select(.id == \"$a\") | .tags) = ([range(150)] | map(\"x\(.)\")) + [\"x3\", \"x3\"]" >s3 &&
	seed_text <s3 &&
	convctl tag $a x7 >out && lines_are 152 out &&
	fails_with 1 convctl tag $a y && stderr_has "would have 153 tags; at most 100" &&
	convctl tag --json --remove $a x3 x3 x149 >out &&
	jq -e "length == 149 and (map(select(. == \"x3\")) | length) == 1 and .[-1] == \"x3\" and (index(\"x149\") == null)" out >/dev/null
'
test_done
