#!/bin/sh
# convctl migrate: the conversations.json of claude.ai's data export
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
C=$F/claudeai/conversations.json
G=5f1c2a7e-0b1d-4c2e-9a3f-1e2d3c4b5a60
export CONVCTL_NOW=2026-06-01T12:00:00Z
use_store c
mkdir d || exit 1	# a directory a case fills

test_expect 'the export told by content: a conversation each, by uuid, titled by name; an empty one said and skipped' '
	convctl migrate "$C" >out 2>err &&
	has_line "$C: claudeai, 2 conversations, 8 messages" out &&
	holds "[2]: conversation '\''e9e9e9e9-0000-4000-8000-00000000dead'\'' has no message; skipped" err &&
	store_is "$CONVCTL_STORE" -c "[.conversations[] | [.id, .title, .startedAt, .endedAt]]" "[[\"$G\",\"Cone 6 glaze that won'\''t craze\",\"2025-08-02T09:14:03.655Z\",\"2025-08-02T09:18:06.250Z\"],[\"b2d4f6a8-1c3e-4a5b-8d7f-9e0a1b2c3d4e\",null,\"2025-08-03T18:00:00.000Z\",\"2025-08-03T18:00:09.000Z\"]]"
'

test_expect 'the export'\''s directory: its conversations; users.json, projects.json and memories.json said to hold none' '
	store_rm &&
	convctl migrate "$F/claudeai" >out 2>err &&
	has_line "$C: claudeai, 2 conversations, 8 messages" out &&
	has_line "$F/claudeai/users.json: claudeai, nothing to import in it; not recorded" out &&
	holds "'\''$F/claudeai/projects.json'\'': claude.ai'\''s projects.json, the projects'\'' instructions and documents: no conversations in it" err &&
	holds "'\''$F/claudeai/memories.json'\'': claude.ai'\''s memories.json, what Claude remembers of the person: no conversations in it" err &&
	holds "imported 2 conversations (8 messages) from 1 source" out &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].title" "Cone 6 glaze that won'\''t craze"
'

test_expect 'human is user; a tool_result its own tool message between the text before and after it; tool_use names the tool' '
	store_jq "$CONVCTL_STORE" -r ".conversations[0].messages |
	    ([.[] | [.id[-6:], .role, .timestamp, .toolsUsed]] | tojson),
	    (.[3:][] | .content)" >got &&
	want_is got <<-\END
	[["000001","user","2025-08-02T09:14:03.655Z",null],["000002","assistant","2025-08-02T09:14:09.412Z",null],["000003","user","2025-08-02T09:18:00.000Z",null],["000004","assistant","2025-08-02T09:18:06.250Z",["web_search"]],["0004-1","tool","2025-08-02T09:18:06.250Z",null],["0004-2","assistant","2025-08-02T09:18:06.250Z",null]]
	Let me look.
	Add silica to lower expansion.
	Digitalfire lists the same fix: add 5 silica.
	END
'

test_expect 'thinking kept, not said; attachments and files kept on the message; the text of the blocks, not the placeholder' '
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages[1] | [.content, .imported.content[0].type, .imported.content[0].thinking]" "[\"Crazing means the glaze shrinks more than the body.\",\"thinking\",\"Thermal expansion mismatch; raise silica, swap some feldspar.\"]" \
	    -c ".conversations[0].messages[0].imported | [.attachments[0].file_name, .attachments[0].extracted_content[-18:], .files[0].file_name]" "[\"recipe.txt\",\"+ Red iron oxide 1\",\"test-tile.jpg\"]" \
	    -r ".conversations[0].imported.account.uuid" 0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d \
	    -r ".conversations[1].messages[1].content" "Indefinitely, kept dry and dust-free."
'

test_expect 'blocks of which none is text: the message'\''s text, the blocks kept' '
	jq ".[1].chat_messages[1].content = [{\"type\": \"voice_note\", \"title\": \"Kiln\"}]" "$C" >voice.json &&
	use_store v &&
	convctl migrate voice.json >/dev/null 2>&1 &&
	store_is "$CONVCTL_STORE" -c ".conversations[1].messages[1] | [.role, .content, .imported.content[0].type]" "[\"assistant\",\"Indefinitely, kept dry and dust-free.\",\"voice_note\"]"
'

test_expect 'imported again: nothing; a conversation grown in a later export: only its new messages' '
	convctl migrate "$C" >out &&
	holds "nothing new to import" out &&
	jq ".[1].chat_messages += [{\"uuid\": \"c0ffee03-0000-4000-8000-000000000003\", \"sender\": \"human\", \"text\": \"And greenware?\", \"created_at\": \"2025-08-05T10:00:00Z\"}]" "$C" >later.json &&
	convctl migrate later.json >out &&
	has_line "  b2d4f6a8-1c3e-4a5b-8d7f-9e0a1b2c3d4e: 1 new message, added (imported before, grown since)" out &&
	store_is "$CONVCTL_STORE" -c "[.conversations[].messages[]] | length" 9 \
	    -r ".conversations[1].messages[2].content" "And greenware?" &&
	convctl migrate later.json >out &&
	holds "nothing new to import" out
'

test_expect 'a field of the wrong type: an error naming its JSON path; nothing stored' '
	store_rm &&
	jq -c ".[0].chat_messages[1].content[1].text = 7,
	    .[1].chat_messages[0].sender = \"system\",
	    .[1].chat_messages[1].content = [\"Indefinitely\"],
	    .[1].chat_messages[0].created_at = \"soon\"" "$C" >bad.all &&
	{ IFS= read -r b1 && IFS= read -r b2 && IFS= read -r b3 &&
	  IFS= read -r b4; } <bad.all &&
	printf "%s\n" "$b1" >bad.json &&
	fails_with 1 convctl migrate bad.json &&
	stderr_has "'\''bad.json'\'': [0].chat_messages[1].content[1].text: expected a string" &&
	printf "%s\n" "$b2" >bad.json &&
	fails_with 1 convctl migrate bad.json &&
	stderr_has "'\''bad.json'\'': [1].chat_messages[0].sender: unknown sender '\''system'\''" &&
	printf "%s\n" "$b3" >bad.json &&
	fails_with 1 convctl migrate bad.json &&
	stderr_has "'\''bad.json'\'': [1].chat_messages[1].content[0]: expected an object" &&
	printf "%s\n" "$b4" >bad.json &&
	fails_with 1 convctl migrate bad.json &&
	stderr_has "'\''bad.json'\'': [1].chat_messages[0].created_at: not a time" &&
	! store_exists
'

test_expect 'a torn export: an error naming line and column; --skip-bad goes on without it' '
	head -c 3000 "$C" >torn.json &&
	fails_with 1 convctl migrate torn.json &&
	stderr_has "'\''torn.json'\'':77:3: '\'']'\'' expected near end of file" &&
	copy_text torn.json d/a.json && copy_text "$C" d/conversations.json &&
	! store_exists &&
	convctl migrate --skip-bad d >out 2>err &&
	holds "skipped (--skip-bad): '\''d/a.json'\''" err &&
	holds "imported 2 conversations (8 messages)" out
'

test_expect '--format claudeai reads a file of another name, whole when it is not an array' '
	store_rm &&
	copy_text "$C" export.txt &&
	convctl migrate -f claudeai export.txt >out &&
	holds "export.txt: claudeai, 2 conversations, 8 messages" out &&
	echo "{}" >obj.json &&
	fails_with 1 convctl migrate -f claudeai obj.json &&
	stderr_has "'\''obj.json'\'': expected an array of conversations at the top (claude.ai'\''s conversations.json)"
'

test_done
