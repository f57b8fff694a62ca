#!/bin/sh
# convctl migrate: transcripts Claude Code and Codex CLI really wrote, run
# offline against tests/helpers/fake-model-api.py (tests/fixtures/migrate/
# real/README says which versions and how)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

R=$top/tests/fixtures/migrate/real
CS=afca8234-fd93-4a4b-b842-722535c23e6b
XS=01a21324-d55d-77e0-a96e-18849086e1fe
export CONVCTL_NOW=2026-12-01T12:00:00Z

# without TEXT FILE: the lines of FILE that lack TEXT, as grep -v prints
# them, read by the shell
without() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"$1"*) ;; *) printf "%s\n" "$l" ;; esac
	done <"$2"
}

test_expect 'Claude Code: a session named with --name has that title (custom-title)' '
	use_store c &&
	convctl migrate "$R/claude/session-1.jsonl" >/dev/null &&
	store_is "$CONVCTL_STORE" -c .conversations[0].id "\"$CS\"" \
	    -c .conversations[0].title "\"Kiln notes\""
'

test_expect 'Claude Code: custom-title over ai-title, else the last of ai-title and summary' '
	use_store t1 &&
	copy_text "$R/claude/session-1.jsonl" a.jsonl &&
	echo "{\"type\":\"ai-title\",\"aiTitle\":\"Reading kiln notes\",\"sessionId\":\"$CS\"}" >>a.jsonl &&
	convctl migrate a.jsonl >/dev/null &&
	store_is "$CONVCTL_STORE" -c .conversations[0].title "\"Kiln notes\"" &&
	use_store t2 &&
	{ echo "{\"type\":\"summary\",\"summary\":\"Old summary line\",\"leafUuid\":\"x\"}" &&
	  without "\"custom-title\"" "$R/claude/session-1.jsonl" &&
	  echo "{\"type\":\"ai-title\",\"aiTitle\":\"Reading kiln notes\",\"sessionId\":\"$CS\"}"; } >b.jsonl &&
	convctl migrate b.jsonl >/dev/null &&
	store_is "$CONVCTL_STORE" -c .conversations[0].title "\"Reading kiln notes\"" &&
	use_store t3 &&
	{ echo "{\"type\":\"ai-title\",\"aiTitle\":\"Reading kiln notes\",\"sessionId\":\"$CS\"}" &&
	  without "\"custom-title\"" "$R/claude/session-1.jsonl" &&
	  echo "{\"type\":\"summary\",\"summary\":\"Kiln notes, read\",\"leafUuid\":\"x\"}"; } >c.jsonl &&
	convctl migrate c.jsonl >/dev/null &&
	store_is "$CONVCTL_STORE" -c .conversations[0].title "\"Kiln notes, read\""
'

test_expect 'Claude Code: one reply written as two lines (text, tool call) is one message' '
	use_store c &&
	store_jq "$CONVCTL_STORE" -c --slurpfile src "$R/claude/session-1.jsonl" "
	    .conversations[0].messages |
	    [.[] | [.role, .content, .toolsUsed]],
	    ([\$src[] | select(.type == \"assistant\") | select(.message.id == \"msg_2\") | .uuid] as \$w |
		if .[1].imported.uuids == \$w then \"the uuids of msg_2\" else [.[1].imported.uuids, \$w] end,
		if .[1].id == \$w[0] then \"its id the first\" else [.[1].id, \$w[0]] end),
	    (.[1].imported.merged[0].message.content[0].input.file_path | endswith(\"/work/notes.txt\"))" >got &&
	want_is got <<-\END
	[["user","What do my kiln notes say?",null],["assistant","Let me look at the notes first.",["Read"]],["tool","1\tGlaze the bowls on Friday; fire to cone 6.\n2\t",null],["assistant","The notes say to glaze the bowls on Friday.",null]]
	"the uuids of msg_2"
	"its id the first"
	true
	END
'

test_expect 'Claude Code: the second line of a reply arriving in a later run merges the same way' '
	use_store grown &&
	while IFS= read -r l; do
		printf "%s\n" "$l"
		case $l in *"\"text\":\"Let me look at the notes first.\""*) break ;; esac
	done <"$R/claude/session-1.jsonl" >$CS.jsonl &&
	convctl migrate $CS.jsonl >/dev/null &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages | length" 2 &&
	copy_text "$R/claude/session-1.jsonl" $CS.jsonl && convctl migrate $CS.jsonl >/dev/null &&
	copy_text "$R/claude/session-2.jsonl" $CS.jsonl && convctl migrate $CS.jsonl >/dev/null &&
	store_jq "$CONVCTL_STORE" -c ".conversations[0].messages | ., length" >grown.out &&
	{ IFS= read -r msgs && read -r n; } <grown.out &&
	test "$n" = 10 &&
	use_store fresh &&
	convctl migrate $CS.jsonl >/dev/null &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages" "$msgs"
'

test_expect 'Codex: the context it sends as a user message is not the user'\''s words' '
	use_store x &&
	convctl migrate "$R/codex/rollout-1.jsonl" >/dev/null &&
	store_is "$CONVCTL_STORE" -c "[.conversations[0].messages[] | select(.role == \"user\") | .content]" "[\"What do my kiln notes say?\"]" \
	    -c ".conversations[0].imported.harness[0].payload.content[0].text | contains(\"AGENTS.md instructions\")" true \
	    -c ".conversations[0].imported.harness[0].payload.content[1].text | contains(\"environment_context\")" true
'

test_expect 'Codex: the conversation starts when the session did (session_meta)' '
	use_store x &&
	store_jq "$CONVCTL_STORE" -c --slurpfile src "$R/codex/rollout-1.jsonl" "
	    [\$src[] | select(.type == \"session_meta\") | .payload.timestamp] as \$w |
	    [.conversations[0].startedAt] | if . == \$w then \"the session_meta time\" else [., \$w] end" >got &&
	file_is "\"the session_meta time\"" got
'

test_expect 'Codex: a rollout grown by a second process that reused item ids: as a fresh import' '
	use_store grown-x &&
	copy_text "$R/codex/rollout-1.jsonl" rollout-$XS.jsonl &&
	convctl migrate rollout-$XS.jsonl >/dev/null 2>&1 &&
	copy_text "$R/codex/rollout-2.jsonl" rollout-$XS.jsonl &&
	convctl migrate rollout-$XS.jsonl >out 2>/dev/null &&
	holds "  $XS: 5 new messages, added" out &&
	store_jq "$CONVCTL_STORE" -c ".conversations[0].messages" >grown.msgs &&
	IFS= read -r msgs <grown.msgs &&
	use_store fresh-x &&
	convctl migrate rollout-$XS.jsonl >/dev/null 2>&1 &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages" "$msgs" \
	    -c "[.conversations[0].messages[] | select(.role == \"assistant\") | .content]" "[\"Let me look at the notes first.\",\"\",\"The notes say to glaze the bowls on Friday.\",\"Let me look at the notes first.\",\"\",\"The notes say to glaze the bowls on Friday.\"]"
'

test_done
