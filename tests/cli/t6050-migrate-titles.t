#!/bin/sh
# convctl migrate: a title the source gave is given, as one set with `title`
# is: summaries fill in the summary and keep it; only --force replaces it
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
S=2b7c9e10-4f3a-4d6e-9a51-7c0ffee0b0b1
C=5f1c2a7e-0b1d-4c2e-9a3f-1e2d3c4b5a60		# claudeai/: its first conversation
export CONVCTL_NOW=2026-06-01T12:00:00Z CONVCTL_SUMMARIZER=offline

# each conversation's id, title and whether it has a summary
TITLES='[.conversations[] | [.id, .title, (.summary != null)]]'
# titles: TITLES, then TITLES once every conversation has a summary, then
# how many have none, a line each, in titles.out
titles() {
	store_jq "$CONVCTL_STORE" -c "$TITLES | ., map(.[2] = true),
	    (map(select(.[2] == false)) | length)" >titles.out
}
mkdir later || exit 1	# where a later export goes
# claude.ai's export renamed since, and renamed and grown, by one jq, a line
# each
jq -c ".[0].name = \"Cone 6 glaze, crazing fixed\",
    (.[0].name = \"Glaze notes\" | .[0].chat_messages += [.[0].chat_messages[-2] | .uuid = \"added-1\" | .text = \"And at cone 5?\" | .created_at = \"2025-08-03T09:00:00.000000Z\" | .content = [{\"type\": \"text\", \"text\": \"And at cone 5?\"}]])" \
    "$F/claudeai/conversations.json" >later.all &&
{ IFS= read -r renamed && IFS= read -r grown; } <later.all || exit 1

test_expect 'summarize --pending keeps every imported title, and writes the summaries' '
	convctl migrate "$F/chatgpt/conversations.json" >/dev/null &&
	convctl migrate "$F/claude" >/dev/null &&
	convctl migrate "$F/chatsidian/garden.json" >/dev/null &&
	titles && { IFS= read -r before && IFS= read -r want; } <titles.out &&
	printf "%s\n" "$before" >before &&
	holds "\"Sourdough starter schedule\",false" before &&
	holds "\"Fix the kiln controller'\''s PID overshoot\",false" before &&
	holds "\"Balcony garden 🌱\",false" before &&
	convctl summarize --pending >/dev/null &&
	store_is "$CONVCTL_STORE" -c "$TITLES" "$want"
'

test_expect 'end, which summarizes the newest pending, keeps an imported title' '
	use_store e &&
	convctl migrate "$F/chatgpt/conversations.json" >/dev/null &&
	convctl add "hello" >/dev/null && convctl end >/dev/null &&
	store_is "$CONVCTL_STORE" -r ".conversations[] | select(.id == \"6790a1b2-0000-4000-8000-00000000c0de\") | .title, (.summary != null)" "Sourdough starter schedule
true"
'

test_expect 'summarize --force replaces it, as it does a hand title' '
	convctl summarize --force 6790a1b2-0000-4000-8000-00000000c0de >/dev/null &&
	store_is "$CONVCTL_STORE" -c "[.conversations[] | select(.id == \"6790a1b2-0000-4000-8000-00000000c0de\") | .title] | length == 1 and .[0] != \"Sourdough starter schedule\"" true
'

test_expect 'llm, markdown and convctl titles are kept too' '
	use_store m &&
	convctl migrate "$F/llm/logs.json" >/dev/null &&
	printf "%s\n" "# Plans" "" "- **Id:** md-1" "- **Started:** 2026-05-01T10:00:00.000Z" \
	    "- **Ended:** 2026-05-01T10:00:00.000Z" "- **Messages:** 1" "" "### User · 2026-05-01T10:00:00.000Z" "" "Hello" >md.md &&
	convctl migrate md.md >/dev/null &&
	echo "{\"id\":\"cv-1\",\"title\":\"Kept\",\"startedAt\":\"2026-05-01T10:00:00.000Z\",\"endedAt\":\"2026-05-01T10:00:01.000Z\",\"messages\":[{\"id\":\"x\",\"role\":\"user\",\"content\":\"Hi\",\"timestamp\":\"2026-05-01T10:00:00.000Z\"}]}" >cv.json &&
	convctl migrate cv.json >/dev/null &&
	titles && { read -r before && IFS= read -r want && read -r n; } <titles.out &&
	test "$n" -ge 3 &&
	convctl summarize --pending >/dev/null &&
	store_is "$CONVCTL_STORE" -c "$TITLES" "$want"
'

test_expect 'a title migrate made itself (a SmartHole history) is not given: a summary may replace it' '
	use_store h &&
	convctl migrate "$F/smarthole-history.json" >/dev/null &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].titleByHand" null
