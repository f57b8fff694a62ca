#!/bin/sh
# convctl migrate: Claude Code sessions (~/.claude/projects/DIR/SESSION.jsonl)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
S=2b7c9e10-4f3a-4d6e-9a51-7c0ffee0b0b1
export CONVCTL_NOW=2026-06-01T12:00:00Z

test_expect 'the projects directory: each session found below it, by content' '
	convctl -s c.json migrate "$F/claude" >out &&
	has_line "$F/claude/-home-aiko-src-kiln/$S.jsonl: claude, 1 conversation, 6 messages" out &&
	jq_is c.json -r ".conversations[0].id" $S \
	    -r ".conversations[0].title" "Fix the kiln controller'\''s PID overshoot"
'

test_expect 'user and assistant lines are messages, by uuid (one reply of two lines is one); other lines are not' '
	jq_is c.json -c "[.conversations[0].messages[] | [.id[-2:], .role, .timestamp]]" "[[\"01\",\"user\",\"2025-09-14T08:00:01.123Z\"],[\"02\",\"assistant\",\"2025-09-14T08:00:04.500Z\"],[\"04\",\"tool\",\"2025-09-14T08:00:05.250Z\"],[\"06\",\"assistant\",\"2025-09-14T08:00:09.750Z\"],[\"07\",\"tool\",\"2025-09-14T08:00:10.000Z\"],[\"08\",\"user\",\"2025-09-14T08:30:00.000Z\"]]"
'

test_expect 'tool_use names the tool; tool_result is a tool message with its text' '
	jq_is c.json -c "[.conversations[0].messages[] | .toolsUsed]" "[null,[\"Read\"],null,[\"Edit\"],null,null]" \
	    -r ".conversations[0].messages[4].content" "The file /home/aiko/src/kiln/pid.c has been updated." \
	    -r ".conversations[0].messages[2].content | split(\"\n\") | last" "     2	/* no anti-windup */" \
	    -r ".conversations[0].messages[3].content" "The integral term winds up during the ramp.

Clamp it while the output is saturated." \
	    -r ".conversations[0].messages[3].imported.message.content[2].input.file_path" /home/aiko/src/kiln/pid.c \
	    -r ".conversations[0].messages[0].imported.gitBranch" main
'

test_expect 'a session with no message: nothing imported, said, not recorded' '
	mkdir -p p/x &&
	while IFS= read -r l; do	# its lines of a summary or a snapshot
		case $l in *"\"summary\""* | *snapshot*) printf "%s\n" "$l" ;; esac
	done <"$F/claude/-home-aiko-src-kiln/$S.jsonl" >p/x/empty.jsonl &&
	lines_are 2 p/x/empty.jsonl &&
	convctl -s e.json migrate p >out 2>err &&
	holds "no messages in it" err &&
	holds "empty.jsonl: claude, nothing to import in it; not recorded" out &&
	holds "nothing new to import" out &&
	test ! -e e.json
'

test_expect 'a bad line: an error naming file and line; --skip-bad names it and goes on' '
	sed "5s/.*/{\"type\":\"assistant\",\"sessionId\":\"$S\",\"message\":{\"content\":7}}/" \
	    "$F/claude/-home-aiko-src-kiln/$S.jsonl" >$S.jsonl &&
	fails_with 1 convctl -s k.json migrate $S.jsonl &&
	stderr_has "'\''$S.jsonl'\'': line 5: message.content: expected a string or an array of blocks" &&
	test ! -e k.json &&
	convctl -s k.json migrate --skip-bad $S.jsonl >out 2>err &&
	holds "skipped (--skip-bad): '\''$S.jsonl'\'': line 5" err &&
	jq_is k.json -c ".conversations[0].messages | length" 6
'

test_expect 'lines out of order: read as Claude Code does, each after its parentUuid, then by time' '
	use_store order &&
	convctl migrate "$F/claude-order.jsonl" >out &&
	holds "claude, 1 conversation, 5 messages" out &&
	o=5e55a0de-0000-4000-8000-00000000c1a0 &&
	convctl show --format json $o >c.json &&
	jq -c "[.startedAt, .endedAt, .title], [.messages[] | [.id[-1:], .role, .timestamp, .content, .toolsUsed]], .messages[1].imported.uuids" c.json >got &&
	want_is got <<-\END
	["2026-03-02T08:00:00.000Z","2026-03-02T08:00:06.000Z","Kiln temperature"]
	[["1","user","2026-03-02T08:00:00.000Z","Is the kiln at temperature?",null],["3","assistant","2026-03-02T08:00:01.000Z","Checking the thermocouple log.",["Read"]],["5","tool","2026-03-02T08:00:03.000Z","08:00 1222 C",null],["6","assistant","2026-03-02T08:00:04.000Z","Yes: 1222 °C.",null],["7","assistant","2026-03-02T08:00:06.000Z","Yes, 1222 °C (asked again).",null]]
	["0e0de000-0000-4000-8000-000000000003","0e0de000-0000-4000-8000-000000000004"]
	END
'

test_expect 'a cycle of parentUuids: every line read once, from the first line of it' '
	use_store cycle &&
	sed "s/\"parentUuid\":null/\"parentUuid\":\"0e0de000-0000-4000-8000-000000000007\"/" \
	    "$F/claude-order.jsonl" >cycle.jsonl &&
	convctl migrate cycle.jsonl >out &&
	holds "claude, 1 conversation, 5 messages" out &&
	store_is "$CONVCTL_STORE" -c "[.conversations[0].messages[] | .id[-1:]]" "[\"7\",\"1\",\"3\",\"5\",\"6\"]"
'

test_done
