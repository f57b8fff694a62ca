#!/bin/sh
# title: a title set by hand, which summaries keep unless summarize --force
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Add milk to my list" >/dev/null
CONVCTL_NOW=2026-02-04T10:00:01Z convctl add -r assistant "Added milk." >/dev/null
a=conv-1770199200000

test_expect 'title sets the title of the active conversation, marked as by hand' '
	convctl title $a "Groceries" >out && test ! -s out &&
	conv_is $a title Groceries titleByHand true &&
	convctl show $a >out && has_line "Title:    Groceries" out
'

test_expect 'end summarizes it but keeps the title set by hand' '
	CONVCTL_NOW=2026-02-04T10:05:00Z convctl end >/dev/null &&
	conv_is $a title Groceries "summary != null" true &&
	convctl recent >out && cut_f 4 out >titles && has_line Groceries titles
'

test_expect 'summarize --pending redoes a stale summary, keeping the title' '
	convctl summarize --all >/dev/null &&
	conv_is $a title Groceries &&
	convctl edit $a 1 "Add oat milk to my list" &&
	conv_is $a summaryStale true &&
	convctl summarize --pending >out &&
	printf "%s\tGroceries\n" $a >want && same_file want out &&
	conv_is $a "summary | contains(\"Add oat milk\")" true title Groceries summaryStale null
'

test_expect 'summarize --force replaces a title set by hand, and its mark' '
	convctl summarize --force $a >/dev/null &&
	conv_is $a title "Add oat milk to my list" titleByHand null
'

test_expect 'an ended conversation can be retitled; --dry-run changes nothing' '
	keep_store "$CONVCTL_STORE" &&
	convctl title --dry-run $a "Milk" && store_kept "$CONVCTL_STORE" &&
	convctl title $a "Milk" && conv_is $a title Milk &&
	convctl recent --json >out && jq -e ".[0].title == \"Milk\"" out >/dev/null
'

test_expect 'an unknown id, an empty or a missing title fail and change nothing' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl title conv-404 "x" &&
	stderr_has "convctl: title: no conversation '\''conv-404'\''" &&
	fails_with 1 convctl title $a "" && stderr_has "title: empty title" &&
	fails_with 2 convctl title $a &&
	store_kept "$CONVCTL_STORE"
'
test_done
