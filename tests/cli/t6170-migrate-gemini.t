#!/bin/sh
# convctl migrate: Gemini CLI's sessions (~/.gemini/tmp/PROJECT/chats/), as
# Gemini CLI 0.61.0 and 0.30.0 really wrote them, run offline against
# tests/helpers/fake-gemini-api.py (tests/fixtures/migrate/real/gemini/README)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

R=$top/tests/fixtures/migrate/real/gemini
HS=d563813a-b25b-4005-9460-699e8983a7bd		# headless/
IS=51ae66fd-11a0-4e08-ac48-78c3d2d580f4		# interactive/
LS=d18c49fc-db9f-4ed8-a836-febade1f5ddc		# legacy/
export CONVCTL_NOW=2026-12-01T12:00:00Z
# the directories the cases fill, made by one mkdir, not one a case
g=home/.gemini
mkdir -p chats studio grow p/chats q/chats old-ck old $g/tmp/work/chats \
    $g/tmp/studio/chats $g/tmp/old/chats $g/history/work $g/extensions/kiln ||
    exit 1

# count TEXT FILE: how many lines of FILE hold TEXT (grep -c), in $n
count() {
	n=0
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"$1"*) n=$((n + 1)) ;; esac
	done <"$2"
}

test_expect 'a headless session: its messages, the tool call and its result once, the session id' '
	use_store h1 &&
	convctl migrate "$R/headless/run-1.jsonl" >out &&
	holds "run-1.jsonl: gemini, 1 conversation, 4 messages" out &&
	store_jq "$CONVCTL_STORE" -c ".conversations[0] | .id, .title,
	    [.messages[] | [.role, .content, .toolsUsed]],
	    (.messages[1].imported | [.model, .toolCalls[0].name,
		(.toolCalls[0].args.file_path | endswith(\"/work/notes.txt\")),
		(.toolCalls[0] | has(\"result\"))]),
	    (.messages[2] | [.id, .imported.name])" >got &&
	# the last line: the functionResponse of run-1.jsonl, its id and name
	want_is got <<-END
	"$HS"
	null
	[["user","What do my kiln notes say?",null],["assistant","Let me read them.",["read_file"]],["tool","Glaze the bowls on Friday; fire to cone 6.\n",null],["assistant","Your notes say to glaze the bowls on Friday and fire to cone 6.",null]]
	["gemini-3.1-pro-preview","read_file",true,false]
	["read_file__read_file_1795757057245_0","read_file"]
	END
'

test_expect 'the context the CLI puts in a user turn is not the user'\''s words' '
	use_store h1 &&
	store_jq "$CONVCTL_STORE" -r --slurpfile src "$R/headless/run-1.jsonl" "
	    ([.conversations[0].messages[] | select(.content | contains(\"session_context\"))] | length),
	    (.conversations[0].imported.harness[0] | split(\"\n\")[0:2][]),
	    (.conversations[0].imported | [.projectHash, .kind]) as \$g |
	    (\$src[0] | [.projectHash, .kind]) as \$w |
	    if \$g == \$w then \"projectHash and kind as on the first line\"
	    else \"\(\$g) want \(\$w)\" end" >got &&
	want_is got <<-\END
	0
	<session_context>
	This is the Gemini CLI. We are setting up the context for our chat.
	projectHash and kind as on the first line
	END
'

test_expect 'a reply written twice (text, then with its tool calls) is one message, at its first time' '
	count "\"Let me read them.\"" "$R/headless/run-1.jsonl" && test $n = 2 &&
	use_store h1 &&
	store_jq "$CONVCTL_STORE" -r --slurpfile src "$R/headless/run-1.jsonl" "
	    [\$src[] | select(.type == \"gemini\") | .timestamp][0] as \$w |
	    .conversations[0].messages[1].timestamp |
	    if . == \$w then \"the first time\" else \"\(.) want \(\$w)\" end" >got &&
	file_is "the first time" got
'

test_expect 'resumed in the same minute, then a minute later: the same file grows, each import adds only the new' '
	use_store grown &&
	copy_text "$R/headless/run-1.jsonl" session.jsonl && convctl migrate session.jsonl >/dev/null &&
	copy_text "$R/headless/run-2.jsonl" session.jsonl && convctl migrate session.jsonl >out2 2>&1 &&
	has_line "  $HS: 2 new messages, added (imported before, grown since)" out2 &&
	copy_text "$R/headless/run-3.jsonl" session.jsonl && convctl migrate session.jsonl >out3 2>&1 &&
	has_line "  $HS: 2 new messages, added (imported before, grown since)" out3 &&
	convctl migrate session.jsonl >again 2>&1 &&
	holds "session.jsonl: gemini, imported before" again &&
	use_store fresh &&
	convctl migrate "$R/headless/run-3.jsonl" >/dev/null &&
	store_jq "$CONVCTL_STORE" -c ".conversations[0].messages" >fresh.msgs &&
	IFS= read -r msgs <fresh.msgs &&
	store_is "$CONVCTL_STORE" -c "[.conversations[0].messages[] | [.role, .content[0:24]]]" "[[\"user\",\"What do my kiln notes sa\"],[\"assistant\",\"Let me read them.\"],[\"tool\",\"Glaze the bowls on Frida\"],[\"assistant\",\"Your notes say to glaze \"],[\"user\",\"Read them again, please.\"],[\"assistant\",\"Hello! The kiln is your \"],[\"user\",\"And once more.\"],[\"assistant\",\"Hello! The kiln is your \"]]" &&
	use_store grown &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages" "$msgs"
'

test_expect 'a resume rewrites the history (ids again, the tool result twice more): nothing doubled, nothing moved' '
	count "_response\"" "$R/headless/run-3.jsonl" && test $n -ge 2 &&
	use_store fresh &&
	store_jq "$CONVCTL_STORE" -c --slurpfile src "$R/headless/run-1.jsonl" "
	    .conversations[0].messages |
	    ([.[] | .id] | length == (unique | length)),
	    ([\$src[] | select(.type == \"gemini\") | .timestamp][0] as \$w |
		.[1].timestamp | if . == \$w then \"the first time\" else [., \$w] end),
	    .[1].toolsUsed" >got &&
	want_is got <<-\END
	true
	"the first time"
	["read_file"]
	END
'

test_expect 'the file a resume a minute later also leaves: nothing to import, not recorded' '
	use_store new &&
	copy_text "$R/headless/run-3.jsonl" chats/session-2026-11-27T05-24-d563813a.jsonl &&
	copy_text "$R/headless/run-3-new.jsonl" chats/session-2026-11-27T05-25-d563813a.jsonl &&
	convctl migrate chats >out 2>err &&
	has_line "chats/session-2026-11-27T05-25-d563813a.jsonl: gemini, nothing to import in it; not recorded" out &&
	holds "05-25-d563813a.jsonl'\'': no messages in it" err &&
	has_line "imported 1 conversation (8 messages) from 1 source" out
'

test_expect 'an interactive session: what was typed, the CLI'\''s notice kept aside; its checkpoint (the log of prompts names its session) and logs.json import nothing' '
	use_store i &&
	convctl migrate "$R/interactive/session.jsonl" >/dev/null &&
	convctl migrate "$R/interactive/checkpoint-kiln.json" >out 2>err &&
	convctl migrate "$R/interactive/logs.json" >>out 2>>err &&
	holds "checkpoint-kiln.json: gemini, imported before (the same conversations); skipped" out &&
	holds "logs.json: gemini, nothing to import in it; not recorded" out &&
	holds "checkpoint-kiln.json'\'': conversation '\''gemini-checkpoint-interactive-kiln'\'' is a copy of turns of conversation '\''$IS'\'', imported before: left out" err &&
	holds "logs.json'\'': Gemini CLI'\''s log of prompts, what was typed and no reply" err &&
	store_jq "$CONVCTL_STORE" -c ".conversations | length, (.[0] | .id, [.messages[] | select(.role == \"user\") | .content], [.messages[].role], [.imported.notices[] | [.type, .content]])" >got &&
	want_is got <<-END
	1
	"$IS"
	["Hello, kiln helper","Thanks. Anything else"]
	["user","assistant","tool","assistant","user","assistant"]
	[["info","Conversation checkpoint saved with tag: kiln."]]
	END
'

test_expect 'a checkpoint whose session is neither imported nor beside it: a conversation of its own, titled by its tag, at the file'\''s time' '
	use_store ck &&
	copy_text "$R/interactive/checkpoint-kiln.json" studio/checkpoint-kiln.json &&
	touch -d 2026-11-27T05:25:18Z studio/checkpoint-kiln.json &&
	convctl migrate studio/checkpoint-kiln.json >out &&
	holds "checkpoint-kiln.json: gemini, 1 conversation, 6 messages" out &&
	store_jq "$CONVCTL_STORE" -c ".conversations[0] | .id, .title, .startedAt, .imported.authType, .imported.copyOf, (.imported.harness[0] | startswith(\"<session_context>\")), [.messages[] | [.id, .role, .content[0:18], .toolsUsed]], .messages[1].imported.functionCalls[0].name" >got &&
	want_is got <<-END
	"gemini-checkpoint-studio-kiln"
	"kiln"
	"2026-11-27T05:25:18.000Z"
	"gemini-api-key"
	null
	true
	[["turn-1","user","Hello, kiln helper",null],["turn-2","assistant","Let me read them.",["read_file"]],["read_file__read_file_1795757115966_0","tool","Glaze the bowls on",null],["turn-4","assistant","Your notes say to ",null],["turn-5","user","Thanks. Anything e",null],["turn-6","assistant","Hello! The kiln is",null]]
	"read_file"
	END
'

test_expect 'a checkpoint saved again under its tag, grown: the new turns only; the same again: nothing' '
	use_store ckgrow &&
	jq ".history |= .[0:4]" "$R/interactive/checkpoint-kiln.json" >grow/checkpoint-kiln.json &&
	convctl migrate grow/checkpoint-kiln.json >out &&
	holds "checkpoint-kiln.json: gemini, 1 conversation, 4 messages" out &&
	copy_text "$R/interactive/checkpoint-kiln.json" grow/checkpoint-kiln.json &&
	convctl migrate grow/checkpoint-kiln.json >out &&
	has_line "  gemini-checkpoint-grow-kiln: 2 new messages, added (imported before, grown since)" out &&
	convctl migrate grow/checkpoint-kiln.json >out &&
	holds "imported before" out &&
	store_is "$CONVCTL_STORE" -c "[.conversations | length, (.[0].messages | length)]" "[1,6]"
'

test_expect 'a checkpoint beside the session that holds its turns (chats/): read there, in the directory form too' '
	use_store ckdir &&
	copy_text "$R/interactive/session.jsonl" p/chats/session-2026-11-27T05-25-51ae66fd.jsonl &&
	jq ".history |= .[0:4]" "$R/interactive/checkpoint-kiln.json" >p/checkpoint-early.json &&
	convctl migrate p/checkpoint-early.json >out 2>err &&
	holds "checkpoint-early.json: gemini, nothing to import in it; not recorded" out &&
	holds "checkpoint-early.json'\'': Gemini CLI'\''s checkpoint (/chat save) of session '\''$IS'\'', whose file holds its turns: read there ('\''p/chats/session-2026-11-27T05-25-51ae66fd.jsonl'\'')" err &&
	convctl migrate p >out 2>err &&
	has_line "imported 1 conversation (6 messages) from 1 source" out &&
	store_is "$CONVCTL_STORE" -c "[.conversations[].id]" "[\"$IS\"]"
'

test_expect 'a checkpoint of turns its session no longer holds (rewound since): imported, its own' '
	use_store ckother &&
	copy_text "$R/interactive/session.jsonl" q/chats/session-2026-11-27T05-25-51ae66fd.jsonl &&
	jq ".history[4].parts[0].text = \"Something else\"" "$R/interactive/checkpoint-kiln.json" >q/checkpoint-kiln.json &&
	convctl migrate q >out 2>err &&
	has_line "imported 2 conversations (12 messages) from 2 sources" out &&
	store_is "$CONVCTL_STORE" -c "[.conversations[] | .title]" "[null,\"kiln\"]"
'

test_expect 'an older release'\''s checkpoint, its history bare: thoughts left out, calls without ids, the tag decoded for the title' '
	use_store ckold &&
	copy_text "$top/tests/fixtures/migrate/gemini/checkpoint-glaze%20test.json" "old-ck/checkpoint-glaze%20test.json" &&
	convctl migrate old-ck >out &&
	holds "checkpoint-glaze%20test.json: gemini, 1 conversation, 4 messages" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0] | [.id, .title, [.messages[] | [.id, .role, .content, .toolsUsed]]]" "[\"gemini-checkpoint-old-ck-glaze%20test\",\"glaze test\",[[\"turn-1\",\"user\",\"Which cone for the celadon?\",null],[\"turn-2\",\"assistant\",\"\",[\"read_file\"]],[\"turn-3:0\",\"tool\",\"Celadon: cone 10 reduction.\\n\",null],[\"turn-4\",\"assistant\",\"Cone 10, in reduction.\",null]]]"
'

test_expect 'an older release'\''s session-*.json; resumed by a newer one into .jsonl beside it: read there, grown by the new' '
	use_store legacy &&
	copy_text "$R/legacy/session-legacy.json" old/session-2026-11-27T05-25-d18c49fc.json &&
	convctl migrate old >out &&
	holds "d18c49fc.json: gemini, 1 conversation, 4 messages" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0] | [.id, [.messages[] | .role]]" "[\"$LS\",[\"user\",\"assistant\",\"tool\",\"assistant\"]]" &&
	copy_text "$R/legacy/session-legacy.jsonl" old/session-2026-11-27T05-25-d18c49fc.jsonl &&
	convctl migrate old >out 2>err &&
	holds "d18c49fc.json: gemini, imported before" out &&
	has_line "  $LS: 2 new messages, added (imported before, grown since)" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0] | [.messages[] | .content[0:13]]" "[\"What do my ki\",\"Let me read t\",\"Glaze the bow\",\"Your notes sa\",\"Read them aga\",\"Hello! The ki\"]"
'

test_expect 'the directory form: ~/.gemini, of which only tmp/ is read; once only' '
	use_store home &&
	echo "{\"general\": {}}" >$g/settings.json && echo "{\"projects\": {}}" >$g/projects.json &&
	echo "{}" >$g/state.json && echo "{}" >$g/oauth_creds.json &&
	echo "{\"name\": \"kiln\"}" >$g/extensions/kiln/gemini-extension.json &&
	copy_text "$R/headless/run-3.jsonl" $g/tmp/work/chats/session-2026-11-27T05-24-d563813a.jsonl &&
	copy_text "$R/headless/run-3-new.jsonl" $g/tmp/work/chats/session-2026-11-27T05-25-d563813a.jsonl &&
	copy_text "$R/interactive/session.jsonl" $g/tmp/studio/chats/session-2026-11-27T05-25-51ae66fd.jsonl &&
	copy_text "$R/interactive/checkpoint-kiln.json" $g/tmp/studio/checkpoint-kiln.json &&
	copy_text "$R/interactive/logs.json" $g/tmp/studio/logs.json &&
	copy_text "$R/legacy/session-legacy.json" $g/tmp/old/chats/session-2026-11-27T05-25-d18c49fc.json &&
	copy_text "$R/legacy/session-legacy.jsonl" $g/tmp/old/chats/session-2026-11-27T05-25-d18c49fc.jsonl &&
	convctl migrate $g >out 2>err &&
	has_line "imported 3 conversations (20 messages) from 3 sources" out &&
	holds "d18c49fc.json'\'': resumed into '\''$g/tmp/old/chats/session-2026-11-27T05-25-d18c49fc.jsonl'\'', which holds it: read there" err &&
	for w in settings.json projects.json state.json oauth_creds extension; do
		lacks "$w" out err || return 1
	done &&
	store_is "$CONVCTL_STORE" -c "[.conversations[].id] | sort" "[\"$IS\",\"$LS\",\"$HS\"]" &&
	convctl migrate $g >again 2>&1 &&
	has_line "nothing new to import from '\''$g'\''" again
'

test_expect '-f gemini names it, whatever the file is called' '
	use_store named &&
	copy_text "$R/headless/run-1.jsonl" log.txt &&
	convctl migrate -f gemini log.txt >out &&
	holds "log.txt: gemini, 1 conversation, 4 messages" out
'

test_expect 'a title that comes later ($set summary) is the title; the last one' '
	use_store title &&
	copy_text "$R/headless/run-1.jsonl" t.jsonl &&
	{ echo "{\"\$set\":{\"summary\":\"Reading notes\"}}" &&
	  echo "{\"\$set\":{\"summary\":\"Kiln notes, read\"}}"; } >>t.jsonl &&
	convctl migrate t.jsonl >/dev/null &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].title" "\"Kiln notes, read\""
'

test_expect 'a title that comes after the session was imported without one: given to it then, once; a later one retitles it, but not a title the user set' '
	use_store later &&
	copy_text "$R/headless/run-3.jsonl" later.jsonl &&
	convctl migrate later.jsonl >/dev/null &&
	echo "{\"\$set\":{\"summary\":\"Kiln notes, read\"}}" >>later.jsonl &&
	convctl migrate -n later.jsonl >out &&
	has_line "  $HS: would be titled '\''Kiln notes, read'\'' (imported before without a title)" out &&
	convctl migrate later.jsonl >out &&
	has_line "  $HS: titled '\''Kiln notes, read'\'' (imported before without a title)" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0] | [.title, (.messages | length)]" "[\"Kiln notes, read\",8]" &&
	convctl migrate later.jsonl >out &&
	holds "later.jsonl: gemini, imported before" out &&
	echo "{\"\$set\":{\"summary\":\"Another\"}}" >>later.jsonl &&
	convctl migrate later.jsonl >out &&
	has_line "  $HS: retitled '\''Another'\'' (the source'\''s title was '\''Kiln notes, read'\'')" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].title" "\"Another\"" &&
	convctl title "$HS" "My kiln notes" >/dev/null &&
	echo "{\"\$set\":{\"summary\":\"Third\"}}" >>later.jsonl &&
	convctl migrate later.jsonl >out &&
	lacks "titled" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].title" "\"My kiln notes\""
'

test_expect '$rewindTo drops that message and those after it' '
	use_store rewind &&
	# the id of run-3.jsonl'\''s record of "And once more."
	id=d83fa90c-5334-4594-9279-dd787dca75e6 &&
	holds "\"id\":\"$id\"" "$R/headless/run-3.jsonl" &&
	copy_text "$R/headless/run-3.jsonl" r.jsonl &&
	echo "{\"\$rewindTo\":\"$id\"}" >>r.jsonl &&
	convctl migrate r.jsonl >out &&
	holds "r.jsonl: gemini, 1 conversation, 6 messages" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages[-1].content" "\"Hello! The kiln is your studio'\''s; ask me about it.\""
'

test_expect 'a bad record: an error naming file and line (in a $set, the message too); --skip-bad names it and goes on' '
	use_store bad &&
	sed "5s/.*/{\"id\":\"x\",\"type\":7}/" "$R/headless/run-1.jsonl" >b.jsonl &&
	fails_with 1 convctl migrate b.jsonl &&
	stderr_has "'\''b.jsonl'\'': line 5: type: expected a string" &&
	! store_exists &&
	{ for i in 1 2 3; do IFS= read -r l && printf "%s\n" "$l"; done &&
	  echo "{\"\$set\":{\"messages\":[{\"id\":\"a\",\"type\":\"user\",\"content\":5}]}}"; } \
	    <"$R/headless/run-1.jsonl" >c.jsonl &&
	fails_with 1 convctl migrate c.jsonl &&
	stderr_has "'\''c.jsonl'\'': line 4: \$set.messages[0].content: expected a string or an array of parts" &&
	copy_text "$R/headless/run-1.jsonl" e.jsonl && echo "{\"what\":1}" >>e.jsonl &&
	fails_with 1 convctl migrate e.jsonl &&
	stderr_has "'\''e.jsonl'\'': line 12: expected a message (\"id\"), \"\$set\", \"\$rewindTo\" or the session'\''s \"sessionId\"" &&
	! store_exists &&
	convctl migrate --skip-bad b.jsonl >out 2>err &&
	holds "skipped (--skip-bad): '\''b.jsonl'\'': line 5" err &&
	holds "b.jsonl: gemini, 1 conversation, 4 messages" out
'

test_done
