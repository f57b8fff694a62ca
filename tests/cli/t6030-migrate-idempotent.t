#!/bin/sh
# convctl migrate: "imported before" decided by content, not by the file's bytes
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
S=2b7c9e10-4f3a-4d6e-9a51-7c0ffee0b0b1
export CONVCTL_NOW=2026-06-01T12:00:00Z
# data.json after a settings change, then with one conversation more too, by
# one jq, a line each
jq -c ".model = \"another-model\" | ., (.conversationData.conversations += [.conversationData.conversations[0] | .id = \"conv-1769100000000\" | .messages[0].id = \"m-new\"])" \
    "$F/data.json" >data.all &&
{ IFS= read -r data_model && IFS= read -r data_new; } <data.all || exit 1

test_expect 'SmartHole data.json after a settings change: nothing imported, nothing fails' '
	copy_text "$F/data.json" data.json &&
	convctl -s d.json migrate data.json >/dev/null &&
	jq_is d.json -c ".conversations | length" 3 &&
	printf "%s\n" "$data_model" >data.json &&
	snapshot d.json &&
	CONVCTL_NOW=2026-06-02T12:00:00Z convctl -s d.json migrate data.json >out &&
	unchanged d.json &&
	holds "data.json: smarthole, imported before (2026-06-01T12:00:00.000Z); skipped" out &&
	holds "nothing new to import" out
'

test_expect 'the ledger holds the hash of each conversation'\''s messages' '
	# the SHA-256 of its messages as jq -c prints them
	# (".conversations[0].messages"), no newline
	jq_is d.json -r ".imports[0].hashes[0]" 20fb33aea76e4667390e85fed44168ddb131278c9a0fe343b6c4e24b936fffea \
	    -c ".imports[0].hashes | length" 3
'

test_expect 'a data.json with one new conversation: only that one imported' '
	printf "%s\n" "$data_new" >data.json &&
	convctl -s d.json migrate data.json >out &&
	holds "  conv-1769100000000: " out &&
	holds "  3 conversations imported before; left out" out &&
	has_line "imported 1 conversation (2 messages) from 1 source" out &&
	jq_is d.json -c ".conversations | length" 4
'

test_expect 'a Claude Code session grown since: only its new messages are added' '
	copy_text "$F/claude/-home-aiko-src-kiln/$S.jsonl" $S.jsonl &&
	convctl -s c.json migrate $S.jsonl >/dev/null &&
	printf "%s\n" "{\"type\":\"user\",\"sessionId\":\"$S\",\"uuid\":\"u-9\",\"timestamp\":\"2025-09-15T07:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"It overshoots again.\"}}" \
	    "{\"type\":\"assistant\",\"sessionId\":\"$S\",\"uuid\":\"u-10\",\"timestamp\":\"2025-09-15T07:00:03.000Z\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Lower ki.\"}]}}" >>$S.jsonl &&
	convctl -s c.json migrate $S.jsonl >out &&
	holds "  $S: 2 new messages, added (imported before, grown since)" out &&
	has_line "imported 0 conversations (0 messages) from 1 source, and 2 new messages to 1 conversation imported before" out &&
	jq_is c.json -c ".conversations | length" 1 \
	    -c "[.conversations[0].messages[-2:][].id]" "[\"u-9\",\"u-10\"]" \
	    -r ".conversations[0].endedAt" 2025-09-15T07:00:03.000Z &&
	snapshot c.json &&
	convctl -s c.json migrate $S.jsonl >out &&
	unchanged c.json
'

test_expect 'a summary added since is kept when the session grows again' '
	jq ".conversations[0].summary = \"PID work.\"" c.json >c2 && copy_text c2 c.json &&
	echo "{\"type\":\"user\",\"sessionId\":\"$S\",\"uuid\":\"u-11\",\"timestamp\":\"2025-09-16T07:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"Fixed.\"}}" >>$S.jsonl &&
	convctl -s c.json migrate --json $S.jsonl >out.json &&
	jq_is out.json -c ".sources[0].grown" "[{\"id\":\"$S\",\"messages\":1,\"replaced\":[],\"kept\":0}]" \
	    -c "[.conversations, .messages, .grownMessages]" "[0,0,1]" &&
	jq_is c.json -r ".conversations[0].summary" "PID work." \
	    -c ".conversations[0].messages | length" 9
'

test_done
