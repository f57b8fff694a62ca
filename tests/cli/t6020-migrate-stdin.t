#!/bin/sh
# convctl migrate -: one source from standard input
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
export CONVCTL_NOW=2026-06-01T12:00:00Z

test_expect 'migrate - reads standard input, its format told by content' '
	convctl -s s.json migrate - <"$F/chatgpt/conversations.json" >out &&
	has_line "-: chatgpt, 2 conversations, 6 messages" out &&
	jq_is s.json -c ".conversations | length" 2 -r ".imports[0].file" -
'

test_expect 'the same bytes again on standard input: nothing new' '
	snapshot s.json &&
	convctl -s s.json migrate - <"$F/chatgpt/conversations.json" >out &&
	unchanged s.json &&
	holds "nothing new to import from '\''-'\''" out
'

test_expect 'JSON lines on standard input: detected, a session id from the content' '
	convctl -s j.json migrate - <"$F/codex/2025/10/03/rollout-2025-10-03T09-12-44-0199a1c2-7d3e-7f10-9b2a-5e6f70819a2b.jsonl" >out &&
	has_line "-: codex, 1 conversation, 4 messages" out &&
	printf "%s\n" "{\"role\":\"user\",\"content\":\"hi\"}" "{\"role\":\"assistant\",\"content\":\"hello\"}" |
	    convctl -s j.json migrate - >out &&
	# the first 12 hex digits of the SHA-256 of the two lines piped in
	jq_is j.json -r ".conversations[1].id" stdin-cd1fb19471c4
'

test_expect '--format with standard input; a bad one names standard input' '
	echo "[{\"role\": \"user\", \"content\": \"x\"}, 7]" >bad.json &&
	fails_with 1 convctl -s b.json migrate -f messages - <bad.json &&
	stderr_has "'\''-'\'': [1]: expected a message object or a string" &&
	test ! -e b.json
'

test_expect 'an empty standard input (or file) imports nothing, says so, is not recorded' '
	: | convctl -s e.json migrate - >out 2>err &&
	has_line "-: empty; not recorded" out &&
	holds "'\''-'\'': empty" err &&
	test ! -e e.json &&
	: >empty.jsonl && convctl -s e.json migrate empty.jsonl >out &&
	has_line "empty.jsonl: empty; not recorded" out && test ! -e e.json
'

test_done
