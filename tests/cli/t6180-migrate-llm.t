#!/bin/sh
# convctl migrate: simonw/llm's `llm logs --json`
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
export CONVCTL_NOW=2026-06-01T12:00:00Z

test_expect 'records grouped by conversation_id, titled by conversation_name' '
	convctl -s l.json migrate "$F/llm/logs.json" >out &&
	has_line "$F/llm/logs.json: llm, 2 conversations, 9 messages" out &&
	jq_is l.json -c "[.conversations[] | [.id, .title, .startedAt, .endedAt]]" "[[\"01k5ab0001cccccccccccccccc\",\"How long to dry 5 kg of clay\",\"2025-09-20T07:14:09.500Z\",\"2025-09-20T07:15:42.618Z\"],[\"01k5ac0000dddddddddddddddd\",\"What time is it in Kyōto?\",\"2025-09-21T22:03:00.000Z\",\"2025-09-21T22:03:01.250Z\"]]"
'

test_expect 'in time order (naive and +00:00 both UTC); the system prompt once' '
	jq_is l.json -c "[.conversations[0].messages[] | [.id, .role, .timestamp]]" "[[\"01k5ab0002zzzzzzzzzzzzzzzz-system\",\"system\",\"2025-09-20T07:14:09.500Z\"],[\"01k5ab0002zzzzzzzzzzzzzzzz-prompt\",\"user\",\"2025-09-20T07:14:09.500Z\"],[\"01k5ab0002zzzzzzzzzzzzzzzz-response\",\"assistant\",\"2025-09-20T07:14:09.500Z\"],[\"01k5ab0003zzzzzzzzzzzzzzzz-prompt\",\"user\",\"2025-09-20T07:15:42.618Z\"],[\"01k5ab0003zzzzzzzzzzzzzzzz-response\",\"assistant\",\"2025-09-20T07:15:42.618Z\"]]" \
	    -r ".conversations[0].messages[1].content" "How long to dry 5 kg of reclaimed clay
in a 60 °C oven?" \
	    -r ".conversations[0].messages[2].imported.options_json.temperature" 0.2
'

test_expect 'tool calls name the tools; tool results are tool messages' '
	jq_is l.json -c "[.conversations[1].messages[] | [.role, .toolsUsed]]" "[[\"user\",null],[\"assistant\",[\"llm_time\"]],[\"tool\",null],[\"assistant\",null]]" \
	    -r ".conversations[1].messages[2].content | fromjson | .timezone" JST
'

test_expect 'a record whose time is not one: an error naming the record' '
	jq ".[2].datetime_utc = \"yesterday\"" "$F/llm/logs.json" >bad.json &&
	fails_with 1 convctl -s b.json migrate bad.json &&
	stderr_has "'\''bad.json'\'': [2].datetime_utc: not a time"
'

test_expect 'an empty log ([]) imports nothing, says so, and is not recorded' '
	echo "[]" >empty.json &&
	convctl -s e.json migrate -f llm empty.json >out 2>err &&
	holds "no records in it" err &&
	holds "empty.json: llm, nothing to import in it; not recorded" out &&
	test ! -e e.json &&
	copy_text "$F/llm/logs.json" empty.json &&
	convctl -s e.json migrate empty.json >out &&
	holds "imported 2 conversations (9 messages)" out
'

test_done
