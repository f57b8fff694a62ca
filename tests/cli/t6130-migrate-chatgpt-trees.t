#!/bin/sh
# convctl migrate: ChatGPT trees that are not a plain path (a cycle, a root
# cut off, an answer regenerated between two exports) and ids a source gives
# twice (tests/fixtures/migrate/chatgpt-trees/)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate/chatgpt-trees
export CONVCTL_NOW=2026-06-01T12:00:00Z

# msgs ID: $msgs, the jq filter of conversation ID's messages, [id, content]
# each, for store_is (the shell sets it: no process)
msgs() {
	msgs=".conversations[] | select(.id == \"$1\") | [.messages[] | [.id, .content]]"
}

test_expect 'a children cycle without current_node: an error naming the node, nothing imported' '
	fails_with 1 convctl migrate "$F/cycle.json" &&
	stderr_has "'\''$F/cycle.json'\'': [0].mapping.b.children: a cycle at '\''a'\''" &&
	! store_exists
'

test_expect '--skip-bad leaves the cycle out and imports the rest' '
	convctl migrate --skip-bad "$F/cycle.json" >out 2>err &&
	holds "skipped (--skip-bad): '\''$F/cycle.json'\'': [0].mapping.b.children: a cycle" err &&
	store_is "$CONVCTL_STORE" -c "[.conversations[].id]" "[\"c-fine\"]"
'

test_expect 'a root whose parent is missing, no current_node: its messages imported, said so' '
	use_store orphan &&
	convctl migrate "$F/orphan.json" >out 2>err &&
	holds "[0].mapping.q: its parent '\''client-created-root'\'' is not in the mapping; taken as the root" err &&
	msgs c-orphan &&
	store_is "$CONVCTL_STORE" -c "$msgs" "[[\"q\",\"Where is the root?\"],[\"r\",\"Not in this export.\"]]"
'

test_expect 'the same tree with current_node: the same messages' '
	use_store orphan2 &&
	jq ".[0].current_node = \"r\"" "$F/orphan.json" >o2.json &&
	convctl migrate o2.json >out 2>err &&
	holds "taken as the root" err &&
	msgs c-orphan &&
	store_is "$CONVCTL_STORE" -c "$msgs" "[[\"q\",\"Where is the root?\"],[\"r\",\"Not in this export.\"]]"
'

test_expect 'two roots, no current_node: the branch of each imported, the earliest first, said so' '
	use_store roots &&
	convctl migrate "$F/two-roots.json" >out 2>err &&
	has_line "convctl: migrate: '\''$F/two-roots.json'\'': [0].mapping: no current_node and 2 roots ('\''a1'\'', '\''b1'\''): the branch of each imported, one after another, the earliest first" err &&
	holds "1 conversation, 4 messages" out &&
	msgs c-two-roots &&
	store_is "$CONVCTL_STORE" -c "$msgs" "[[\"a1\",\"When does the train leave?\"],[\"a2\",\"Friday at 07:40.\"],[\"b1\",\"And the return?\"],[\"b2\",\"Sunday at 18:05.\"]]"
'

test_expect 'a root and a node whose parent is missing: both branches, the missing parent said' '
	use_store roots2 &&
	jq ".[0].mapping.a1.parent = \"gone\"" "$F/two-roots.json" >r2.json &&
	convctl migrate r2.json >out 2>err &&
	holds "[0].mapping.a1: its parent '\''gone'\'' is not in the mapping; taken as the root" err &&
	holds "no current_node and 2 roots ('\''a1'\'', '\''b1'\'')" err &&
	msgs c-two-roots &&
	store_is "$CONVCTL_STORE" -c "$msgs | map(.[0])" "[\"a1\",\"a2\",\"b1\",\"b2\"]"
'

test_expect 'an answer regenerated since the last import: the current branch, never a mix' '
	use_store regen &&
	convctl migrate "$F/regenerated-before.json" >/dev/null &&
	convctl migrate "$F/regenerated-after.json" >out 2>err &&
	holds "conversation '\''c-regen'\'': 1 message from the source replaced by its current branch: '\''a-old'\''" err &&
	msgs c-regen &&
	store_jq "$CONVCTL_STORE" -c "$msgs" >got &&
	IFS= read -r got <got &&
	use_store fresh &&
	convctl migrate "$F/regenerated-after.json" >/dev/null &&
	store_is "$CONVCTL_STORE" -c "$msgs" "$got" -r "$msgs | .[1][0]" a-new
'

test_expect 'the same export again, or an older one (renamed since: its old name too): nothing changes' '
	use_store regen &&
	snapshot "$CONVCTL_STORE" &&
	convctl migrate "$F/regenerated-after.json" >/dev/null &&
	jq -c ".,
	    (.[0].current_node = \"q1\" | .[0].mapping.q1.children = [] | .[0].title = \"Lisbon\")" \
	    "$F/regenerated-after.json" >both &&
	{ IFS= read -r same && IFS= read -r older; } <both &&
	printf "%s\n" "$same" >same.json && printf "%s\n" "$older" >older.json &&
	convctl migrate same.json >/dev/null &&
	unchanged "$CONVCTL_STORE" &&
	convctl migrate older.json >out 2>err &&
	unchanged "$CONVCTL_STORE"
'

test_expect 'an id given twice: the later one made unique, said so' '
	use_store dup &&
	convctl migrate "$F/duplicate-ids.json" >out 2>err &&
	holds "conversation '\''c-dup'\'': message id '\''msg'\'' is there more than once; message 2 is '\''msg-3'\''" err &&
	msgs c-dup &&
	store_is "$CONVCTL_STORE" -c "$msgs" "[[\"msg\",\"First\"],[\"msg-3\",\"Second\"],[\"msg-2\",\"Third\"]]"
'

test_expect 'edit ID of the later one edits it, not the first' '
	use_store dup &&
	convctl edit c-dup msg-3 "Second, edited" &&
	msgs c-dup &&
	store_is "$CONVCTL_STORE" -c "$msgs" "[[\"msg\",\"First\"],[\"msg-3\",\"Second, edited\"],[\"msg-2\",\"Third\"]]"
'

test_expect 'a store that holds an id twice: edit by that id is refused, the position works' '
	use_store old &&
	store_seed <<-\END &&
	{"version":1,"conversations":[{"id":"c","startedAt":"2026-05-01T10:00:00.000Z","endedAt":"2026-05-01T10:00:01.000Z","messages":[{"id":"x","role":"user","content":"one","timestamp":"2026-05-01T10:00:00.000Z"},{"id":"x","role":"assistant","content":"two","timestamp":"2026-05-01T10:00:01.000Z"}]}]}
	END
	snapshot "$CONVCTL_STORE" &&
	fails_with 1 convctl edit c x "changed" &&
	stderr_has "message id '\''x'\'' names 2 messages in conversation '\''c'\''; give the position instead" &&
	unchanged "$CONVCTL_STORE" &&
	convctl edit c 2 "changed" &&
	msgs c &&
	store_is "$CONVCTL_STORE" -c "$msgs" "[[\"x\",\"one\"],[\"x\",\"changed\"]]"
'

test_done
