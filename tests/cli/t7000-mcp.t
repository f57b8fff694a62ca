#!/bin/sh
# convctl mcp: the store over the Model Context Protocol, driven by the
# official TypeScript SDK's client (each tool's answer against the CLI's),
# and by raw lines for the protocol's error cases
# check: valgrind
# The SDK is installed once, by npm, under the caller's cache directory
# (read before lib.sh gives the test a HOME of its own)
sdk_cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/convctl-tests
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE
export CONVCTL_WRAPPER	# tests/helpers/mcp-session.py runs convctl under it
SDK_VERSION=1.32.2
sdk=$sdk_cache/mcp-sdk-$SDK_VERSION

# sdk_install: the SDK in $sdk, else $sdk_skip says why not
sdk_skip=
if [ ! -f "$sdk/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		sdk_skip="node and npm are not installed (scripts/install-deps test)"
	else
		mkdir -p "$sdk_cache" && tmp=$(mktemp -d "$sdk_cache/.sdk.XXXXXX") &&
		if npm_config_cache="$sdk_cache/npm" timeout 600 npm install \
		    --no-save --no-audit --no-fund --no-package-lock \
		    --prefix "$tmp" "@modelcontextprotocol/sdk@$SDK_VERSION" \
		    >"$T/npm.log" 2>&1; then
			# a run beside this one may have installed it first
			mv -T "$tmp" "$sdk" 2>/dev/null || rm -rf "$tmp"
		else
			rm -rf "$tmp"
			sdk_skip="npm could not install @modelcontextprotocol/sdk@$SDK_VERSION (offline?): $(tail -n 1 "$T/npm.log")"
		fi
	fi
fi

# test_sdk 'name' 'commands': a case that needs the SDK, skipped without it
test_sdk() {
	if [ -z "$sdk_skip" ]; then
		test_expect "$1" "$2"
	else
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: $sdk_skip"
	fi
}

# sdk_client CALLS OUT: the SDK's client runs `convctl mcp` and makes the
# calls; another vendor's program, so in a network namespace with only
# loopback when we may make one
uid=$(id -u)
sdk_client() {
	calls=$1 out=$2
	set -- node "$top/tests/helpers/mcp-client.cjs" "$sdk" "$calls" -- \
	    $CONVCTL_WRAPPER "$CONVCTL_BIN" mcp
	if [ "$uid" -eq 0 ] && command -v unshare >/dev/null; then
		unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@" >"$out"
	else
		"$@" >"$out"
	fi
}

# answer N FILE: the Nth line of FILE (1 the first), read by the shell
answer() {
	an_i=0
	while IFS= read -r an_line || [ -n "$an_line" ]; do
		an_i=$((an_i + 1))
		[ "$an_i" -lt "$1" ] || { printf '%s\n' "$an_line"; return 0; }
	done <"$2"
}

# answers FILE [--rawfile|--slurpfile NAME PATH]... N FILTER [N FILTER]...:
# answer N (the Nth line of FILE) gives FILTER true, as jq -e FILTER takes
# it (its last output neither false nor null), for each pair: all read by
# one jq, not one an answer (the options are jq's, a file as $NAME); a
# pair that does not hold is named, with the answer
answers() {
	as_file=$1 as_opts= as_prog= as_k=0
	shift
	while :; do
		case $1 in
		--rawfile | --slurpfile) as_opts="$as_opts $1 $2 $3"; shift 3 ;;
		*) break ;;
		esac
	done
	as_n=$(($# / 2))
	while [ "$as_k" -lt "$as_n" ]; do
		as_prog="$as_prog(if (\$a | length) < $1 then \"no answer $1\" else
		    \$a[$1 - 1] | try ([$2] | if length == 0 then \"no output\"
		    elif .[-1] then empty else \"gives \\(.[-1] | tojson)\" end)
		    catch \"fails: \\(.)\" end |
		    \"answer $1, \\(\$ARGS.positional[$as_k]): \\(.); the answer: \\(\$a[$1 - 1] | tojson)\"),"
		set -- "$@" "$2"
		shift 2
		as_k=$((as_k + 1))
	done
	jq -nr $as_opts "[inputs] as \$a | $as_prog empty" "$as_file" --args "$@" \
	    >"$T/.answers" && [ ! -s "$T/.answers" ] || {
		echo "answers $as_file:"
		cat "$T/.answers"
		return 1
	}
}

# an answer of the SDK's client that has structured content, and its text
# item that content as JSON (what the specification asks of such a tool)
jt='.structured != null and (.text | fromjson) == .structured'

store_seed "$S" <<'JSON'
{"version": 1, "conversations": [
 {"id": "conv-b", "startedAt": "2026-02-04T10:00:00.000Z", "endedAt": "2026-02-04T10:05:00.000Z",
  "title": "Groceries", "summary": "Added milk.", "tags": ["home"], "messages": [
  {"id": "m-1", "timestamp": "2026-02-04T10:00:00.000Z", "role": "user", "content": "Add milk"},
  {"id": "m-2", "timestamp": "2026-02-04T10:00:01.250Z", "role": "assistant",
   "content": "Added milk.", "toolsUsed": ["read_file", "edit_file"], "extra": {"k": [1, 2]}}]},
 {"id": "conv-a", "startedAt": "2026-02-04T11:00:00.000Z", "endedAt": "2026-02-04T11:30:00.000Z",
  "title": null, "summary": null, "messages": [
  {"id": "m-3", "timestamp": "2026-02-04T11:00:00.000Z", "role": "user", "content": "later, milk too"}]},
 {"id": "conv-c", "startedAt": "2026-02-05T09:00:00.000Z", "endedAt": null,
  "title": null, "summary": null, "messages": [
  {"id": "m-4", "timestamp": "2026-02-05T09:00:00.000Z", "role": "system", "content": "Be brief."},
  {"id": "m-5", "timestamp": "2026-02-05T09:00:01.000Z", "role": "user", "content": "Plan a trip to Lisbon, with a long answer please"},
  {"id": "m-6", "timestamp": "2026-02-05T09:00:02.000Z", "role": "assistant", "content": "Three days: Alfama, Belem, Sintra.", "toolsUsed": ["web_search"]}]}
]}
JSON

# table FILE: FILE made the lines of standard input (read by the shell: no
# cat a table)
table() {
	while IFS= read -r l; do printf '%s\n' "$l"; done >"$1"
}

# one session of the SDK's client for the cases that read the store: the
# tools, then (issue 44) conversations as resources and the prompt resume,
# through the SDK's own calls (which check each answer's shape), answers
# 16 to 22
table "$T/reads.jsonl" <<'EOF'
{"name":"search","arguments":{"query":"milk"}}
{"name":"search","arguments":{"query":"l[ai]","regex":true,"role":"user","since":"2026-02-04T10:30:00Z","limit":5}}
{"name":"recent","arguments":{}}
{"name":"recent","arguments":{"limit":1,"tag":"home"}}
{"name":"show","arguments":{"id":"conv-b"}}
{"name":"show","arguments":{"format":"markdown"}}
{"name":"show","arguments":{"id":"conv-b","format":"json"}}
{"name":"context","arguments":{}}
{"name":"context","arguments":{"format":"openai","last":1}}
{"name":"context","arguments":{"id":"conv-b","format":"jsonl"}}
{"name":"context","arguments":{"format":"markdown","max_tokens":40}}
{"name":"recent","arguments":{"limit":"ten"}}
{"name":"add","arguments":{}}
{"name":"show","arguments":{"id":"conv-404"}}
{"method":"resources/list"}
{"method":"resources/templates/list"}
{"method":"resources/read","params":{"uri":"convctl://conversation/conv-b"}}
{"method":"resources/read","params":{"uri":"convctl://conversation/conv-b.json"}}
{"method":"prompts/list"}
{"method":"prompts/get","params":{"name":"resume","arguments":{"last":"1"}}}
{"method":"prompts/get","params":{"name":"resume","arguments":{"id":"conv-b","max_tokens":"100"}}}
EOF

test_sdk 'the SDK client connects, pings and lists the eight tools' '
	keep_store "$S" &&
	sdk_client "$T/reads.jsonl" reads.out 2>reads.err &&
	answers reads.out 1 ".server.name == \"convctl\" and
	    .capabilities.tools != null and
	    .tools == [\"search\",\"recent\",\"show\",\"context\",\"add\",\"end\",\"title\",\"tag\"]" &&
	lines_are 22 reads.out && store_kept "$S"
'

test_sdk 'search answers what convctl search --json answers, its text that JSON' '
	convctl search --json milk >s2.json &&
	convctl search --json -E -r user --since 2026-02-04T10:30:00Z -n 5 "l[ai]" >s3.json &&
	answers reads.out --slurpfile s2 s2.json --slurpfile s3 s3.json \
	    2 "$jt" 2 "[.structured.hits] == \$s2" \
	    3 "$jt" 3 "[.structured.hits] == \$s3" 3 ".structured.hits | length == 2"
'

test_sdk 'recent answers what convctl recent --json answers, its text that JSON' '
	convctl recent --json >r4.json && convctl recent -n 1 --tag home --json >r5.json &&
	answers reads.out --slurpfile r4 r4.json --slurpfile r5 r5.json \
	    4 "$jt" 4 "[.structured.conversations] == \$r4" \
	    5 "$jt" 5 "[.structured.conversations] == \$r5"
'

# issue 44: Claude Code and Codex give their model the structured content
# and drop the text; show and context answer the text alone, so the format
# asked for is what the model reads
test_sdk 'show answers what convctl show prints in the format asked for, alone' '
	convctl show conv-b >t6 && convctl show --format markdown >t7 &&
	convctl show conv-b --format json >t8 &&
	answers reads.out --rawfile t6 t6 --rawfile t7 t7 --rawfile t8 t8 \
	    6 ".text == \$t6" 7 ".text == \$t7" 8 ".text == \$t8" \
	    6 ".structured == null" 7 ".structured == null" 8 ".structured == null"
'

test_sdk 'context answers what convctl prompt prints in the format asked for, alone' '
	convctl prompt >t9 && convctl prompt --format openai --last 1 >t10 &&
	convctl prompt conv-b --format jsonl >t11 &&
	convctl prompt --format markdown --max-tokens 40 >t12 &&
	answers reads.out --rawfile t9 t9 --rawfile t10 t10 --rawfile t11 t11 --rawfile t12 t12 \
	    9 ".text == \$t9" 10 ".text == \$t10" 11 ".text == \$t11" 12 ".text == \$t12" \
	    9 ".structured == null" 10 ".structured == null" 11 ".structured == null" \
	    12 ".structured == null" \
	    12 ".text | test(\"(^|\\n)Three days\") and (contains(\"Plan a trip\") | not)"
'

test_sdk 'bad arguments are tool errors naming the argument; the session goes on' '
	answers reads.out \
	    13 ".isError and (.text | test(\"argument .limit. expects a whole number\"))" \
	    14 ".isError and .text == \"missing argument '\''text'\''\"" \
	    15 ".isError and (.text | startswith(\"no conversation '\''conv-404'\'' in \"))"
'

test_sdk 'resources list the conversations newest first and read one as show prints it; resume gives prompt --last as messages' '
	convctl show conv-b --format markdown >md && convctl show conv-b --format json >js &&
	convctl prompt --json --last 1 >last.json &&
	answers reads.out --rawfile md md --rawfile js js --slurpfile last last.json \
	    1 ".capabilities.resources != null and .capabilities.prompts != null" \
	    16 "[.result.resources[].uri] == [\"convctl://conversation/conv-c\", \"convctl://conversation/conv-a\", \"convctl://conversation/conv-b\"] and
	    (.result.resources[2] | .title == \"Groceries\" and .description == \"Added milk.\" and .mimeType == \"text/markdown\") and
	    (.result | has(\"nextCursor\") | not)" \
	    17 "[.result.resourceTemplates[].uriTemplate] == [\"convctl://conversation/{id}\", \"convctl://conversation/{id}.json\"]" \
	    18 ".result.contents[0] | select(.mimeType == \"text/markdown\") | .text == \$md" \
	    19 ".result.contents[0] | select(.mimeType == \"application/json\") | .text == \$js" \
	    20 ".result.prompts[0].name == \"resume\" and [.result.prompts[0].arguments[].name] == [\"id\", \"last\", \"max_tokens\"]" \
	    21 "[.result.messages] == (\$last | map([.[] | {role: (if .role == \"assistant\" then \"assistant\" else \"user\" end),
	    content: {type: \"text\", text: (if .role == \"user\" or .role == \"assistant\" then .content else \"[\\(.role)] \\(.content)\" end)}}]))" \
	    21 ".result.messages | length == 2 and .[0].content.text == \"[system] Be brief.\"" \
	    22 ".result.messages | map(.content.text) == [\"Add milk\", \"Added milk.\"]" &&
	store_kept "$S"
'

# the writing tools against the commands, with the same clock, on two stores
use_store mcpwrites && W1=$CONVCTL_STORE && use_store cliwrites && W2=$CONVCTL_STORE
CONVCTL_STORE=$S
export CONVCTL_NOW=2026-03-01T09:00:00Z
id=conv-1772355600000
table "$T/writes.jsonl" <<EOF
{"name":"add","arguments":{"text":"Plan a trip"}}
{"name":"add","arguments":{"text":"Lisbon it is","role":"assistant","tools":["web_search","maps"]}}
{"name":"title","arguments":{"id":"$id","title":"Trip"}}
{"name":"tag","arguments":{"id":"$id","tags":["travel","2026"]}}
{"name":"tag","arguments":{"id":"$id","tags":["2026"],"remove":true}}
{"name":"end","arguments":{}}
{"name":"end","arguments":{}}
EOF

test_sdk 'add, title, tag and end answer and write what the commands do (end summarizes one left pending too)' '
	for s in "$W1" "$W2"; do
		CONVCTL_STORE=$s CONVCTL_NOW=2026-02-28T09:00:00Z convctl add "Old question" >/dev/null &&
		CONVCTL_STORE=$s CONVCTL_NOW=2026-02-28T09:00:00Z convctl end --no-summary >/dev/null || return 1
	done &&
	CONVCTL_STORE=$W1 sdk_client "$T/writes.jsonl" writes.out 2>writes.err &&
	export CONVCTL_STORE="$W2" &&
	convctl add "Plan a trip" >c1 &&
	convctl add -r assistant --tool web_search --tool maps "Lisbon it is" >c2 &&
	convctl title $id Trip >c3 && convctl tag $id travel 2026 >c4 &&
	convctl tag --json $id travel 2026 >c4.json &&
	convctl tag --remove $id 2026 >c5 && convctl tag --json --dry-run $id travel >c5.json &&
	convctl end >c6 && convctl end >c7 2>c7.err &&
	file_is "$id" c1 && file_is "$id" c2 && file_is "$id" c6 &&
	answers writes.out --slurpfile c4 c4.json --slurpfile c5 c5.json \
	    2 "$jt" 3 "$jt" 4 "$jt" 5 "$jt" 6 "$jt" 7 "$jt" 8 "$jt" \
	    2 ".structured == {id: \"$id\"}" \
	    3 ".structured == {id: \"$id\"}" \
	    4 ".structured == {id: \"$id\", title: \"Trip\"}" \
	    5 "[.structured.tags] == \$c4" \
	    6 "[.structured.tags] == \$c5" \
	    7 ".structured == {id: \"$id\", summaryPending: false}" \
	    8 ".structured.id == null and .isError == false" &&
	has_line "convctl: mcp: no active conversation" writes.err &&
	store_jq "$W1" -S "del(.conversations[].messages[].id)" >w1.json &&
	store_jq "$W2" -S "del(.conversations[].messages[].id)" >w2.json &&
	same_file w2.json w1.json &&
	jq -e "(.conversations[] | select(.id == \"$id\") | .title == \"Trip\" and .summary != null and .tags == [\"travel\"]) and
	    (.conversations[0] | .id != \"$id\" and .summary != null)" w1.json >/dev/null
'
unset CONVCTL_NOW

# mcp_in: convctl mcp reads the file in: its answers in out, its
# diagnostics in err, its exit status in rc (a file, not a pipe: no process
# before it)
mcp_in() {
	rc=0
	convctl mcp <in >out 2>err || rc=$?
}
# mcp_lines LINE...: the lines to convctl mcp, through in and mcp_in
mcp_lines() {
	printf "%s\n" "$@" >in
	mcp_in
}
ping='{"jsonrpc":"2.0","id":7,"method":"ping"}'
call() { # NAME ARGUMENTS [ID]: the line of a tools/call (a { ...; } >in gathers them)
	printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "${3:-1}" "$1" "$2"
}

test_expect 'a line that is not JSON gets -32700, and the server goes on' '
	mcp_lines "garbage" "{\"jsonrpc\":" "$ping" && test $rc -eq 0 &&
	answers out 1 ".id == null and .error.code == -32700" \
	    2 ".id == null and .error.code == -32700" \
	    3 ".id == 7 and .result == {}" && lines_are 3 out
'

test_expect 'an unknown method gets -32601; a notification gets no answer' '
	mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"resources/subscribe\"}" \
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}" \
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}" "$ping" &&
	answers out 1 ".id == \"a\" and .error.code == -32601 and (.error.message | test(\"resources/subscribe\"))" \
	    2 ".id == 7" && lines_are 2 out
'

test_expect 'a message that is not a request object gets -32600' '
	mcp_lines "[$ping]" "{\"id\":1,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}" "3" &&
	answers out 1 ".error.code == -32600" 2 ".error.code == -32600" \
	    3 ".error.code == -32600" 4 ".error.code == -32600"
'

test_expect 'an id JSON allows but no request may have gets -32600 with id null, not -32700' '
	mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890123,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":-1E-400,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"ping\"}" &&
	idbad=".id == null and .error.code == -32600 and (.error.message | test(\"id must be\"))" &&
	answers out 1 "$idbad" 2 "$idbad" 3 "$idbad" 4 "$idbad" &&
	answer 5 out >a5 && holds "\"id\":9223372036854775807,\"result\":{}" a5 &&
	lines_are 5 out
'

test_expect 'numbers past jansson'\''s range in arguments are bad arguments, not bad JSON' '
	{ call recent "{\"limit\":1e400}" 1
	  call search "{\"query\":123456789012345678901234567890}" 2
	  call add "{\"text\":1e400}" 3; } >in && mcp_in &&
	answers out 1 ".id == 1 and .result.isError and .result.content[0].text == \"argument '\''limit'\'' expects a whole number from 0 to 100000000, not 1e400\"" \
	    2 ".id == 2 and .result.isError and .result.content[0].text == \"argument '\''query'\'' expects a string, not 123456789012345678901234567890\"" \
	    3 ".id == 3 and .result.isError and .result.content[0].text == \"argument '\''text'\'' expects a string, not 1e400\""
'

test_expect 'a blank or whitespace-only line is no message: no answer, and the next is answered' '
	printf "\n \t \n\r\n%s\n\n" "$ping" >in && convctl mcp <in >out 2>err &&
	lines_are 1 out && answers out 1 ".id == 7 and .result == {}" &&
	test ! -s err
'

test_expect 'names are whole strings: a NUL in a method, jsonrpc, tool, argument or value name matches nothing' '
	keep_store "$S" &&
	{ printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\\u0000xyz\",\"params\":{\"name\":\"recent\"}}" \
	    "{\"jsonrpc\":\"2.0\\u0000\",\"id\":2,\"method\":\"ping\"}"
	  call "recent\\u0000x" "{}" 3
	  call recent "{\"limit\\u0000x\":1}" 4
	  call show "{\"format\":\"json\\u0000x\"}" 5
	  call add "{\"text\":\"x\",\"role\":\"user\\u0000x\"}" 6
	  call add "{\"text\":\"x\",\"tools\":[\"a\\u0000b\"]}" 7
	  printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\\u0000x\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\\u0000\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\\u0000\",\"params\":[]}"; } >in && mcp_in &&
	answers out 1 ".id == 1 and .error.code == -32601 and .error.message == \"method not found: '\''tools/call\\\\u0000xyz'\''\"" \
	    2 ".id == 2 and .error.code == -32600" \
	    3 ".id == 3 and .error.code == -32602 and .error.message == \"unknown tool '\''recent\\\\u0000x'\''\"" \
	    4 ".id == 4 and .result.isError and .result.content[0].text == \"unknown argument '\''limit\\\\u0000x'\''\"" \
	    5 ".id == 5 and .result.isError and (.result.content[0].text | startswith(\"argument '\''format'\'' expects a string without a NUL character, not \"))" \
	    6 ".id == 6 and .result.isError and (.result.content[0].text | startswith(\"argument '\''role'\'' expects a string without a NUL character\"))" \
	    7 ".id == 7 and .result.isError and (.result.content[0].text | startswith(\"argument '\''tools'\'' expects an array of strings without a NUL character\"))" \
	    8 ".id == 8 and .result.protocolVersion == \"2025-11-25\"" \
	    9 ".id == 9 and .error.code == -32602 and .error.message == \"ping\\\\u0000: params must be an object\"" &&
	lines_are 9 out && store_kept "$S"
'

# a server each: answer N of all is the Nth version's
test_expect 'initialize agrees on the client'\''s version, else the newest' '
	: >all &&
	for v in 2025-11-25 2025-06-18 2025-03-26 2024-11-05 1999-01-01; do
		printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$v\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}" >in &&
		convctl mcp <in >>all || return 1
	done &&
	init=".result.capabilities.tools != null and .result.serverInfo.name == \"convctl\"" &&
	answers all 1 ".result.protocolVersion == \"2025-11-25\" and $init" \
	    2 ".result.protocolVersion == \"2025-06-18\" and $init" \
	    3 ".result.protocolVersion == \"2025-03-26\" and $init" \
	    4 ".result.protocolVersion == \"2024-11-05\" and $init" \
	    5 ".result.protocolVersion == \"2025-11-25\" and $init" && lines_are 5 all
'

test_expect 'bad arguments are isError answers naming the argument, nothing written' '
	keep_store "$S" &&
	{ call show "{\"format\":\"pdf\"}" 1; call search "{}" 2
	  call context "{\"last\":-1}" 3; call tag "{\"id\":\"conv-b\",\"tags\":[]}" 4
	  call add "{\"text\":\"x\",\"role\":\"robot\"}" 5; call add "{\"text\":\"\"}" 6
	  call recent "{\"bogus\":1}" 7; call search "{\"query\":\"(\",\"regex\":true}" 8
	  call nosuch "{}" 9; } >in && mcp_in &&
	answers out 1 ".result.isError and .result.content[0].text == \"argument '\''format'\'': unknown format '\''pdf'\'' (expected text, markdown or json)\"" \
	    2 ".result.isError and .result.content[0].text == \"missing argument '\''query'\''\"" \
	    3 ".result.isError and (.result.content[0].text | test(\"^argument .last.\"))" \
	    4 ".result.isError and (.result.content[0].text | test(\"^argument .tags.\"))" \
	    5 ".result.isError and (.result.content[0].text | . == \"argument '\''role'\'': unknown role '\''robot'\'' (expected user, assistant, system or tool)\")" \
	    6 ".result.isError and (.result.content[0].text | test(\"^argument .text.\"))" \
	    7 ".result.isError and .result.content[0].text == \"unknown argument '\''bogus'\''\"" \
	    8 ".result.isError and (.result.content[0].text | test(\"^argument .query.\"))" \
	    9 ".error.code == -32602 and (.error.message | test(\"nosuch\"))" &&
	store_kept "$S"
'

# issue 40: the limits of a query and of tags, each refused in the words
# the command line uses, before the store is locked
test_expect 'a request over the size limit is refused before it is all sent, then the next is answered' '
	CONVCTL_MAX_MESSAGE_BYTES=1000 python3 "$top/tests/helpers/mcp-session.py" too-large "$CONVCTL_BIN"
'

test_expect 'end of input ends the server, exit 0; a last line without a newline is answered' '
	convctl mcp </dev/null >out 2>err && test ! -s out && test ! -s err &&
	printf "%s" "$ping" >in && convctl mcp <in >out && answers out 1 ".id == 7"
'

test_expect 'standard output carries only protocol messages; diagnostics go to stderr' '
	use_store quiet &&
	{ call end "{}" 1; call add "{\"text\":\"one\"}" 2; call end "{}" 3
	  call add "{\"text\":\"two\"}" 4; call end "{}" 5; } >in &&
	CONVCTL_MAX_CONVERSATIONS=1 mcp_in &&
	test $rc -eq 0 && lines_are 5 out &&
	answers out 1 ".jsonrpc == \"2.0\" and .result != null" 2 ".jsonrpc == \"2.0\" and .result != null" \
	    3 ".jsonrpc == \"2.0\" and .result != null" 4 ".jsonrpc == \"2.0\" and .result != null" \
	    5 ".jsonrpc == \"2.0\" and .result != null" &&
	has_line "convctl: mcp: no active conversation" err &&
	line_like "convctl: mcp: removed 1 oldest ended conversation*" err
'

test_expect 'a clock behind the last message: add and end warn as the commands do' '
	use_store skew &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add first >/dev/null &&
	{ call add "{\"text\":\"second\"}" 1; call end "{}" 2; } >in &&
	CONVCTL_NOW=2026-02-04T09:00:00Z mcp_in &&
	test $rc -eq 0 && answers out 1 ".result.isError == false" \
	    2 ".result.structuredContent.id != null" &&
	printf "%s\n" "convctl: mcp: warning: the clock (2026-02-04T09:00:00.000Z) is 1h before the last message (2026-02-04T10:00:00.000Z); recorded at the last message'\''s time" \
	    "convctl: mcp: warning: the clock (2026-02-04T09:00:00.000Z) is 1h before the last message (2026-02-04T10:00:00.000Z); ended at the last message'\''s time" >want &&
	same_file want err
'

test_expect '--read-only lists and calls only the tools that read' '
	keep_store "$S" &&
	{ printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"
	  call add "{\"text\":\"x\"}" 2; call recent "{}" 3; } >in &&
	convctl mcp --read-only <in >out &&
	answers out 1 "[.result.tools[].name] == [\"search\",\"recent\",\"show\",\"context\"]" \
	    1 "all(.result.tools[]; .annotations.readOnlyHint and .inputSchema.type == \"object\")" \
	    1 "[.result.tools[] | select(.outputSchema.type == \"object\") | .name] == [\"search\",\"recent\"]" \
	    2 ".error.code == -32602 and (.error.message | test(\"read-only\"))" \
	    3 ".result.isError == false" && store_kept "$S"
'

test_expect 'the text asked for is the answer: show and context have no output schema, the others give their JSON as text too' '
	{ printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"
	  call context "{\"format\":\"markdown\"}" 2; call recent "{}" 3
	  call show "{\"id\":\"conv-b\",\"format\":\"markdown\"}" 4; } >in && mcp_in &&
	convctl prompt --format markdown >p2 && convctl show conv-b --format markdown >s4 &&
	answers out --rawfile p2 p2 --rawfile s4 s4 \
	    1 "[.result.tools[] | select(has(\"outputSchema\")) | .name] == [\"search\",\"recent\",\"add\",\"end\",\"title\",\"tag\"]" \
	    2 ".result | has(\"structuredContent\") | not" \
	    2 ".result.content[0].text == \$p2" \
	    2 ".result.content[0].text | test(\"(^|\\n)## \")" \
	    4 ".result.content[0].text == \$s4" \
	    3 "(.result.content[0].text | fromjson) == .result.structuredContent and (.result.structuredContent.conversations | length) > 0"
'

# many: 119 ended conversations (conv-001 ended first) and an active one
use_store many && many=$CONVCTL_STORE
CONVCTL_STORE=$S
{
	printf '{"version": 1, "conversations": ['
	i=1 sep=
	while [ $i -le 120 ]; do
		d=0$((1 + i / 24)) h=$((i % 24)) ended=null
		[ $h -gt 9 ] || h=0$h
		[ $i -eq 120 ] || ended="\"2026-01-${d}T$h:30:00.000Z\""
		printf '%s{"id": "conv-%03d", "startedAt": "2026-01-%sT%s:00:00.000Z", "endedAt": %s, "title": null, "summary": null, "messages": [{"id": "m-%d", "timestamp": "2026-01-%sT%s:00:00.000Z", "role": "user", "content": "message %d"}]}' \
		    "$sep" $i $d $h "$ended" $i $d $h $i
		sep=', ' i=$((i + 1))
	done
	printf ']}\n'
} >many-seed.json
store_seed "$many" <many-seed.json
list() { # [CURSOR]: resources/list's request
	if [ -n "${1:-}" ]; then set -- ",\"params\":{\"cursor\":\"$1\"}"; fi
	printf '{"jsonrpc":"2.0","id":1,"method":"resources/list"%s}\n' "${1:-}"
}

# page FILTER: the page in out read by one jq, FILTER's lines in page: the
# next cursor ("" for none) first; $cursor that cursor, the other lines
# added to all
page() {
	jq -r "$1" out >page || return 1
	{ read -r cursor && while IFS= read -r l; do printf "%s\n" "$l"; done >>all; } <page
}

test_expect 'resources/list walks a store in pages of 50 with the cursor, newest first, the active one first' '
	keep_store "$many" && : >all &&
	cursor= pages=0 &&
	while :; do
		list "$cursor" >in && CONVCTL_STORE=$many convctl mcp <in >out || return 1
		page "if (.result.resources | length) <= 50 then (.result.nextCursor // \"\"), .result.resources[].name
		    else error(\"a page of \\(.result.resources | length)\") end" &&
		pages=$((pages + 1)) && test -n "$cursor" || break
	done &&
	test $pages -eq 3 && lines_are 120 all &&
	i=120 && while [ $i -ge 1 ]; do printf "conv-%03d\n" $i; i=$((i - 1)); done >want &&
	same_file want all &&
	store_kept "$many"
'

# walk TOOL ARGS-JSON KEY: calls TOOL with ARGS and each nextCursor until
# there is none; each page's KEY items' ids in all, the pages in $pages
walk() {
	cursor= pages=0 && : >all &&
	while :; do
		args=$2 && [ -z "$cursor" ] || args="${2%\}},\"cursor\":\"$cursor\"}"
		call "$1" "$args" >in && CONVCTL_STORE=$many convctl mcp <in >out || return 1
		page "if .result.isError == false and (.result.content[0].text | fromjson) == .result.structuredContent
		    then (.result.structuredContent.nextCursor // \"\"), .result.structuredContent.$3[].id
		    else error(\"a bad page: \\(.)\") end" || return 1
		pages=$((pages + 1))
		[ -n "$cursor" ] || return 0
	done
}

test_expect 'recent and search walk a store in bounded pages with the cursor' '
	walk recent "{\"limit\":50}" conversations && test $pages -eq 3 &&
	CONVCTL_STORE=$many convctl recent -n 500 >recent.out &&
	while IFS= read -r l; do printf "%s\n" "${l%%	*}"; done <recent.out >want &&
	same_file want all &&
	walk search "{\"query\":\"message\",\"limit\":50}" hits && test $pages -eq 3 &&
	jq -Rne "[inputs] | (sort == [range(1; 121) | \"conv-\" + (\"00\(.)\" | .[-3:])]) and .[0] == \"conv-071\"" all >/dev/null &&
	{ call search "{\"query\":\"message\"}"; call recent "{\"cursor\":\"x\"}" 2
	  call search "{\"query\":\"message\",\"limit\":0}" 3; call recent "{\"limit\":0}" 4; } >in &&
	CONVCTL_STORE=$many convctl mcp <in >out &&
	answers out 1 ".result.structuredContent | (.hits | length) == 100 and .nextCursor == \"100\"" \
	    3 ".result.structuredContent == {hits: []}" \
	    4 ".result.structuredContent == {conversations: []}" \
	    2 ".result.isError and .result.content[0].text == \"argument '\''cursor'\'' expects a nextCursor this tool answered, not \\\"x\\\"\""
'

test_expect 'no answer is over 100000 bytes: a search page holds fewer hits, a text is cut and says so' '
	use_store big &&
	for i in 1 2 3; do
		printf "%060000d\n" $i >msg && convctl add <msg >/dev/null || return 1
	done &&
	{ call search "{\"query\":\"0000\"}"; call show "{}" 2; call context "{\"format\":\"markdown\"}" 3; } >in &&
	mcp_in &&
	cut=".result.content[0].text | utf8bytelength < 100300 and
	    (rtrimstr(\"\\n\") | split(\"\\n\") | .[-1] | test(\"^\\\\[convctl: cut here, at [0-9]* of its 18[0-9]* bytes; .*\\\\]$\"))" &&
	answers out 1 ".result.structuredContent | (.hits | length) == 1 and .nextCursor == \"1\" and (.hits[0].line | endswith(\"3\"))" \
	    2 "$cut" 3 "$cut"
'

test_expect 'bad resource and prompt requests get -32602 or -32002, and the server goes on' '
	{ list x
	  printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"convctl://conversation/conv-404\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///etc/passwd\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/get\",\"params\":{\"name\":\"nosuch\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"prompts/get\",\"params\":{\"name\":\"resume\",\"arguments\":{\"last\":\"-1\"}}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"name\":\"resume\",\"arguments\":{\"bogus\":\"1\"}}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"prompts/get\",\"params\":{\"name\":\"resume\",\"arguments\":{\"id\":\"conv-404\"}}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/read\",\"params\":{\"uri\":\"convctl://conversation/conv%2Db.json\"}}" \
	    "$ping"; } >in && mcp_in &&
	test $rc -eq 0 && lines_are 10 out &&
	answers out 1 ".error.code == -32602 and .error.message == \"resources/list: invalid cursor '\''x'\''\"" \
	    2 ".error.code == -32602 and .error.message == \"resources/read: params need the uri as a string\"" \
	    3 ".error.code == -32002 and .error.message == \"resource not found: no conversation '\''conv-404'\''\"" \
	    4 ".error.code == -32002 and (.error.message | startswith(\"resource not found: '\''file:///etc/passwd'\''\"))" \
	    5 ".error.code == -32602 and .error.message == \"prompts/get: unknown prompt '\''nosuch'\''\"" \
	    6 ".error.code == -32602 and (.error.message | startswith(\"prompts/get: argument '\''last'\'' expects a whole number\"))" \
	    7 ".error.code == -32602 and .error.message == \"prompts/get: unknown argument '\''bogus'\''\"" \
	    8 ".error.code == -32602 and .error.message == \"prompts/get: no conversation '\''conv-404'\''\"" \
	    9 ".result.contents[0].mimeType == \"application/json\" and (.result.contents[0].text | fromjson | .id == \"conv-b\")" \
	    10 ".id == 7"
'

test_expect 'no lock is held between calls: a command writes while the server waits' '
	python3 "$top/tests/helpers/mcp-session.py" no-lock "$CONVCTL_BIN"
'

test_expect 'an idle timeout that does not parse stops the server at start, as it stops add' '
	keep_store "$S" &&
	call add "{\"text\":\"x\"}" >in &&
	CONVCTL_IDLE_TIMEOUT=abc fails_with 1 convctl mcp <in &&
	test ! -s "$T/stdout" && lines_are 1 "$T/err" &&
	stderr_has "convctl: mcp: CONVCTL_IDLE_TIMEOUT expects a whole number from 0 to 52560000, not '\''abc'\''" &&
	store_kept "$S"
'

# issue 44: every setting a tool reads is checked before the first
# message, and a bad one stops the server as it stops a command
test_expect 'any bad setting stops the server at start with one line' '
	keep_store "$S" && printf "%s\n" "$ping" >in &&
	for bad in CONVCTL_MAX_CONVERSATIONS=x CONVCTL_WAIT=-1 CONVCTL_MAX_INPUT_BYTES=q \
	    CONVCTL_SUMMARIZER=bogus CONVCTL_RETRIES=many; do
		eval "$bad convctl mcp <in >out 2>err" && return 1
		test ! -s out && lines_are 1 err && line_like "convctl: mcp: *" err || return 1
	done &&
	CONVCTL_SUMMARIZER=bogus fails_with 1 convctl mcp <in &&
	stderr_has "convctl: mcp: invalid CONVCTL_SUMMARIZER '\''bogus'\'': expected openai, anthropic, offline or none" &&
	store_kept "$S"
'

# a client shows the model no server that stopped at start, but it does
# show a call's error: a store that cannot be opened is said once on
# standard error, and then by each call, until it can be
test_expect 'a store that cannot be read is said once at start, then answered by each call, until it can be read' '
	mkdir -p adir && echo x >notjson &&
	{ printf "%s\n" "$ping"; call recent "{}" 2; } >in &&
	for bad in notjson adir; do
		CONVCTL_STORE=$PWD/$bad convctl mcp <in >out 2>err || return 1
		jq -nr "[inputs][1] | select(.result.isError) |
		    \"convctl: mcp: \(.result.content[0].text) (each call answers this until it can be opened)\"" out >want &&
		same_file want err || return 1
	done &&
	echo "convctl: mcp: '\''$PWD/adir'\'' is a directory, not a store file (each call answers this until it can be opened)" >want &&
	same_file want err &&
	rmdir adir && convctl -s "$PWD/adir" add "now a store" >/dev/null &&
	CONVCTL_STORE=$PWD/adir convctl mcp <in >out 2>err && test ! -s err &&
	answers out 2 ".result.isError == false and (.result.structuredContent.conversations | type) == \"array\""
'

test_expect '--read-only starts without a summarizer, which only the tools that write use' '
	printf "%s\n" "$ping" >in &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY= convctl mcp --read-only <in >out 2>err &&
	answers out 1 ".id == 7" && test ! -s err &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY= fails_with 1 convctl mcp <in &&
	stderr_has "needs an API key"
'

test_expect 'mcp takes no operand' '
	fails_with 2 convctl mcp extra && stderr_has "unexpected argument '\''extra'\''"
'
test_done
