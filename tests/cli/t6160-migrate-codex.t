#!/bin/sh
# convctl migrate: Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
R=$F/codex/2025/10/03/rollout-2025-10-03T09-12-44-0199a1c2-7d3e-7f10-9b2a-5e6f70819a2b.jsonl
export CONVCTL_NOW=2026-06-01T12:00:00Z

test_expect 'the sessions directory: each rollout found below it, by content' '
	convctl -s x.json migrate "$F/codex" >out &&
	has_line "$R: codex, 1 conversation, 4 messages" out &&
	jq_is x.json -r ".conversations[0].id" 0199a1c2-7d3e-7f10-9b2a-5e6f70819a2b \
	    -r ".conversations[0].imported.cli_version" 0.44.0
'

test_expect 'messages, calls and outputs; events, turn context and reasoning are not messages' '
	jq_is x.json -c "[.conversations[0].messages[] | [.role, .timestamp, .toolsUsed]]" "[[\"user\",\"2025-10-03T09:12:50.010Z\",null],[\"assistant\",\"2025-10-03T09:12:53.900Z\",[\"shell\"]],[\"tool\",\"2025-10-03T09:12:54.250Z\",null],[\"assistant\",\"2025-10-03T09:12:58.777Z\",null]]" \
	    -r ".conversations[0].messages[0].content" "Which tests cover the ramp schedule?" \
	    -r ".conversations[0].messages[1].imported.call_id" call_Ramp01 \
	    -r ".conversations[0].messages[2].content | fromjson | .output" "tests/ramp_test.c
tests/schedule_test.c" \
	    -r ".conversations[0].messages[3].content" "Two files: tests/ramp_test.c and tests/schedule_test.c.

The second also checks the hold times."
'

test_expect 'an older rollout'\''s environment context (no provenance marks): kept, not a user message; the start is session_meta'\''s' '
	jq_is x.json -r ".conversations[0].imported.harness[0].payload.content[0].text | split(\"\n\")[0]" "<environment_context>" \
	    -r ".conversations[0].startedAt" 2025-10-03T09:12:44.095Z
'

test_expect 'without session_meta: the id its name ends with' '
	{ IFS= read -r l && case $l in *session_meta*) ;; *) false ;; esac &&
	  while IFS= read -r l; do printf "%s\n" "$l"; done; } <"$R" \
	    >rollout-2025-10-03T09-12-44-0199a1c2-7d3e-7f10-9b2a-000000000001.jsonl &&	# but its first line
	lacks session_meta rollout-2025-10-03T09-12-44-0199a1c2-7d3e-7f10-9b2a-000000000001.jsonl &&
	convctl -s y.json migrate rollout-2025-10-03T09-12-44-0199a1c2-7d3e-7f10-9b2a-000000000001.jsonl >/dev/null &&
	jq_is y.json -r ".conversations[0].id" 0199a1c2-7d3e-7f10-9b2a-000000000001
'

test_expect 'an unknown role: an error naming file, line and field' '
	sed "4s/\"role\":\"user\"/\"role\":\"critic\"/" "$R" >bad.jsonl &&
	fails_with 1 convctl -s z.json migrate bad.jsonl &&
	stderr_has "'\''bad.jsonl'\'': line 4: payload.role: unknown role '\''critic'\''"
'

test_expect '--format codex reads a file of another name' '
	copy_text "$R" session.log &&
	convctl -s w.json migrate -f codex session.log >out &&
	holds "session.log: codex, 1 conversation, 4 messages" out
'

test_expect 'a message with an image: its text the content, its parts kept under imported' '
	printf "%s\n" "{\"timestamp\":\"2025-10-03T09:12:44.101Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"img-1\"}}" \
	    "{\"timestamp\":\"2025-10-03T09:12:50.010Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,iVBO\"},{\"type\":\"input_text\",\"text\":\"What glaze is this?\"}]}}" >img.jsonl &&
	convctl -s i.json migrate img.jsonl >/dev/null &&
	jq_is i.json -r ".conversations[0].messages[0].content" "What glaze is this?" \
	    -r ".conversations[0].messages[0].imported.content[0].type" input_image \
	    -r ".conversations[0].messages[1]" null
'

test_done
