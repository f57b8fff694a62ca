#!/bin/sh
# idle-summary: a conversation the idle timeout ended gets its summary from
# the add (or run) that crossed the boundary (offline, or idle_summary =
# add), else from the next end; never with the lock held
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
. "$top/tests/llm-stub.sh"

OK='[{"reply": "TITLE: Milk on the grocery list\nSUMMARY: Milk was added."}]'

# a conversation left open at 10:00, then an add at 12:00 crossing the
# timeout; prints what the second add printed
cross() {
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Add milk to my groceries list" >/dev/null &&
	CONVCTL_NOW=2026-02-04T10:00:05Z convctl add --role assistant --tool edit_file "Added milk." >/dev/null &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl add "A new topic"
}
net() {		# the openai summarizer against the stub
	CONVCTL_API_BASE="$STUB/v1" CONVCTL_API_KEY=sk-test CONVCTL_MODEL=m "$@"
}

test_expect 'offline: the add that crosses the boundary summarizes the ended one' '
	use_store offline &&
	cross >out 2>err &&
	file_is conv-1770206400000 out && test ! -s err &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].endedAt" 2026-02-04T10:00:05.000Z \
	    -r ".conversations[0].title" "Add milk to my groceries list" \
	    -r ".conversations[0].summary | contains(\"Tools used: edit_file\")" true \
	    -r ".conversations[1].summary" null &&
	convctl summarize --pending --dry-run >pending && test ! -s pending
'

test_expect 'a network summarizer leaves it pending by default: no request in add' '
	use_store net && stub_script "$OK" &&
	net cross >out 2>err && test ! -s err &&
	stub_count 0 &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].summary" null
'

test_expect 'end summarizes the pending one too, besides the one it ends' '
	use_store net && stub_script "$OK" &&
	CONVCTL_NOW=2026-02-04T12:00:10Z net convctl end >out &&
	file_is conv-1770206400000 out &&
	stub_count 2 &&
	store_is "$CONVCTL_STORE" -r "[.conversations[] | select(.title == \"Milk on the grocery list\")] | length" 2
'

test_expect 'end with nothing active still summarizes the pending ones' '
	use_store none && stub_script "$OK" &&
	net cross >/dev/null &&
	CONVCTL_NOW=2026-02-04T12:00:10Z convctl end --no-summary >/dev/null &&
	stub_count 0 &&
	net convctl end >out 2>err &&
	holds "no active conversation" err && stub_count 2 &&
	store_is "$CONVCTL_STORE" -r "[.conversations[] | select(.summary == null)] | length" 0
'

test_expect 'end looks only among the 10 that ended last' '
	use_store window &&
	for h in 10 11 12 13 14 15 16 17 18 19 20 21; do
		CONVCTL_NOW=2026-02-04T$h:00:00Z convctl add "topic $h" >/dev/null &&
		CONVCTL_NOW=2026-02-04T$h:00:05Z convctl end --no-summary >/dev/null || return 1
	done &&
	CONVCTL_NOW=2026-02-04T22:00:00Z convctl add "the last one" >/dev/null &&
	stub_script "$OK" &&
	CONVCTL_NOW=2026-02-04T22:00:05Z net convctl end >/dev/null &&
	stub_count 10 &&
	store_is "$CONVCTL_STORE" -r "[.conversations[] | select(.summary == null) | .messages[0].content] | join(\",\")" "topic 10,topic 11,topic 12"
'

test_expect 'idle_summary = add: the add asks, after its write, with no lock held' '
	use_store add && export CONVCTL_IDLE_SUMMARY=add &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Add milk to my groceries list" >/dev/null &&
	stub_script "[{\"wait_for\": \"$T/release\", \"reply\": \"TITLE: Milk on the grocery list\nSUMMARY: Milk was added.\"}]" &&
	{ CONVCTL_NOW=2026-02-04T12:00:00Z net convctl add "A new topic" >out 2>err & } &&
	wait_for_request &&
	file_is conv-1770206400000 out &&
	CONVCTL_NOW=2026-02-04T12:00:01Z convctl --wait 0 add "while it asks" >/dev/null &&
	: >"$T/release" && wait &&
	test ! -s err && stub_count 1 &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].title" "Milk on the grocery list" \
	    -r ".conversations[1].messages | length" 2
'

test_expect 'idle_summary = add: a failed summary leaves it pending, the add done' '
	use_store fail &&
	stub_script "[{\"status\": 401, \"body\": {\"error\": {\"message\": \"bad key\"}}}]" &&
	CONVCTL_IDLE_SUMMARY=add CONVCTL_RETRIES=0 net cross >out 2>"$T/err" &&
	file_is conv-1770206400000 out &&
	stderr_has "bad key" &&
	stderr_has "warning: '\''conv-1770199200000'\'', ended by the idle timeout, has no summary yet (convctl summarize --pending)" &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].summary" null \
	    -r ".conversations[1].messages[0].content" "A new topic"
'

test_expect 'a bad idle_summary is a warning; the add is done, the summary pending' '
	use_store bad && stub_script "$OK" &&
	CONVCTL_IDLE_SUMMARY=sometimes net cross >out 2>"$T/err" &&
	stderr_has "warning: invalid CONVCTL_IDLE_SUMMARY '\''sometimes'\'': expected pending or add" &&
	stub_count 0 && store_is "$CONVCTL_STORE" -r ".conversations[0].summary" null
'

test_expect 'summarizer none: nothing is summarized' '
	use_store nosum &&
	CONVCTL_SUMMARIZER=none cross >/dev/null 2>err && test ! -s err &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].summary" null
'

test_expect 'offline: a run that crosses the boundary summarizes it, as add does' '
	use_store run &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Add milk to my groceries list" >/dev/null &&
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl run --prompt "A new topic" -- echo ok >out 2>err &&
	file_is "ok A new topic" out && test ! -s err &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].title" "Add milk to my groceries list" \
	    -r ".conversations[1].summary" null \
	    -r ".conversations[1].messages | length" 2
'
test_done
