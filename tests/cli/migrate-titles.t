#!/bin/sh
# convctl migrate: a title the source gave is given, as one set with `title`
# is: summaries fill in the summary and keep it; only --force replaces it
. "$(dirname "$0")/../lib.sh"

F=$top/tests/fixtures/migrate
S=2b7c9e10-4f3a-4d6e-9a51-7c0ffee0b0b1
export CONVCTL_NOW=2026-06-01T12:00:00Z CONVCTL_SUMMARIZER=offline

titles() {	# each conversation's id, title and whether it has a summary
	store_json | jq -c '[.conversations[] | [.id, .title, (.summary != null)]]'
}

test_expect 'summarize --pending keeps every imported title, and writes the summaries' '
	convctl migrate "$F/chatgpt/conversations.json" >/dev/null &&
	convctl migrate "$F/claude" >/dev/null &&
	convctl migrate "$F/chatsidian/garden.json" >/dev/null &&
	titles >before &&
	grep -q "\"Sourdough starter schedule\",false" before &&
	grep -q "\"Fix the kiln controller'\''s PID overshoot\",false" before &&
	grep -q "\"Balcony garden 🌱\",false" before &&
	convctl summarize --pending >/dev/null &&
	titles >after &&
	sed "s/,false\]/,true]/g" before >want &&
	test_cmp want after
'

test_expect 'end, which summarizes the newest pending, keeps an imported title' '
	export CONVCTL_STORE=$(store_at e) &&
	convctl migrate "$F/chatgpt/conversations.json" >/dev/null &&
	convctl add "hello" >/dev/null && convctl end >/dev/null &&
	store_json | jq -r ".conversations[] | select(.id == \"6790a1b2-0000-4000-8000-00000000c0de\") | .title, (.summary != null)" >got &&
	printf "%s\n" "Sourdough starter schedule" true >want &&
	test_cmp want got
'

test_expect 'summarize --force replaces it, as it does a hand title' '
	convctl summarize --force 6790a1b2-0000-4000-8000-00000000c0de >/dev/null &&
	test "$(store_json | jq -r ".conversations[] | select(.id == \"6790a1b2-0000-4000-8000-00000000c0de\") | .title")" != "Sourdough starter schedule"
'

test_expect 'llm, markdown and convctl titles are kept too' '
	export CONVCTL_STORE=$(store_at m) &&
	convctl migrate "$F/llm/logs.json" >/dev/null &&
	printf "%s\n" "# Plans" "" "- **Id:** md-1" "- **Started:** 2026-05-01T10:00:00.000Z" \
	    "- **Ended:** 2026-05-01T10:00:00.000Z" "- **Messages:** 1" "" "### User · 2026-05-01T10:00:00.000Z" "" "Hello" >md.md &&
	convctl migrate md.md >/dev/null &&
	echo "{\"id\":\"cv-1\",\"title\":\"Kept\",\"startedAt\":\"2026-05-01T10:00:00.000Z\",\"endedAt\":\"2026-05-01T10:00:01.000Z\",\"messages\":[{\"id\":\"x\",\"role\":\"user\",\"content\":\"Hi\",\"timestamp\":\"2026-05-01T10:00:00.000Z\"}]}" >cv.json &&
	convctl migrate cv.json >/dev/null &&
	titles >before &&
	test "$(grep -o false before | wc -l)" -ge 3 &&
	convctl summarize --pending >/dev/null &&
	titles >after &&
	sed "s/,false\]/,true]/g" before >want &&
	test_cmp want after
'

test_expect 'a title migrate made itself (a SmartHole history) is not given: a summary may replace it' '
	export CONVCTL_STORE=$(store_at h) &&
	convctl migrate "$F/smarthole-history.json" >/dev/null &&
	test "$(store_json | jq -r ".conversations[0].titleByHand")" = null
'

test_done