'

test_expect 'a conversation renamed in a later export (claude.ai): the re-import retitles it, once; -n says it would' '
	use_store renamed &&
	convctl migrate "$F/claudeai/conversations.json" >/dev/null 2>&1 &&
	printf "%s\n" "$renamed" >later/conversations.json &&
	convctl migrate -n later/conversations.json >out &&
	has_line "  $C: would be retitled '\''Cone 6 glaze, crazing fixed'\'' (the source'\''s title was '\''Cone 6 glaze that won'\''t craze'\'')" out &&
	convctl migrate later/conversations.json >out &&
	has_line "  $C: retitled '\''Cone 6 glaze, crazing fixed'\'' (the source'\''s title was '\''Cone 6 glaze that won'\''t craze'\'')" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[] | select(.id == \"$C\") | [.title, .titleByHand, (.messages | length)]" "[\"Cone 6 glaze, crazing fixed\",true,6]" &&
	convctl migrate later/conversations.json >out &&
	holds "later/conversations.json: claudeai, imported before" out
'

test_expect 'renamed and grown at once: the new title and the new messages' '
	use_store grown &&
	convctl migrate "$F/claudeai/conversations.json" >/dev/null 2>&1 &&
	printf "%s\n" "$grown" >later/conversations.json &&
	convctl migrate later/conversations.json >out &&
	has_line "  $C: retitled '\''Glaze notes'\'' (the source'\''s title was '\''Cone 6 glaze that won'\''t craze'\'')" out &&
	has_line "  $C: 1 new message, added (imported before, grown since)" out &&
	store_is "$CONVCTL_STORE" -c ".conversations[] | select(.id == \"$C\") | [.title, (.messages | length)]" "[\"Glaze notes\",7]"
'

test_expect 'a title the user set since is kept, whatever the source renames it to' '
	use_store mine &&
	convctl migrate "$F/claudeai/conversations.json" >/dev/null 2>&1 &&
	convctl title "$C" "My glaze log" >/dev/null &&
	printf "%s\n" "$renamed" >later/conversations.json &&
	convctl migrate later/conversations.json >out &&
	lacks "retitled" out &&
	store_is "$CONVCTL_STORE" -r ".conversations[] | select(.id == \"$C\") | .title" "My glaze log"
'

test_expect 'the same rule for every format that gives a title: llm'\''s conversation_name' '
	use_store llm &&
	convctl migrate "$F/llm/logs.json" >/dev/null &&
	store_jq "$CONVCTL_STORE" -r "[.conversations[] | select(.title != null)][0] | .id, .title" >idt &&
	{ IFS= read -r id && IFS= read -r old; } <idt &&
	jq "map(if .conversation_id == \"$id\" then .conversation_name = \"Renamed in llm\" else . end)" "$F/llm/logs.json" >later/logs.json &&
	convctl migrate later/logs.json >out &&
	has_line "  $id: retitled '\''Renamed in llm'\'' (the source'\''s title was '\''$old'\'')" out &&
	store_is "$CONVCTL_STORE" -r ".conversations[] | select(.id == \"$id\") | .title" "Renamed in llm"
'

test_done
