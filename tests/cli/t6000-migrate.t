#!/bin/sh
# convctl migrate: five formats in, once, all or nothing
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
export CONVCTL_NOW=2026-06-01T12:00:00Z
NOW_MS=1780315200000
# the directories cases fill (and an empty one), made by one mkdir
mkdir again twin mixed empty || exit 1

test_expect 'smarthole: one ended conversation named as SmartHole names it' '
	convctl -s sh.json migrate "$F/smarthole-history.json" >out &&
	has_line "imported 1 conversation (8 messages) from 1 source" out &&
	convctl -s sh.json show --format json conv-migrated-$NOW_MS >c.json &&
	jq_is c.json -r .title "Migrated Conversation History" \
	    -r .startedAt 2026-02-04T17:26:40.000Z \
	    -r .endedAt 2026-02-05T17:28:20.000Z \
	    -r .lastSummarized 2026-02-02T22:00:00.000Z
'

test_expect 'smarthole: each entry is a user and an assistant message at its time' '
	jq -r "(.messages | map([.id, .role, .timestamp]) | tojson),
	    (.messages[1].toolsUsed, .messages[0].toolsUsed | tojson),
	    (.messages[3].content | split(\"\n\") | last), .messages[2].source" \
	    c.json >got &&
	want_is got <<-\END
	[["1738690000000-k3j9-user","user","2026-02-04T17:26:40.000Z"],["1738690000000-k3j9-assistant","assistant","2026-02-04T17:26:40.000Z"],["1738690090000-p2x1-user","user","2026-02-04T17:28:10.500Z"],["1738690090000-p2x1-assistant","assistant","2026-02-04T17:28:10.500Z"],["1738776400000-z8q4-user","user","2026-02-05T17:26:40.000Z"],["1738776400000-z8q4-assistant","assistant","2026-02-05T17:26:40.000Z"],["1738776500000-a0b0-user","user","2026-02-05T17:28:20.000Z"],["1738776500000-a0b0-assistant","assistant","2026-02-05T17:28:20.000Z"]]
	["read_file","edit_file"]
	null
	- 18:00 Dinner with Aiko (居酒屋 Torikizoku)
	websocket
	END
'

test_expect 'smarthole: the summary is SmartHole'\''s text, line for line' '
	jq -r .summary c.json >got &&
	want_is got <<-\END
	Historical summaries:
	- 2026-01-20T08:00:00.000Z to 2026-01-26T21:15:00.000Z (14 conversations): Planned the kitchen renovation; compared quotes from two contractors.
	- 2026-01-27T07:45:00.000Z to 2026-02-02T22:00:00.000Z (9 conversations): Drafted the trip to Kyōto: rail passes, ryokan shortlist, budget.
	Migrated 4 recent conversations from previous format.
	Tools used: read_file, edit_file, search_files, write_file
	END
'

test_expect 'smarthole: the store records the source, its SHA-256 and lastMigrated' '
	# sum: sha256sum of the fixture; hash: of its messages as jq -c
	# prints them (".conversations[0].messages"), no newline
	sum=8d0cd65232a3d30b0d101758fb9fdaad4b951c24f29d37d8952116fdec7feb2a &&
	hash=9141af974f83fa12320958aa1e0244ee1d9653fcc0b1582f2e6f07dfef3af205 &&
	jq_is sh.json -c .imports "[{\"sha256\":\"$sum\",\"format\":\"smarthole\",\"file\":\"$F/smarthole-history.json\",\"importedAt\":\"2026-06-01T12:00:00.000Z\",\"conversations\":[\"conv-migrated-$NOW_MS\"],\"hashes\":[\"$hash\"]}]" \
	    -r .lastMigrated 2026-06-01T12:00:00.000Z
'

test_expect 'running it again imports nothing new, says so, and writes nothing' '
	keep_store sh.json &&
	convctl -s sh.json migrate "$F/smarthole-history.json" >out &&
	store_kept sh.json &&
	holds "smarthole, imported before (2026-06-01T12:00:00.000Z); skipped" out &&
	has_line "nothing new to import from '\''$F/smarthole-history.json'\''" out
'

test_expect 'the same bytes under another name are the same source' '
	copy_text "$F/smarthole-history.json" copy.json &&
	keep_store sh.json &&
	convctl -s sh.json migrate copy.json >out &&
	store_kept sh.json &&
	holds "nothing new to import" out
'

test_expect 'data.json: the flat history and conversationData, both imported' '
	convctl -s d.json migrate "$F/data.json" >out &&
	has_line "imported 3 conversations (7 messages) from 1 source" out &&
	jq -r --slurpfile src "$F/data.json" "([.conversations[].id] | tojson),
	    ([.conversations[1], .conversations[2]] | tojson |
	    if . == (\$src[0].conversationData.conversations | tojson)
	    then \"conversationData as it is\" else . end),
	    .conversations[0].summary" d.json >got &&
	want_is got <<-END
	["conv-migrated-$NOW_MS","conv-1768900000000","conv-1769000000000"]
	conversationData as it is
	Migrated 2 recent conversations from previous format.
	Tools used: create_file, read_file, edit_file
	END
'

test_expect 'data.json: the plugin'\''s settings (an API key) are not copied' '
	lacks "sk-ant" d.json
'

test_expect 'a bare PersistedConversations (or another store) loads as it is' '
	jq -c ".conversationData, (.conversationData |
	    .conversations[1].messages[0].timestamp = \"yesterday\"),
	    .conversationData.conversations" "$F/data.json" >pc.all &&
	{ read -r pc && read -r pc_bad && read -r pc_convs; } <pc.all &&
	printf "%s\n" "$pc" >pc.json && printf "%s\n" "$pc_bad" >pc-bad.json &&
	convctl -s pc-store.json migrate pc.json >out &&
	holds "pc.json: smarthole, 2 conversations, 3 messages" out &&
	jq_is pc-store.json -c .conversations "$pc_convs" &&
	fails_with 1 convctl -s pc-store2.json migrate pc-bad.json &&
	stderr_has "'\''pc-bad.json'\'': conversations[1].messages[0].timestamp: not an ISO 8601 time from 1970 on: '\''yesterday'\''"
'

test_expect 'a directory holding the store does not import the store' '
	convctl -s here/store.json add "hi" >/dev/null &&
	copy_text "$F/messages.json" here/chat.json &&
	convctl -s here/store.json migrate here >out &&
	has_line "imported 1 conversation (8 messages) from 1 source" out &&
	lacks "store.json:" out
'

test_expect 'links in a directory: each directory read once, a loop named and skipped' '
	use_store loops &&
	python3 -c "import os, shutil, sys
f = sys.argv[1]
os.makedirs(\"loops/proj/deep\")
shutil.copy(f + \"/sessions/sess-9f3e.jsonl\", \"loops/\")
shutil.copytree(f + \"/sessions/sess-2b61\", \"loops/sess-2b61\")
shutil.copy(f + \"/messages.json\", \"loops/proj/chat.json\")
for i in range(1, 21):
    os.symlink(\".\", \"loops/self%d\" % i)
os.symlink(\"../..\", \"loops/proj/deep/up\")
os.symlink(\"proj\", \"loops/proj2\")" "$F" &&
	convctl migrate loops >out 2>err &&
	has_line "imported 3 conversations (16 messages) from 3 sources" out &&
	lacks "the same bytes" out &&
	has_line "convctl: migrate: '\''loops/self1'\'': a loop, back to '\''loops'\'', which holds it: skipped" err &&
	has_line "convctl: migrate: '\''loops/self20'\'': a loop, back to '\''loops'\'', which holds it: skipped" err &&
	has_line "convctl: migrate: '\''loops/proj/deep/up'\'': a loop, back to '\''loops'\'', which holds it: skipped" err &&
	has_line "convctl: migrate: '\''loops/proj2'\'': the same directory as '\''loops/proj'\'', read already: skipped" err &&
	lines_are 22 err &&
	store_is "$CONVCTL_STORE" -c "[.conversations[].id] | sort" "[\"conv-1772359200000\",\"sess-2b61\",\"sess-9f3e\"]"
'

test_expect 'messages: one conversation; tool calls, parts and bare strings' '
	convctl -s m.json migrate "$F/messages.json" >out &&
	holds "messages, 1 conversation, 8 messages" out &&
	convctl -s m.json show --format json conv-1772359200000 >c.json &&
	jq_is c.json -c "[.messages[] | [.role, .timestamp]]" "[[\"system\",\"2026-03-01T10:00:00.000Z\"],[\"user\",\"2026-03-01T10:00:05.000Z\"],[\"assistant\",\"2026-03-01T10:00:06.120Z\"],[\"tool\",\"2026-03-01T10:00:07.000Z\"],[\"tool\",\"2026-03-01T10:00:07.300Z\"],[\"assistant\",\"2026-03-01T10:00:09.000Z\"],[\"user\",\"2026-03-01T10:01:40.000Z\"],[\"assistant\",\"2026-06-01T12:00:00.000Z\"]]" \
	    -c ".messages[2].toolsUsed" "[\"get_weather\",\"convert_units\"]" \
	    -r ".messages[2].content" "" \
	    -r ".messages[2].tool_calls[1].id" call_def456 \
	    -r ".messages[3].tool_call_id" call_abc123 \
	    -r ".messages[3].name" get_weather \
	    -r ".messages[5].content" "It is 4 °C and snowing in Zürich.
20 °C is 68 °F." \
	    -r ".messages[6].contentParts[1].type" image_url \
	    -r ".messages[7].content" "A grey cat asleep on a keyboard — 🐱." \
	    -r .endedAt 2026-06-01T12:00:00.000Z
'

test_expect 'messages without a time get the import time, in order' '
	printf "[\"first\", {\"role\": \"user\", \"content\": \"second\"}, \"third\"]" >nt.json &&
	convctl -s nt-store.json migrate nt.json >/dev/null &&
	jq_is nt-store.json -c "[.conversations[0].messages[] | [.content, .timestamp]]" "[[\"first\",\"2026-06-01T12:00:00.000Z\"],[\"second\",\"2026-06-01T12:00:00.000Z\"],[\"third\",\"2026-06-01T12:00:00.000Z\"]]"
'

test_expect 'jsonl: a directory of sessions, one conversation each, named by session' '
	convctl -s j.json migrate "$F/sessions" >out &&
	has_line "imported 2 conversations (8 messages) from 2 sources" out &&
	jq_is j.json -c "[.conversations[].id]" "[\"sess-2b61\",\"sess-9f3e\"]" &&
	convctl -s j.json show --format json sess-2b61 >c.json &&
	jq_is c.json -r .startedAt 2026-04-02T08:00:01.000Z \
	    -r .endedAt 2026-04-02T08:00:10.000Z \
	    -r ".events[0].event_type" session_start
'

test_expect 'jsonl: one reply'\''s records merge; tool_name becomes toolsUsed' '
	jq_is c.json -c "[.messages[] | [.id, .role, .toolsUsed]]" "[[\"ev-1\",\"user\",null],[\"ev-2\",\"assistant\",[\"read_file\",\"grep\"]],[\"ev-4\",\"tool\",[\"grep\"]],[\"ev-5\",\"assistant\",[\"edit_file\"]],[\"ev-6\",\"assistant\",[\"run_tests\"]]]" \
	    -r ".messages[1].content" "Let me look at the test first.
And the parser itself." \
	    -r ".messages[1].merged[0].id" ev-3 \
	    -r ".messages[1].metadata.tokens" 12 \
	    -r ".messages[2].content | fromjson | .lines[1]" 57
'

test_expect 'jsonl: a torn last line is reported and skipped' '
	convctl -s t.json migrate "$F/torn.jsonl" >out 2>err &&
	read -r l <err &&
	case $l in
	"convctl: migrate: '\''$F/torn.jsonl'\'':3: the last line is torn"*) ;;
	*) echo "err: $l"; return 1 ;;
	esac &&
	lines_are 1 err &&
	holds "torn: 2 messages" out &&
	jq_is t.json -c "[.conversations[0].messages[].id]" "[\"r1\",\"r2\"]"
'

test_expect 'jsonl: a bad line that is not the last fails, naming line and column' '
	printf "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\": \"user\" \"content\"}\n{\"role\":\"user\",\"content\":\"b\"}\n" >mid.jsonl &&
	keep_store t.json &&
	fails_with 1 convctl -s t.json migrate mid.jsonl &&
	stderr_has "convctl: migrate: '\''mid.jsonl'\'':2:25: " &&
	store_kept t.json
'

test_expect 'chatsidian: a folder, ids and titles kept, times in ISO 8601' '
	convctl -s c.json migrate "$F/chatsidian" >out &&
	convctl -s c.json show --format json chat_1743500000000_garden >g.json &&
	jq_is g.json -r .title "Balcony garden 🌱" \
	    -r .startedAt 2025-04-01T09:33:20.000Z \
	    -r .endedAt 2025-04-01T09:49:20.000Z \
	    -r ".messages[1].timestamp" 2025-04-01T09:33:32.345Z \
	    -c ".messages[1].toolsUsed" "[\"createNote\"]" \
	    -r ".messages[1].toolResults[0].toolCallId" tc1 \
	    -c "[.tags, .folderId, .isStarred]" "[[\"garden\",\"home\"],\"folder-hobbies\",true]" &&
	convctl -s c.json show --format json chat_1743600000000_tax >tax.json &&
	jq_is tax.json -c ".messages[2].toolsUsed" "[\"searchFiles\",\"listFolder\"]"
'

test_expect 'aiwhisperer: one conversation per task with a history, titled by it' '
	convctl -s a.json migrate "$F/aiwhisperer.json" >out &&
	jq_is a.json -c "[.conversations[] | [.title, (.messages | length), .task.status]]" "[[\"task-7c1e\",5,\"completed\"],[\"task-9a02\",2,\"failed\"]]" \
	    -r ".conversations[0].planId" plan-2026-05-01 \
	    -c ".conversations[0].messages[2].toolsUsed" "[\"write_plan\"]" \
	    -r ".conversations[0].messages[4].role" assistant
'

test_expect 'every imported conversation loads and renders' '
	for s in sh d m j t c a; do
		convctl -s $s.json recent -n 100 >/dev/null || return 1
	done &&
	convctl -s j.json prompt >/dev/null &&
	convctl -s m.json show conv-1772359200000 >shown &&
	holds convert_units shown
'

test_expect '--dry-run says what it would import and leaves the store alone' '
	keep_store sh.json &&
	convctl -s sh.json migrate --dry-run "$F/chatsidian" >out &&
	store_kept sh.json &&
	has_line "would import 2 conversations (7 messages) from 2 sources" out &&
	convctl -s none.json migrate -n "$F/messages.json" >/dev/null &&
	test ! -e none.json
'

test_expect 'an id already in the store, not imported there, is a conflict: nothing imported' '
	sed "s/Balcony garden/Balcony garden, edited/; s/north-facing/south-facing/" "$F/chatsidian/garden.json" >again/garden.json &&
	copy_text "$F/chatsidian/tax.json" again/tax2.json && echo >>again/tax2.json &&
	jq "del(.imports)" c.json >c2.json && copy_text c2.json c.json &&
	keep_store c.json &&
	fails_with 1 convctl -s c.json migrate again &&
	stderr_has "'\''again/garden.json'\'': conversation '\''chat_1743500000000_garden'\'' is already in the store; nothing imported (--rename-conflicts imports it as '\''chat_1743500000000_garden-2'\'')" &&
	store_kept c.json
'

test_expect '--rename-conflicts imports it under a free id and says so' '
	convctl -s c.json migrate --rename-conflicts again >out &&
	holds "chat_1743500000000_garden-2: 4 messages (renamed from '\''chat_1743500000000_garden'\'')" out &&
	convctl -s c.json show --format json chat_1743500000000_garden-2 >g2.json &&
	jq_is g2.json -r .title "Balcony garden, edited 🌱" &&
	jq_is c.json -c ".conversations | length" 4
'

test_expect 'two sources in one run with one id conflict with each other' '
	copy_text "$F/chatsidian/garden.json" twin/a.json &&
	sed "s/north-facing/south-facing/" "$F/chatsidian/garden.json" >twin/b.json &&
	fails_with 1 convctl -s twin.json migrate twin &&
	stderr_has "'\''twin/b.json'\'': conversation '\''chat_1743500000000_garden'\'' is also in '\''twin/a.json'\''" &&
	test ! -e twin.json
'

test_expect '--split cuts a flat history at gaps longer than the idle timeout' '
	convctl -s sp.json migrate --split "$F/smarthole-history.json" >out &&
	jq_is sp.json -c "[.conversations[] | [.id, .title, (.messages | length), .startedAt, .endedAt]]" "[[\"conv-migrated-$NOW_MS\",\"Migrated Conversation History (1 of 2)\",4,\"2026-02-04T17:26:40.000Z\",\"2026-02-04T17:28:10.500Z\"],[\"conv-migrated-$NOW_MS-2\",\"Migrated Conversation History (2 of 2)\",4,\"2026-02-05T17:26:40.000Z\",\"2026-02-05T17:28:20.000Z\"]]" \
	    -r ".conversations[1].summary" "Migrated 2 recent conversations from previous format.
Tools used: read_file, write_file" \
	    -c ".conversations[0].summary | split(\"\n\") |
		any(startswith(\"Historical summaries:\"))" true
'

test_expect '--split cuts other formats too, the pieces named ID-2…' '
	convctl -s sp2.json --idle-timeout 1 migrate --split "$F/messages.json" >/dev/null &&
	jq_is sp2.json -c "[.conversations[] | [.id, (.messages | length), .splitFrom]]" "[[\"conv-1772359200000\",6,null],[\"conv-1772359200000-2\",1,\"conv-1772359200000\"],[\"conv-1772359200000-3\",1,\"conv-1772359200000\"]]"
'

test_expect 'the rolling limit applies after, and says when the import pushed some out' '
	convctl -s lim.json --max-conversations 1 migrate "$F/chatsidian" >out 2>err &&
	holds "removed 1 conversation, 1 of them just imported" err &&
	has_line "  chat_1743500000000_garden" err &&
	jq_is lim.json -c "[.conversations[].id]" "[\"chat_1743600000000_tax\"]"
'

test_expect 'SmartHole times in epoch milliseconds, numbers or strings, in every time field' '
	convctl -s ep.json migrate "$F/smarthole-epoch.json" >out &&
	jq_is ep.json -c "[.conversations[] | [.startedAt, .endedAt, [.messages[].timestamp]]]" "[[\"2025-02-04T17:26:40.000Z\",\"2025-02-04T17:28:10.500Z\",[\"2025-02-04T17:26:40.000Z\",\"2025-02-04T17:26:40.000Z\",\"2025-02-04T17:28:10.500Z\",\"2025-02-04T17:28:10.500Z\"]],[\"2025-02-04T20:13:20.000Z\",\"2025-02-04T20:14:21.250Z\",[\"2025-02-04T20:13:20.000Z\",\"2025-02-04T20:14:21.250Z\"]]]" \
	    -c ".conversations[0].summary | split(\"\n\") |
		any(. == \"- 2025-01-27T17:46:40.000Z to 2025-01-28T17:46:40.000Z (3 conversations): Planned the week'\''s meals.\")" true &&
	convctl -s ep.json show conv-1738700000000 >/dev/null &&
	printf "%s\n" "{\"recentConversations\": [{\"id\": 1, \"timestamp\": \"17386x\"," \
	    "\"userMessage\": \"a\", \"assistantResponse\": \"b\"}]}" >badtime.json &&
	fails_with 1 convctl -s ep2.json migrate -f smarthole badtime.json &&
	stderr_has "recentConversations[0].timestamp: expected an ISO 8601 time or epoch milliseconds" &&
	test ! -e ep2.json
'

test_expect 'a SmartHole conversationData of a newer version is refused, the store unchanged' '
	copy_text ep.json ep.before &&
	jq -c "(.conversationData.version = 9 |
	    .conversationData.conversations[0].id = \"conv-v9\"),
	    .conversationData.version = \"2\"" "$F/smarthole-epoch.json" >v.all &&
	{ read -r v9 && read -r vs; } <v.all &&
	printf "%s\n" "$v9" >v9.json && printf "%s\n" "$vs" >vs.json &&
	fails_with 1 convctl -s ep.json migrate v9.json &&
	stderr_has "'\''v9.json'\'': conversationData.version 9 is newer than this convctl reads (1)" &&
	lines_are 1 "$T/err" &&
	cmp ep.before ep.json &&
	fails_with 1 convctl -s ep.json migrate vs.json &&
	stderr_has "conversationData.version: expected a whole number from 1" &&
	echo "{\"version\": 9, \"conversations\": []}" >bare9.json &&
	fails_with 1 convctl -s ep.json migrate -f smarthole bare9.json &&
	stderr_has "version 9 is newer" &&
	cmp ep.before ep.json
'

test_expect 'the rolling limit: said before the write, counted by --dry-run' '
	convctl -s lim2.json --max-conversations 1 migrate --dry-run "$F/chatsidian" >out 2>err &&
	test ! -e lim2.json &&
	has_line "the rolling limit (max_conversations) would remove 1 oldest ended conversation, 1 of them imported here" out &&
	convctl -s lim2.json --max-conversations 1 migrate --dry-run --json "$F/chatsidian" >dry.out &&
	CONVCTL_MAX_CONVERSATIONS=1 convctl -s lim2.json migrate "$F/chatsidian" >out 2>err &&
	IFS= read -r first <err &&
	test "$first" = "convctl: migrate: importing 2 conversations takes the store past max_conversations (1, set by CONVCTL_MAX_CONVERSATIONS): the 1 oldest ended (1 of them imported here) is removed as it is written; see convctl-prune(1)" &&
	has_line "the rolling limit (max_conversations) removed 1 oldest ended conversation, 1 of them imported here" out &&
	convctl -s lim3.json migrate --json "$F/chatsidian" >out 2>err && test ! -s err &&
	jq -s -c "(.[0] | [.prunedCount, .prunedImported, .pruned]),
	    (.[1] | [.prunedCount, .prunedImported])" dry.out out >got &&
	want_is got <<-\END
	[1,1,["chat_1743500000000_garden"]]
	[0,0]
	END
'

test_expect '--json reports each source and conversation' '
	convctl -s js.json migrate --json "$F/sessions" >out &&
	convctl -s js.json migrate --json "$F/sessions" >again.out &&
	jq -s -c "(.[0] | [.dryRun, .conversations, .messages],
	    [.sources[] | [.format, .status, .conversations[0].id, .conversations[0].messages]]),
	    (.[1] | [[.sources[].status], .conversations])" out again.out >got &&
	want_is got <<-\END
	[false,2,8]
	[["jsonl","imported","sess-2b61",5],["jsonl","imported","sess-9f3e",3]]
	[["already-imported","already-imported"],0]
	END
'

test_expect 'thousands of entries import in one go, no progress line off a terminal' '
	sh "$top/tests/gen-smarthole.sh" 5000 >big.json &&
	convctl -s big-store.json migrate big.json >out 2>err &&
	test ! -s err &&
	has_line "imported 1 conversation (10000 messages) from 1 source" out &&
	jq_is big-store.json -c ".conversations[0].summary | split(\"\n\") |
	    any(. == \"Migrated 5000 recent conversations from previous format.\")" true &&
	convctl -s big-split.json migrate --split big.json >out &&
	has_line "imported 100 conversations (10000 messages) from 1 source" out
'

test_expect 'on a terminal, a large import shows a progress line on stderr' '
	python3 -c "import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)" \
	    "$CONVCTL_BIN" -s big-tty.json migrate big.json </dev/null >tty.out &&
	holds "convctl: migrate: reading '\''big.json'\'' 5000/5000" tty.out &&
	python3 -c "import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)" \
	    "$CONVCTL_BIN" -s small-tty2.json migrate "$F/messages.json" </dev/null >tty.out &&
	lacks reading tty.out
'

test_expect 'unknown format: a usage error that lists the formats' '
	keep_store sh.json &&
	fails_with 2 convctl -s sh.json migrate --format slack "$F/messages.json" &&
	stderr_has "unknown format '\''slack'\'' (expected smarthole, messages, jsonl, chatsidian, aiwhisperer, chatgpt, claude, codex, llm, convctl, markdown, claudeai, aider, gemini)" &&
	store_kept sh.json
'

test_expect 'a shape no format has: asks for --format, listing them' '
	echo "{\"hello\": 1}" >odd.json &&
	fails_with 1 convctl -s sh.json migrate odd.json &&
	stderr_has "'\''odd.json'\'': cannot tell its format; name it with --format (smarthole, messages, jsonl, chatsidian, aiwhisperer, chatgpt, claude, codex, llm, convctl, markdown, claudeai, aider, gemini)" &&
	store_kept sh.json
'

test_expect 'malformed JSON: file, line and column, store unchanged' '
	printf "{\n  \"recentConversations\": [\n    {\"id\": \"x\",, }\n  ]\n}\n" >broken.json &&
	fails_with 1 convctl -s sh.json migrate broken.json &&
	stderr_has "convctl: migrate: '\''broken.json'\'':3:16: " &&
	store_kept sh.json
'

test_expect 'wrong shapes name the JSON path, store unchanged' '
	# the bad sources made by one jq, a line each
	jq -n -c --slurpfile h "$F/smarthole-history.json" \
	    --slurpfile d "$F/data.json" --slurpfile tax "$F/chatsidian/tax.json" \
	    --slurpfile m "$F/messages.json" --slurpfile a "$F/aiwhisperer.json" "
	    (\$h[0] | del(.recentConversations[1].userMessage)),
	    (\$d[0] | .conversationHistory.recentConversations[0].timestamp = \"soon\"),
	    (\$d[0] | .conversationHistory = {}),
	    (\$d[0] | .conversationData.conversations[0].messages[1].role = \"robot\"),
	    (\$tax[0] | .messages[1].role = \"robot\"),
	    (\$m[0] | .[3].role = 7),
	    (\$tax[0] | .messages[2].toolCalls = {}),
	    (\$a[0] | .tasks[\"task-9a02\"].context_manager.history[1] = 3)" >bad.all &&
	for s in s1 s2 s8 s3 s9 s4 s5 s6; do
		IFS= read -r l && printf "%s\n" "$l" >$s.json || return 1
	done <bad.all &&
	fails_with 1 convctl -s sh.json migrate s1.json &&
	stderr_has "'\''s1.json'\'': recentConversations[1]: missing '\''userMessage'\''" &&
	fails_with 1 convctl -s sh.json migrate s2.json &&
	stderr_has "'\''s2.json'\'': conversationHistory.recentConversations[0].timestamp: expected an ISO 8601 time or epoch milliseconds" &&
	fails_with 1 convctl -s sh.json migrate s8.json &&
	stderr_has "'\''s8.json'\'': conversationHistory: missing '\''recentConversations'\''" &&
	fails_with 1 convctl -s sh.json migrate s3.json &&
	stderr_has "'\''s3.json'\'': conversationData.conversations[0].messages[1].role: unknown role '\''robot'\'' (expected user, assistant, system or tool)" &&
	fails_with 1 convctl -s sh.json migrate -f chatsidian s9.json &&
	stderr_has "'\''s9.json'\'': messages[1].role: unknown role '\''robot'\'' (expected user, assistant, system or tool)" &&
	printf "%s\n" "{\"role\": \"robot\", \"content\": \"a\"}" >s10.jsonl &&
	fails_with 1 convctl -s sh.json migrate s10.jsonl &&
	stderr_has "'\''s10.jsonl'\'': line 1: role: unknown role '\''robot'\'' (expected user, assistant, system or tool)" &&
	printf "%s\n" "{\"role\": 7, \"content\": \"a\"}" >s11.jsonl &&
	fails_with 1 convctl -s sh.json migrate s11.jsonl &&
	stderr_has "'\''s11.jsonl'\'': line 1: role: expected a string" &&
	fails_with 1 convctl -s sh.json migrate s4.json &&
	stderr_has "'\''s4.json'\'': [3].role: expected a string" &&
	fails_with 1 convctl -s sh.json migrate s5.json &&
	stderr_has "'\''s5.json'\'': messages[2].toolCalls: expected an array" &&
	fails_with 1 convctl -s sh.json migrate s6.json &&
	stderr_has "'\''s6.json'\'': tasks.task-9a02.context_manager.history[1]: expected a message object or a string" &&
	printf "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\"wizard\",\"content\":\"b\"}\n" >s7.jsonl &&
	fails_with 1 convctl -s sh.json migrate s7.jsonl &&
	stderr_has "'\''s7.jsonl'\'': line 2: role: unknown role '\''wizard'\''" &&
	store_kept sh.json
'

test_expect 'one bad file in a directory: nothing from the others either' '
	copy_text "$F/chatsidian/tax.json" mixed/a.json &&
	echo "{\"id\": \"x\", \"messages\": [{\"content\": \"hi\"}]}" >mixed/b.json &&
	keep_store c.json &&
	fails_with 1 convctl -s c.json migrate mixed &&
	stderr_has "'\''mixed/b.json'\'': messages[0].role: missing" &&
	store_kept c.json
'

test_expect '--format overrides what the name and content say' '
	copy_text "$F/sessions/sess-9f3e.jsonl" log.txt &&
	convctl -s f.json migrate --format jsonl log.txt >out &&
	holds "log.txt: jsonl, 1 conversation, 3 messages" out &&
	keep_store f.json &&
	fails_with 1 convctl -s f.json migrate --format chatsidian "$F/messages.json" &&
	stderr_has "expected a Chatsidian conversation object at the top" &&
	store_kept f.json
'

test_expect 'a file name that is not UTF-8 is imported and recorded' '
	printf "caf\351\n" >name && read -r name <name &&
	copy_text "$F/sessions/sess-9f3e.jsonl" "$name.jsonl" &&
	convctl -s l1.json migrate "$name.jsonl" >/dev/null &&
	jq_is l1.json -r ".conversations[0].id" "caf�" \
	    -c ".imports[0].file | endswith(\"/caf�.jsonl\")" true &&
	convctl -s l1.json migrate "$name.jsonl" >out &&
	holds "nothing new to import" out
'

test_expect 'a byte order mark at the start is skipped' '
	printf "\357\273\277[{\"role\": \"user\", \"content\": \"hi\"}]" >bom.json &&
	convctl -s bom-store.json migrate bom.json >out &&
	holds "bom.json: messages, 1 conversation, 1 message" out
'

test_expect 'a path that is not there, or an empty directory, fails cleanly' '
	fails_with 1 convctl -s e.json migrate nowhere.json &&
	stderr_has "cannot read '\''nowhere.json'\''" &&
	fails_with 1 convctl -s e.json migrate empty &&
	stderr_has "'\''empty'\'': no .json or .jsonl files in it" &&
	test ! -e e.json
'

test_expect 'an active conversation imported beside the store'\''s own is ended' '
	convctl -s act.json add "hello" >/dev/null &&
	convctl -s act.json migrate "$F/data.json" >/dev/null 2>err &&
	holds "conversation '\''conv-1769000000000'\'' was active; ended it at 2026-01-21T12:53:20.000Z" err &&
	jq_is act.json -c "[.conversations[] | select(.endedAt == null)] | length" 1
'

# --summarize: through the stub LLM server, and offline
. "$top/tests/llm-stub.sh"
OK='[{"reply": "TITLE: Groceries, a dinner and two tools\nSUMMARY: The user asked for errands. The assistant edited the lists."}]'
E401='[{"status": 401, "body": {"error": {"message": "Incorrect API key provided"}}}]'
HELD="[{\"wait_for\": \"$T/release\", \"reply\": \"TITLE: Held a while\nSUMMARY: It waited.\"}]"
# jq filters of the stored conversations: messages.json's, the SmartHole
# history's, data.json's two
MSGS='.conversations[] | select(.id == "conv-1772359200000")'
HIST='.conversations[] | select(.id == "conv-migrated-'$NOW_MS'")'
D1='.conversations[] | select(.id == "conv-1768900000000")'
D2='.conversations[] | select(.id == "conv-1769000000000")'

test_expect '--summarize --summarizer offline: what summarize makes, no request' '
	stub_script "$OK" &&
	convctl -s off.json migrate --summarize --summarizer offline \
	    "$F/messages.json" >out 2>err &&
	has_line "imported 1 conversation (8 messages) from 1 source" out &&
	test ! -s err &&
	jq_is off.json -c "[.conversations[].id]" "[\"conv-1772359200000\"]" &&
	convctl -s plain.json migrate "$F/messages.json" >/dev/null &&
	jq_is plain.json -c "$MSGS | .summary" null &&
	convctl -s plain.json summarize --summarizer offline conv-1772359200000 >/dev/null &&
	jq -c "$MSGS | [.title, .summary]" off.json plain.json >ts &&
	{ IFS= read -r off && IFS= read -r plain; } <ts &&
	test "$off" = "$plain" &&
	case $off in "[null,"*) echo "no title: $off"; return 1 ;; esac &&
	stub_count 0
'

test_expect '--summarize offline keeps SmartHole'\''s summary and a source'\''s own' '
	convctl -s keep.json migrate --summarize --summarizer offline \
	    "$F/smarthole-history.json" >/dev/null &&
	jq_is keep.json -r "$HIST | .title" "Migrated Conversation History" \
	    -r "$HIST | .summary | split(\"\n\")[0]" "Historical summaries:" &&
	convctl -s keep2.json migrate --summarize --summarizer offline \
	    "$F/data.json" >/dev/null &&
	jq_is keep2.json -r "$D1 | .title" "Weekly review"
'

test_expect '--summarize with a model: SmartHole'\''s made-up summary is replaced' '
	stub_script "$OK" &&
	CONVCTL_API_BASE=$STUB/v1 CONVCTL_MODEL=test-model \
	    convctl -s model.json migrate --summarize "$F/smarthole-history.json" >out &&
	stub_count 1 &&
	jq_is model.json -r "$HIST | .title" "Groceries, a dinner and two tools" \
	    -r "$HIST | .summary" "The user asked for errands. The assistant edited the lists." &&
	jq -n -r "input | .body.messages[1].content" "$STUB_LOG" >sent &&
	holds "Conversation conv-migrated-$NOW_MS, 8 messages" sent &&
	holds "Dinner with Aiko" sent
'

test_expect '--summarize with a model: a source'\''s summary and an active one are left' '
	stub_script "$OK" &&
	CONVCTL_API_BASE=$STUB/v1 convctl -s model2.json migrate --summarize \
	    "$F/data.json" >out 2>err &&
	stub_count 1 &&
	jq_is model2.json -r "$HIST | .title" "Groceries, a dinner and two tools" \
	    -r "$D1 | .title" "Weekly review" \
	    -c "$D2 | .endedAt" null -c "$D2 | .summary" null
'

test_expect '--summarize: a failed summary leaves the import, exit 3, pending' '
	stub_script "$E401" &&
	CONVCTL_API_BASE=$STUB/v1 CONVCTL_RETRIES=0 \
	    fails_with 3 convctl -s fail.json migrate --summarize "$F/messages.json" &&
	stderr_has "HTTP 401" && stderr_has "summarize --pending" &&
	jq_is fail.json -c "[.conversations[].id]" "[\"conv-1772359200000\"]" \
	    -c "$MSGS | .messages | length" 8 -c "$MSGS | .summary" null &&
	stub_script "$OK" &&
	CONVCTL_API_BASE=$STUB/v1 convctl -s fail.json summarize --pending >out &&
	has_line "conv-1772359200000	Groceries, a dinner and two tools" out &&
	keep_store fail.json &&
	convctl -s fail.json migrate --summarize "$F/messages.json" >out &&
	holds "skipped" out && store_kept fail.json
'

test_expect '--summarize --dry-run sends nothing and writes nothing' '
	stub_script "$OK" &&
	CONVCTL_API_BASE=$STUB/v1 convctl -s dry.json migrate -n --summarize \
	    "$F/messages.json" >out 2>err &&
	has_line "would import 1 conversation (8 messages) from 1 source" out &&
	holds "1 conversation would be summarized by the openai summarizer; nothing is sent" err &&
	stub_count 0 && test ! -e dry.json
'

test_expect '--summarize: a bad summarizer fails before anything is imported' '
	stub_script "$OK" &&
	fails_with 2 convctl -s bad.json migrate --summarize --summarizer gpt \
	    "$F/messages.json" &&
	stderr_has "unknown summarizer '\''gpt'\''" && test ! -e bad.json &&
	CONVCTL_API_BASE=ftp://example.com fails_with 1 convctl -s bad.json \
	    migrate --summarize "$F/messages.json" &&
	stderr_has "invalid CONVCTL_API_BASE '\''ftp://example.com'\''" &&
	test ! -e bad.json &&
	fails_with 1 convctl -s bad.json migrate --summarize --summarizer none \
	    "$F/messages.json" &&
	stderr_has "summaries are turned off" && test ! -e bad.json &&
	fails_with 2 convctl -s bad.json migrate --model m "$F/messages.json" &&
	stderr_has "--model goes with --summarize" && test ! -e bad.json &&
	stub_count 0
'

test_expect '--summarize holds no lock while the request is out' '
	{ stub_script "$HELD" && test ! -e "$T/release"; } || return 1
	{ CONVCTL_API_BASE=$STUB/v1 convctl -s held.json migrate --summarize \
	    "$F/messages.json" >out 2>err; echo $? >status; } &
	wait_for_request &&
	convctl -s held.json --wait 0 add "said meanwhile" >/dev/null &&
	: >"$T/release" && wait &&
	file_is 0 status &&
	jq_is held.json -c ".conversations[0].id" "\"conv-1772359200000\"" \
	    -r "$MSGS | .title" "Held a while" -c ".conversations | length" 2
'

test_expect 'migrate -h names every option' '
	convctl migrate -h >out &&
	for o in --format --dry-run --json --rename-conflicts --split \
	    --summarize --summarizer --model --api-base --verbose FILE\|DIR; do
		holds "$o" out || return 1
	done
'

test_done
