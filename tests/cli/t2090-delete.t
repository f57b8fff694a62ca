#!/bin/sh
# delete: conversations removed for good
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add 'secret plan alpha' >/dev/null
CONVCTL_NOW=2026-02-04T12:00:00Z convctl add 'public note beta' >/dev/null
CONVCTL_NOW=2026-02-04T14:00:00Z convctl add 'active gamma' >/dev/null
a=conv-1770199200000 b=conv-1770206400000 c=conv-1770213600000

# store_text: $st names a file of the store's JSON, for holds and lacks:
# a file store itself (no cat), else store_json's output
store_text() {
	if is_db "$CONVCTL_STORE"; then
		store_json "$CONVCTL_STORE" >"$T/store.text" && st=$T/store.text
	else
		st=$CONVCTL_STORE
	fi
}

test_expect '--dry-run names them and leaves the store as it is' '
	keep_store "$CONVCTL_STORE" &&
	convctl delete --dry-run $a $b >out &&
	printf "%s\n" $a $b >want && same_file want out &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'an unknown id fails and deletes nothing' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl delete $a conv-nope &&
	stderr_has "no conversation '\''conv-nope'\''" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'the active one is refused without --force, and nothing goes' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl delete $a $c &&
	stderr_has "'\''$c'\'' is active; --force" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'delete leaves nothing of the conversation in the store file' '
	convctl delete $a >out && file_is $a out &&
	store_text && lacks "$a" "$st" && lacks "secret plan alpha" "$st" &&
	holds "public note beta" "$st" &&
	convctl recent --json >out && jq -e "map(.id) == [\"$b\"]" out >/dev/null
'

test_expect '--force deletes the active one; options may follow the ids' '
	convctl delete $c --force --json >out &&
	jq -e ". == [\"$c\"]" out >/dev/null &&
	store_text && lacks "active gamma" "$st" &&
	convctl prompt >out && test ! -s out
'

test_expect 'a repeated id is deleted once' '
	convctl delete $b $b >out && file_is $b out &&
	store_is "$CONVCTL_STORE" -r ".conversations | length" 0
'

test_expect 'no id is a usage error' '
	fails_with 2 convctl delete && stderr_has "too few arguments"
'
test_done
