#!/bin/sh
# convctl migrate again: a message that did not come from the source (added
# with add, run or MCP, or edited since) is never removed nor changed, and
# what a re-import replaces is named, by id, before it is done (issue 40)
# check: sqlite (a re-import rewrites a conversation's messages from where the source parts: rows deleted and inserted, the search index kept)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
S=2b7c9e10-4f3a-4d6e-9a51-7c0ffee0b0b1
export CONVCTL_NOW=2026-06-01T12:00:00Z

# one more line of session $S, into $S.jsonl: uuid $1, time $2, content $3
session_line() {
	printf '{"type":"user","sessionId":"%s","uuid":"%s","timestamp":"%s","message":{"role":"user","content":"%s"}}\n' \
	    "$S" "$1" "$2" "$3" >>$S.jsonl
}

# the store's conversation $1 as lines: ID<tab>CONTENT (its start), then
# endedAt; an id convctl made (m-TIME-RANDOM) as m-ID
conv_lines() {
	store_jq "$CONVCTL_STORE" -r --arg id "$1" '.conversations[] |
	    select(.id == $id) | (.messages[] |
	    "\(.id | sub("^m-[0-9a-f-]*"; "m-ID"))\t\(.content | .[0:24])"),
	    "ended \(.endedAt)"'
}

test_expect 'a note and an exchange added to an imported session survive the session growing' '
	copy_text "$F/claude/-home-aiko-src-kiln/$S.jsonl" $S.jsonl &&
	convctl migrate $S.jsonl >/dev/null &&
	convctl resume $S >/dev/null &&
	convctl add "my own note" >/dev/null &&
	convctl run --prompt "what next?" -- sh -c "echo lower ki" sh >/dev/null &&
	CONVCTL_NOW=2026-06-01T12:05:00Z convctl end --no-summary >/dev/null &&
	session_line u-9 2025-09-15T07:00:00.000Z "It overshoots again." &&
	snapshot "$CONVCTL_STORE" &&
	convctl migrate --dry-run $S.jsonl >dry 2>dryerr &&
	unchanged "$CONVCTL_STORE" &&
	convctl migrate --dry-run --json $S.jsonl >dry.json 2>/dev/null &&
	convctl migrate $S.jsonl >out 2>err &&
	lacks replaced dryerr err dry &&
	has_line "  $S: 1 new message, would be added (imported before, grown since)" dry &&
	has_line "  $S: 3 messages not from the source (added or edited since) kept" dry &&
	jq_is dry.json -c ".sources[0].grown" "[{\"id\":\"$S\",\"messages\":1,\"replaced\":[],\"kept\":3}]" &&
	has_line "  $S: 1 new message, added (imported before, grown since)" out &&
	conv_lines $S >got &&
	lines_are 11 got &&
	{ i=0 && while [ $i -lt 6 ] && read -r l; do i=$((i + 1)); done &&
	  while IFS= read -r l; do printf "%s\n" "$l"; done; } <got >tail &&	# its last 5
	printf "u-9\tIt overshoots again.\nm-ID\tmy own note\nm-ID\twhat next?\nm-ID\tlower ki\nended 2026-06-01T12:05:00.000Z\n" >want &&
	same_file want tail
'

test_expect 'a message edited since is kept as edited, and not imported again beside it' '
	convctl edit $S a6c1f0de-0000-4000-8000-000000000008 "Thanks, in my words." &&
	session_line u-10 2025-09-16T07:00:00.000Z "Still fine." &&
	convctl migrate --json $S.jsonl >out.json 2>err &&
	lacks replaced err &&
	jq_is out.json -c ".sources[0].grown" "[{\"id\":\"$S\",\"messages\":1,\"replaced\":[],\"kept\":4}]" &&
	conv_lines $S >got &&
	has_line "a6c1f0de-0000-4000-8000-000000000008	Thanks, in my words." got &&
	lacks "that fixed it" got &&
	has_line "u-10	Still fine." got &&
	line_ends "	my own note" got &&
	lines_are 12 got
'

test_expect 'an answer regenerated: --dry-run, --json and the report name the replaced message; a note added by MCP stays' '
	use_store regen &&
	convctl migrate "$F/chatgpt-trees/regenerated-before.json" >/dev/null &&
	convctl resume c-regen >/dev/null &&
	convctl mcp >mcp.out <<-\END &&
	{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"text":"remember the tram 28"}}}
	END
	holds "\"result\"" mcp.out && lacks "\"isError\":true" mcp.out &&
	convctl end --no-summary >/dev/null &&
	snapshot "$CONVCTL_STORE" &&
	convctl migrate --dry-run "$F/chatgpt-trees/regenerated-after.json" >dry 2>dryerr &&
	convctl migrate --dry-run --json "$F/chatgpt-trees/regenerated-after.json" >dry.json 2>/dev/null &&
	unchanged "$CONVCTL_STORE" &&
	has_line "  c-regen: 1 message from the source would be replaced by its current branch: '\''a-old'\''" dry &&
	line_ends "conversation '\''c-regen'\'': 1 message from the source would be replaced by its current branch: '\''a-old'\''" dryerr &&
	jq_is dry.json -c ".sources[0].grown" "[{\"id\":\"c-regen\",\"messages\":1,\"replaced\":[\"a-old\"],\"kept\":1}]" \
	    -c .dryRun true &&
	convctl migrate "$F/chatgpt-trees/regenerated-after.json" >out 2>err &&
	has_line "  c-regen: 1 message from the source replaced by its current branch: '\''a-old'\''" out &&
	line_ends "conversation '\''c-regen'\'': 1 message from the source replaced by its current branch: '\''a-old'\''" err &&
	conv_lines c-regen >got &&
	printf "q1\tThree days in Lisbon: wh\na-new\tDay 1 Baixa and Alfama, \nm-ID\tremember the tram 28\nended 2026-06-01T12:00:00.000Z\n" >want &&
	same_file want got
'

test_expect 'a store imported before messages were marked: nothing of it is taken out' '
	use_store legacy &&
	convctl migrate "$F/chatgpt-trees/regenerated-before.json" >/dev/null &&
	store_jq "$CONVCTL_STORE" "del(.conversations[].messages[].importHash)" >seed.json &&
	store_seed <seed.json &&
	convctl migrate "$F/chatgpt-trees/regenerated-after.json" >out 2>err &&
	lacks replaced out err &&
	conv_lines c-regen >got &&
	ids= && while IFS= read -r l; do ids="$ids${l%%	*} "; done <got &&	# cut -f1
	test "$ids" = "q1 a-old a-new ended 2025-02-04T17:27:40.000Z "
'

test_done
