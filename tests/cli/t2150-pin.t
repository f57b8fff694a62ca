#!/bin/sh
# pin: never removed by the rolling limit or prune, only by delete; the
# limit counts only the unpinned
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

# ids_are WANT: the ids recent lists, sorted, each followed by a space, are
# WANT (one jq sorts and joins them: no sort and tr; no pipe)
ids_are() {
	convctl recent --json -n 100 >"$T/ids.json" && test -s "$T/ids.json" &&
	jq_is "$T/ids.json" -r "[.[].id] | sort | map(. + \" \") | add // \"\"" "$1"
}
# lines_of ID FILE: the lines of FILE that begin with ID (grep "^ID"), in
# $T/lines, by the shell
lines_of() {
	while IFS= read -r l; do
		case $l in "$1"*) printf "%s\n" "$l" ;; esac
	done <"$2" >"$T/lines"
}

for h in 10 11 12 13; do
	CONVCTL_NOW=2026-02-04T$h:00:00Z convctl add "at $h" >/dev/null
	CONVCTL_NOW=2026-02-04T$h:01:00Z convctl end >/dev/null
done
a=conv-1770199200000 b=conv-1770202800000 c=conv-1770206400000 d=conv-1770210000000

test_expect 'pin marks it; recent shows the mark; --dry-run changes nothing' '
	keep_store "$CONVCTL_STORE" &&
	convctl pin -n $a && store_kept "$CONVCTL_STORE" &&
	convctl pin $a >out && test ! -s out &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].pinned" true &&
	convctl recent >out && lines_of $a out && cut_f 5 "$T/lines" >got && has_line pinned got &&
	convctl recent --json >out && jq -e ".[-1].pinned == true and .[0].pinned == false" out >/dev/null &&
	convctl show $a >out && has_line "Pinned:   yes" out
'

test_expect 'prune passes over the pinned, and counts only the unpinned' '
	convctl prune --max 1 --json >out &&
	jq -c . out >got && echo "[\"$b\",\"$c\"]" >want && same_file want got &&
	ids_are "$a $d " &&
	convctl prune --older-than 0 >/dev/null && ids_are "$a "
'

test_expect 'the rolling limit of every write keeps the pinned beyond it' '
	CONVCTL_NOW=2026-02-04T14:00:00Z convctl add x >/dev/null &&
	CONVCTL_NOW=2026-02-04T14:01:00Z convctl --max-conversations 1 end >/dev/null 2>err &&
	ids_are "$a conv-1770213600000 " &&
	CONVCTL_NOW=2026-02-04T15:00:00Z convctl add y >/dev/null &&
	CONVCTL_NOW=2026-02-04T15:01:00Z convctl --max-conversations 1 end >/dev/null 2>err &&
	holds "removed 1 oldest ended conversation" err &&
	ids_are "$a conv-1770217200000 "
'

test_expect '--remove unpins; then the limit may take it; delete takes it anyway' '
	convctl pin --remove $a && convctl recent >out && lines_of $a out &&
	# a line of them without "pinned" (grep -v)
	found= && while IFS= read -r l; do
		case $l in *pinned*) ;; *) found=1 ;; esac
	done <"$T/lines" &&
	test -n "$found" &&
	convctl pin $a && convctl delete $a >/dev/null && ids_are "conv-1770217200000 " &&
	fails_with 1 convctl pin conv-404 && stderr_has "pin: no conversation"
'
test_done
