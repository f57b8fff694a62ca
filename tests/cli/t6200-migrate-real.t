#!/bin/sh
# convctl migrate: transcripts Claude Code and Codex CLI really wrote, run
# offline against tests/helpers/fake-model-api.py (tests/fixtures/migrate/
# real/README says which versions and how)
. "$(dirname "$0")/../lib.sh"

R=$top/tests/fixtures/migrate/real
CS=afca8234-fd93-4a4b-b842-722535c23e6b
XS=01a21324-d55d-77e0-a96e-18849086e1fe
export CONVCTL_NOW=2026-12-01T12:00:00Z

conv() {	# the only conversation of the store $1, or a jq filter of it
	store_json "$1" | jq -c ".conversations[0] | ${2:-.}"
}

test_expect 'Claude Code: a session named with --name has that title (custom-title)' '
	use_store c &&
	convctl migrate "$R/claude/session-1.jsonl" >/dev/null &&
	test "$(conv "" .id)" = "\"$CS\"" &&
	test "$(conv "" .title)" = "\"Kiln notes\""
'

test_expect 'Claude Code: custom-title over ai-title, else the last of ai-title and summary' '
	use_store t1 &&
	{ cat "$R/claude/session-1.jsonl" &&
	  echo "{\"type\":\"ai-title\",\"aiTitle\":\"Reading kiln notes\",\"sessionId\":\"$CS\"}"; } >a.jsonl &&
	convctl migrate a.jsonl >/dev/null &&
	test "$(conv "" .title)" = "\"Kiln notes\"" &&
	use_store t2 &&
	{ echo "{\"type\":\"summary\",\"summary\":\"Old summary line\",\"leafUuid\":\"x\"}" &&
	  grep -v "\"custom-title\"" "$R/claude/session-1.jsonl" &&
	  echo "{\"type\":\"ai-title\",\"aiTitle\":\"Reading kiln notes\",\"sessionId\":\"$CS\"}"; } >b.jsonl &&
	convctl migrate b.jsonl >/dev/null &&
	test "$(conv "" .title)" = "\"Reading kiln notes\"" &&
	use_store t3 &&
	{ echo "{\"type\":\"ai-title\",\"aiTitle\":\"Reading kiln notes\",\"sessionId\":\"$CS\"}" &&
	  grep -v "\"custom-title\"" "$R/claude/session-1.jsonl" &&
	  echo "{\"type\":\"summary\",\"summary\":\"Kiln notes, read\",\"leafUuid\":\"x\"}"; } >c.jsonl &&
	convctl migrate c.jsonl >/dev/null &&
	test "$(conv "" .title)" = "\"Kiln notes, read\""
'

test_expect 'Claude Code: one reply written as two lines (text, tool call) is one message' '
	use_store c &&
	conv "" "[.messages[] | [.role, .content, .toolsUsed]]" >got &&
	cat >want <<-\END &&
	[["user","What do my kiln notes say?",null],["assistant","Let me look at the notes first.",["Read"]],["tool","1\tGlaze the bowls on Friday; fire to cone 6.\n2\t",null],["assistant","The notes say to glaze the bowls on Friday.",null]]
	END
	test_cmp want got &&
	jq -r "select(.type == \"assistant\") | select(.message.id == \"msg_2\") | .uuid" "$R/claude/session-1.jsonl" | jq -R . | jq -sc . >want &&
	conv "" ".messages[1].imported.uuids" >got &&
	test_cmp want got &&
	test "$(conv "" ".messages[1].id")" = "$(jq -c ".[0]" want)" &&
	test "$(conv "" ".messages[1].imported.merged[0].message.content[0].input.file_path | endswith(\"/work/notes.txt\")")" = true
'

test_expect 'Claude Code: the second line of a reply arriving in a later run merges the same way' '
	use_store grown &&
	n=$(grep -n "\"text\":\"Let me look at the notes first.\"" "$R/claude/session-1.jsonl" | head -1 | cut -d: -f1) &&
	head -n $n "$R/claude/session-1.jsonl" >$CS.jsonl &&
	convctl migrate $CS.jsonl >/dev/null &&
	test "$(conv "" ".messages | length")" = 2 &&
	cp "$R/claude/session-1.jsonl" $CS.jsonl && convctl migrate $CS.jsonl >/dev/null &&
	cp "$R/claude/session-2.jsonl" $CS.jsonl && convctl migrate $CS.jsonl >/dev/null &&
	conv "" .messages >got &&
	use_store fresh &&
	convctl migrate $CS.jsonl >/dev/null &&
	conv "" .messages >want &&
	test_cmp want got &&
	test "$(jq length got)" = 10
'

test_expect 'Codex: the context it sends as a user message is not the user'\''s words' '
	use_store x &&
	convctl migrate "$R/codex/rollout-1.jsonl" >/dev/null &&
	conv "" "[.messages[] | select(.role == \"user\") | .content]" >got &&
	echo "[\"What do my kiln notes say?\"]" >want &&
	test_cmp want got &&
	conv "" ".imported.harness[0].payload.content[0].text" | grep -q "AGENTS.md instructions" &&
	conv "" ".imported.harness[0].payload.content[1].text" | grep -q "environment_context"
'

test_expect 'Codex: the conversation starts when the session did (session_meta)' '
	use_store x &&
	jq -c "select(.type == \"session_meta\") | .payload.timestamp" "$R/codex/rollout-1.jsonl" >want &&
	conv "" .startedAt >got &&
	test_cmp want got
'

test_expect 'Codex: a rollout grown by a second process that reused item ids: as a fresh import' '
	use_store grown-x &&
	cp "$R/codex/rollout-1.jsonl" rollout-$XS.jsonl &&
	convctl migrate rollout-$XS.jsonl >/dev/null 2>&1 &&
	cp "$R/codex/rollout-2.jsonl" rollout-$XS.jsonl &&
	convctl migrate rollout-$XS.jsonl >out 2>/dev/null &&
	grep -q "  $XS: 5 new messages, added" out &&
	conv "" .messages >got &&
	use_store fresh-x &&
	convctl migrate rollout-$XS.jsonl >/dev/null 2>&1 &&
	conv "" .messages >want &&
	test_cmp want got &&
	test "$(jq -c "[.[] | select(.role == \"assistant\") | .content]" got)" = "[\"Let me look at the notes first.\",\"\",\"The notes say to glaze the bowls on Friday.\",\"Let me look at the notes first.\",\"\",\"The notes say to glaze the bowls on Friday.\"]"
'

test_done
