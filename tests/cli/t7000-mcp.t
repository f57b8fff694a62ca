#!/bin/sh
# convctl mcp: the store over the Model Context Protocol, driven by the
# official TypeScript SDK's client (each tool's answer against the CLI's),
# and by raw lines for the protocol's error cases
# check: valgrind
# The SDK is installed once, by npm, under the caller's cache directory
# (read before lib.sh gives the test a HOME of its own)
sdk_cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/convctl-tests
. "$(dirname "$0")/../lib.sh"

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
sdk_client() {
	calls=$1 out=$2
	set -- node "$top/tests/helpers/mcp-client.cjs" "$sdk" "$calls" -- \
	    $CONVCTL_WRAPPER "$CONVCTL_BIN" mcp
	if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
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

# answer_jq N FILE JQ-ARG...: jq JQ-ARG... over answer N, as answer N FILE |
# jq JQ-ARG... gives it: a process (jq) where the pipe made two
answer_jq() {
	answer "$1" "$2" >"$T/.answer" || return 1
	shift 2
	jq "$@" "$T/.answer"
}

# text_is N FILE CLI-ARGS...: the text of answer N is what convctl CLI-ARGS
# prints
text_is() {
	n=$1 f=$2
	shift 2
	answer_jq "$n" "$f" -je .text >got.txt &&
	convctl "$@" >want.txt && test_cmp want.txt got.txt
}

# json_text N FILE: answer N has structured content, and its text item is
# that content as JSON (what the specification asks of such a tool)
json_text() {
	answer_jq "$1" "$2" -e ".structured != null and (.text | fromjson) == .structured" >/dev/null
}

# json_is N FILE KEY CLI-ARGS...: answer N's structuredContent.KEY (KEY .:
# all of it) is the JSON convctl CLI-ARGS prints
json_is() {
	n=$1 f=$2 key=$3
	shift 3
	if [ "$key" = . ]; then key=; else key=.$key; fi
	answer_jq "$n" "$f" -S ".structured$key" >got.json &&
	convctl "$@" | jq -S . >want.json && same_file want.json got.json
}

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

cat >"$T/reads.jsonl" <<'EOF'
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
EOF

test_sdk 'the SDK client connects, pings and lists the eight tools' '
	snapshot "$S" &&
	sdk_client "$T/reads.jsonl" reads.out 2>reads.err &&
	answer_jq 1 reads.out -e ".server.name == \"convctl\" and
	    .capabilities.tools != null and
	    .tools == [\"search\",\"recent\",\"show\",\"context\",\"add\",\"end\",\"title\",\"tag\"]" &&
	lines_are 15 reads.out && unchanged "$S"
'

test_sdk 'search answers what convctl search --json answers, its text that JSON' '
	json_text 2 reads.out && json_is 2 reads.out hits search --json milk &&
	json_text 3 reads.out &&
	json_is 3 reads.out hits search --json -E -r user --since 2026-02-04T10:30:00Z -n 5 "l[ai]" &&
	answer_jq 3 reads.out -e ".structured.hits | length == 2"
'

test_sdk 'recent answers what convctl recent --json answers, its text that JSON' '
	json_text 4 reads.out && json_is 4 reads.out conversations recent --json &&
	json_text 5 reads.out &&
	json_is 5 reads.out conversations recent -n 1 --tag home --json
'

# issue 44: Claude Code and Codex give their model the structured content
# and drop the text; show and context answer the text alone, so the format
# asked for is what the model reads
test_sdk 'show answers what convctl show prints in the format asked for, alone' '
	text_is 6 reads.out show conv-b && text_is 7 reads.out show --format markdown &&
	text_is 8 reads.out show conv-b --format json &&
	for i in 6 7 8; do answer_jq $i reads.out -e ".structured == null" >/dev/null || return 1; done
'

test_sdk 'context answers what convctl prompt prints in the format asked for, alone' '
	text_is 9 reads.out prompt && text_is 10 reads.out prompt --format openai --last 1 &&
	for i in 9 10 11 12; do answer_jq $i reads.out -e ".structured == null" >/dev/null || return 1; done &&
	text_is 11 reads.out prompt conv-b --format jsonl &&
	text_is 12 reads.out prompt --format markdown --max-tokens 40 &&
	grep -q "^Three days" got.txt && lacks "Plan a trip" got.txt
'

test_sdk 'bad arguments are tool errors naming the argument; the session goes on' '
	answer_jq 13 reads.out -e ".isError and (.text | test(\"argument .limit. expects a whole number\"))" &&
	answer_jq 14 reads.out -e ".isError and .text == \"missing argument '\''text'\''\"" &&
	answer_jq 15 reads.out -e ".isError and (.text | startswith(\"no conversation '\''conv-404'\'' in \"))"
'

# issue 44: conversations as resources and the prompt resume, through the
# SDK's own calls (which check each answer's shape)
cat >"$T/res.jsonl" <<'EOF'
{"method":"resources/list"}
{"method":"resources/templates/list"}
{"method":"resources/read","params":{"uri":"convctl://conversation/conv-b"}}
{"method":"resources/read","params":{"uri":"convctl://conversation/conv-b.json"}}
{"method":"prompts/list"}
{"method":"prompts/get","params":{"name":"resume","arguments":{"last":"1"}}}
{"method":"prompts/get","params":{"name":"resume","arguments":{"id":"conv-b","max_tokens":"100"}}}
EOF

test_sdk 'resources list the conversations newest first and read one as show prints it; resume gives prompt --last as messages' '
	snapshot "$S" &&
	sdk_client "$T/res.jsonl" res.out 2>res.err &&
	answer_jq 1 res.out -e ".capabilities.resources != null and .capabilities.prompts != null" &&
	answer_jq 2 res.out -e "[.result.resources[].uri] == [\"convctl://conversation/conv-c\", \"convctl://conversation/conv-a\", \"convctl://conversation/conv-b\"] and
	    (.result.resources[2] | .title == \"Groceries\" and .description == \"Added milk.\" and .mimeType == \"text/markdown\") and
	    (.result | has(\"nextCursor\") | not)" &&
	answer_jq 3 res.out -e "[.result.resourceTemplates[].uriTemplate] == [\"convctl://conversation/{id}\", \"convctl://conversation/{id}.json\"]" &&
	answer_jq 4 res.out -je ".result.contents[0] | select(.mimeType == \"text/markdown\") | .text" >got &&
	convctl show conv-b --format markdown >want && test_cmp want got &&
	answer_jq 5 res.out -je ".result.contents[0] | select(.mimeType == \"application/json\") | .text" >got &&
	convctl show conv-b --format json >want && test_cmp want got &&
	answer_jq 6 res.out -e ".result.prompts[0].name == \"resume\" and [.result.prompts[0].arguments[].name] == [\"id\", \"last\", \"max_tokens\"]" &&
	convctl prompt --json --last 1 | jq -c "[.[] | {role: (if .role == \"assistant\" then \"assistant\" else \"user\" end),
	    content: {type: \"text\", text: (if .role == \"user\" or .role == \"assistant\" then .content else \"[\\(.role)] \\(.content)\" end)}}]" >want &&
	answer_jq 7 res.out -c ".result.messages" >got && test_cmp want got &&
	jq -e "length == 2 and .[0].content.text == \"[system] Be brief.\"" got &&
	answer_jq 8 res.out -e ".result.messages | map(.content.text) == [\"Add milk\", \"Added milk.\"]" &&
	unchanged "$S"
'

# the writing tools against the commands, with the same clock, on two stores
W1=$(store_at mcpwrites) W2=$(store_at cliwrites)
export CONVCTL_NOW=2026-03-01T09:00:00Z
id=conv-1772355600000
cat >"$T/writes.jsonl" <<EOF
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
	for i in 2 3 4 5 6 7 8; do json_text $i writes.out || return 1; done &&
	file_is "$id" c1 && file_is "$id" c2 && file_is "$id" c6 &&
	answer_jq 2 writes.out -e ".structured == {id: \"$id\"}" &&
	answer_jq 3 writes.out -e ".structured == {id: \"$id\"}" &&
	answer_jq 4 writes.out -e ".structured == {id: \"$id\", title: \"Trip\"}" &&
	answer_jq 5 writes.out -S .structured.tags >got && jq -S . c4.json >want &&
	test_cmp want got &&
	answer_jq 6 writes.out -S .structured.tags >got && jq -S . c5.json >want &&
	test_cmp want got &&
	answer_jq 7 writes.out -e ".structured == {id: \"$id\", summaryPending: false}" &&
	answer_jq 8 writes.out -e ".structured.id == null and .isError == false" &&
	has_line "convctl: mcp: no active conversation" writes.err &&
	for s in "$W1" "$W2"; do
		store_json "$s" | jq -S "del(.conversations[].messages[].id)" >"$(basename "$s").json" || return 1
	done &&
	test_cmp "$(basename "$W2").json" "$(basename "$W1").json" &&
	jq -e "(.conversations[] | select(.id == \"$id\") | .title == \"Trip\" and .summary != null and .tags == [\"travel\"]) and
	    (.conversations[0] | .id != \"$id\" and .summary != null)" "$(basename "$W1").json"
'
unset CONVCTL_NOW

# mcp_lines LINE...: the lines to convctl mcp, its answers in out, its
# diagnostics in err, its exit status in rc
mcp_lines() {
	rc=0
	printf "%s\n" "$@" | convctl mcp >out 2>err || rc=$?
}
ping='{"jsonrpc":"2.0","id":7,"method":"ping"}'
call() { # NAME ARGUMENTS [ID]
	printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}' "${3:-1}" "$1" "$2"
}

test_expect 'a line that is not JSON gets -32700, and the server goes on' '
	mcp_lines "garbage" "{\"jsonrpc\":" "$ping" && test $rc -eq 0 &&
	answer_jq 1 out -e ".id == null and .error.code == -32700" &&
	answer_jq 2 out -e ".id == null and .error.code == -32700" &&
	answer_jq 3 out -e ".id == 7 and .result == {}" && lines_are 3 out
'

test_expect 'an unknown method gets -32601; a notification gets no answer' '
	mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"resources/subscribe\"}" \
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}" \
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}" "$ping" &&
	answer_jq 1 out -e ".id == \"a\" and .error.code == -32601 and (.error.message | test(\"resources/subscribe\"))" &&
	answer_jq 2 out -e ".id == 7" && lines_are 2 out
'

test_expect 'a message that is not a request object gets -32600' '
	mcp_lines "[$ping]" "{\"id\":1,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}" "3" &&
	for i in 1 2 3 4; do answer_jq $i out -e ".error.code == -32600" || return 1; done
'

test_expect 'an id JSON allows but no request may have gets -32600 with id null, not -32700' '
	mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890123,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":-1E-400,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":9223372036854775807,\"method\":\"ping\"}" &&
	for i in 1 2 3 4; do
		answer_jq $i out -e ".id == null and .error.code == -32600 and (.error.message | test(\"id must be\"))" || return 1
	done &&
	answer 5 out | grep -q "\"id\":9223372036854775807,\"result\":{}" &&
	lines_are 5 out
'

test_expect 'numbers past jansson'\''s range in arguments are bad arguments, not bad JSON' '
	mcp_lines "$(call recent "{\"limit\":1e400}" 1)" \
	    "$(call search "{\"query\":123456789012345678901234567890}" 2)" \
	    "$(call add "{\"text\":1e400}" 3)" &&
	answer_jq 1 out -e ".id == 1 and .result.isError and .result.content[0].text == \"argument '\''limit'\'' expects a whole number from 0 to 100000000, not 1e400\"" &&
	answer_jq 2 out -e ".id == 2 and .result.isError and .result.content[0].text == \"argument '\''query'\'' expects a string, not 123456789012345678901234567890\"" &&
	answer_jq 3 out -e ".id == 3 and .result.isError and .result.content[0].text == \"argument '\''text'\'' expects a string, not 1e400\""
'

test_expect 'a blank or whitespace-only line is no message: no answer, and the next is answered' '
	printf "\n \t \n\r\n%s\n\n" "$ping" | convctl mcp >out 2>err &&
	lines_are 1 out && answer_jq 1 out -e ".id == 7 and .result == {}" &&
	test ! -s err
'

test_expect 'names are whole strings: a NUL in a method, jsonrpc, tool, argument or value name matches nothing' '
	snapshot "$S" &&
	mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\\u0000xyz\",\"params\":{\"name\":\"recent\"}}" \
	    "{\"jsonrpc\":\"2.0\\u0000\",\"id\":2,\"method\":\"ping\"}" \
	    "$(call "recent\\u0000x" "{}" 3)" \
	    "$(call recent "{\"limit\\u0000x\":1}" 4)" \
	    "$(call show "{\"format\":\"json\\u0000x\"}" 5)" \
	    "$(call add "{\"text\":\"x\",\"role\":\"user\\u0000x\"}" 6)" \
	    "$(call add "{\"text\":\"x\",\"tools\":[\"a\\u0000b\"]}" 7)" \
	    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\\u0000x\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\\u0000\"}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\\u0000\",\"params\":[]}" &&
	answer_jq 1 out -e ".id == 1 and .error.code == -32601 and .error.message == \"method not found: '\''tools/call\\\\u0000xyz'\''\"" &&
	answer_jq 2 out -e ".id == 2 and .error.code == -32600" &&
	answer_jq 3 out -e ".id == 3 and .error.code == -32602 and .error.message == \"unknown tool '\''recent\\\\u0000x'\''\"" &&
	answer_jq 4 out -e ".id == 4 and .result.isError and .result.content[0].text == \"unknown argument '\''limit\\\\u0000x'\''\"" &&
	answer_jq 5 out -e ".id == 5 and .result.isError and (.result.content[0].text | startswith(\"argument '\''format'\'' expects a string without a NUL character, not \"))" &&
	answer_jq 6 out -e ".id == 6 and .result.isError and (.result.content[0].text | startswith(\"argument '\''role'\'' expects a string without a NUL character\"))" &&
	answer_jq 7 out -e ".id == 7 and .result.isError and (.result.content[0].text | startswith(\"argument '\''tools'\'' expects an array of strings without a NUL character\"))" &&
	answer_jq 8 out -e ".id == 8 and .result.protocolVersion == \"2025-11-25\"" &&
	answer_jq 9 out -e ".id == 9 and .error.code == -32602 and .error.message == \"ping\\\\u0000: params must be an object\"" &&
	lines_are 9 out && unchanged "$S"
'

test_expect 'initialize agrees on the client'\''s version, else the newest' '
	for v in 2025-11-25 2025-06-18 2025-03-26 2024-11-05 1999-01-01; do
		mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$v\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}" &&
		want=$v && { [ $v != 1999-01-01 ] || want=2025-11-25; } &&
		jq -e ".result.protocolVersion == \"$want\" and .result.capabilities.tools != null and .result.serverInfo.name == \"convctl\"" out || return 1
	done
'

test_expect 'bad arguments are isError answers naming the argument, nothing written' '
	snapshot "$S" &&
	mcp_lines "$(call show "{\"format\":\"pdf\"}" 1)" "$(call search "{}" 2)" \
	    "$(call context "{\"last\":-1}" 3)" "$(call tag "{\"id\":\"conv-b\",\"tags\":[]}" 4)" \
	    "$(call add "{\"text\":\"x\",\"role\":\"robot\"}" 5)" "$(call add "{\"text\":\"\"}" 6)" \
	    "$(call recent "{\"bogus\":1}" 7)" "$(call search "{\"query\":\"(\",\"regex\":true}" 8)" \
	    "$(call nosuch "{}" 9)" &&
	answer_jq 1 out -e ".result.isError and .result.content[0].text == \"argument '\''format'\'': unknown format '\''pdf'\'' (expected text, markdown or json)\"" &&
	answer_jq 2 out -e ".result.isError and .result.content[0].text == \"missing argument '\''query'\''\"" &&
	answer_jq 3 out -e ".result.isError and (.result.content[0].text | test(\"^argument .last.\"))" &&
	answer_jq 4 out -e ".result.isError and (.result.content[0].text | test(\"^argument .tags.\"))" &&
	answer_jq 5 out -e ".result.isError and (.result.content[0].text | . == \"argument '\''role'\'': unknown role '\''robot'\'' (expected user, assistant, system or tool)\")" &&
	answer_jq 6 out -e ".result.isError and (.result.content[0].text | test(\"^argument .text.\"))" &&
	answer_jq 7 out -e ".result.isError and .result.content[0].text == \"unknown argument '\''bogus'\''\"" &&
	answer_jq 8 out -e ".result.isError and (.result.content[0].text | test(\"^argument .query.\"))" &&
	answer_jq 9 out -e ".error.code == -32602 and (.error.message | test(\"nosuch\"))" &&
	unchanged "$S"
'

# issue 40: the limits of a query and of tags, each refused in the words
# the command line uses, before the store is locked
test_expect 'a request over the size limit is refused before it is all sent, then the next is answered' '
	CONVCTL_MAX_MESSAGE_BYTES=1000 python3 "$top/tests/helpers/mcp-session.py" too-large "$CONVCTL_BIN"
'

test_expect 'end of input ends the server, exit 0; a last line without a newline is answered' '
	convctl mcp </dev/null >out 2>err && test ! -s out && test ! -s err &&
	printf "%s" "$ping" | convctl mcp >out && answer_jq 1 out -e ".id == 7"
'

test_expect 'standard output carries only protocol messages; diagnostics go to stderr' '
	s2=$(store_at quiet) &&
	CONVCTL_STORE=$s2 CONVCTL_MAX_CONVERSATIONS=1 mcp_lines \
	    "$(call end "{}" 1)" "$(call add "{\"text\":\"one\"}" 2)" "$(call end "{}" 3)" \
	    "$(call add "{\"text\":\"two\"}" 4)" "$(call end "{}" 5)" &&
	test $rc -eq 0 && lines_are 5 out &&
	jq -e "select(.jsonrpc != \"2.0\" or .result == null)" out >bad; test ! -s bad &&
	has_line "convctl: mcp: no active conversation" err &&
	grep -q "^convctl: mcp: removed 1 oldest ended conversation" err
'

test_expect 'a clock behind the last message: add and end warn as the commands do' '
	s3=$(store_at skew) &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl -s "$s3" add first >/dev/null &&
	CONVCTL_STORE=$s3 CONVCTL_NOW=2026-02-04T09:00:00Z mcp_lines \
	    "$(call add "{\"text\":\"second\"}" 1)" "$(call end "{}" 2)" &&
	test $rc -eq 0 && answer_jq 1 out -e ".result.isError == false" &&
	answer_jq 2 out -e ".result.structuredContent.id != null" &&
	printf "%s\n" "convctl: mcp: warning: the clock (2026-02-04T09:00:00.000Z) is 1h before the last message (2026-02-04T10:00:00.000Z); recorded at the last message'\''s time" \
	    "convctl: mcp: warning: the clock (2026-02-04T09:00:00.000Z) is 1h before the last message (2026-02-04T10:00:00.000Z); ended at the last message'\''s time" >want &&
	test_cmp want err
'

test_expect '--read-only lists and calls only the tools that read' '
	snapshot "$S" &&
	printf "%s\n" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" \
	    "$(call add "{\"text\":\"x\"}" 2)" "$(call recent "{}" 3)" |
	    convctl mcp --read-only >out &&
	answer_jq 1 out -e "[.result.tools[].name] == [\"search\",\"recent\",\"show\",\"context\"]" &&
	answer_jq 1 out -e "all(.result.tools[]; .annotations.readOnlyHint and .inputSchema.type == \"object\")" &&
	answer_jq 1 out -e "[.result.tools[] | select(.outputSchema.type == \"object\") | .name] == [\"search\",\"recent\"]" &&
	answer_jq 2 out -e ".error.code == -32602 and (.error.message | test(\"read-only\"))" &&
	answer_jq 3 out -e ".result.isError == false" && unchanged "$S"
'

test_expect 'the text asked for is the answer: show and context have no output schema, the others give their JSON as text too' '
	mcp_lines "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}" \
	    "$(call context "{\"format\":\"markdown\"}" 2)" "$(call recent "{}" 3)" \
	    "$(call show "{\"id\":\"conv-b\",\"format\":\"markdown\"}" 4)" &&
	answer_jq 1 out -e "[.result.tools[] | select(has(\"outputSchema\")) | .name] == [\"search\",\"recent\",\"add\",\"end\",\"title\",\"tag\"]" &&
	answer_jq 2 out -e ".result | has(\"structuredContent\") | not" &&
	answer_jq 2 out -je ".result.content[0].text" >got && convctl prompt --format markdown >want &&
	test_cmp want got && grep -q "^## " got &&
	answer_jq 4 out -je ".result.content[0].text" >got && convctl show conv-b --format markdown >want &&
	test_cmp want got &&
	answer_jq 3 out -e "(.result.content[0].text | fromjson) == .result.structuredContent and (.result.structuredContent.conversations | length) > 0"
'

# many: 119 ended conversations (conv-001 ended first) and an active one
many=$(store_at many)
awk 'BEGIN {
	printf "{\"version\": 1, \"conversations\": ["
	for (i = 1; i <= 120; i++)
		printf "%s{\"id\": \"conv-%03d\", \"startedAt\": \"2026-01-%02dT%02d:00:00.000Z\", \"endedAt\": %s, \"title\": null, \"summary\": null, \"messages\": [{\"id\": \"m-%d\", \"timestamp\": \"2026-01-%02dT%02d:00:00.000Z\", \"role\": \"user\", \"content\": \"message %d\"}]}",
		    (i > 1 ? ", " : ""), i, 1 + int(i / 24), i % 24,
		    (i < 120 ? sprintf("\"2026-01-%02dT%02d:30:00.000Z\"", 1 + int(i / 24), i % 24) : "null"),
		    i, 1 + int(i / 24), i % 24, i
	print "]}"
}' | store_seed "$many"
list() { # [CURSOR]: resources/list's request
	if [ -n "${1:-}" ]; then set -- ",\"params\":{\"cursor\":\"$1\"}"; fi
	printf '{"jsonrpc":"2.0","id":1,"method":"resources/list"%s}' "${1:-}"
}

test_expect 'resources/list walks a store in pages of 50 with the cursor, newest first, the active one first' '
	snapshot "$many" && : >all &&
	cursor= pages=0 &&
	while :; do
		printf "%s\n" "$(list "$cursor")" | CONVCTL_STORE=$many convctl mcp >out || return 1
		jq -r ".result.resources[].name" out >>all &&
		test "$(jq ".result.resources | length" out)" -le 50 &&
		pages=$((pages + 1)) && cursor=$(jq -r ".result.nextCursor // empty" out) &&
		test -n "$cursor" || break
	done &&
	test $pages -eq 3 && lines_are 120 all &&
	seq -f "conv-%03g" 120 | sort -r >want && test_cmp want all &&
	unchanged "$many"
'

# walk TOOL ARGS-JSON KEY: calls TOOL with ARGS and each nextCursor until
# there is none; each page's KEY items' ids in all, the pages in $pages
walk() {
	cursor= pages=0 && : >all &&
	while :; do
		args=$2 && [ -z "$cursor" ] || args="${2%\}},\"cursor\":\"$cursor\"}"
		printf "%s\n" "$(call "$1" "$args")" | CONVCTL_STORE=$many convctl mcp >out || return 1
		jq -e ".result.isError == false and (.result.content[0].text | fromjson) == .result.structuredContent" out >/dev/null &&
		jq -r ".result.structuredContent.$3[].id" out >>all || return 1
		pages=$((pages + 1)) && cursor=$(jq -r ".result.structuredContent.nextCursor // empty" out)
		[ -n "$cursor" ] || return 0
	done
}

test_expect 'recent and search walk a store in bounded pages with the cursor' '
	walk recent "{\"limit\":50}" conversations && test $pages -eq 3 &&
	CONVCTL_STORE=$many convctl recent -n 500 | cut -f 1 >want && test_cmp want all &&
	walk search "{\"query\":\"message\",\"limit\":50}" hits && test $pages -eq 3 &&
	sort all >got && seq -f "conv-%03g" 120 >want && test_cmp want got &&
	head -n 1 all >first && echo conv-071 >want && test_cmp want first &&
	printf "%s\n" "$(call search "{\"query\":\"message\"}")" "$(call recent "{\"cursor\":\"x\"}" 2)" \
	    "$(call search "{\"query\":\"message\",\"limit\":0}" 3)" "$(call recent "{\"limit\":0}" 4)" |
	    CONVCTL_STORE=$many convctl mcp >out &&
	answer_jq 1 out -e ".result.structuredContent | (.hits | length) == 100 and .nextCursor == \"100\"" &&
	answer_jq 3 out -e ".result.structuredContent == {hits: []}" &&
	answer_jq 4 out -e ".result.structuredContent == {conversations: []}" &&
	answer_jq 2 out -e ".result.isError and .result.content[0].text == \"argument '\''cursor'\'' expects a nextCursor this tool answered, not \\\"x\\\"\""
'

test_expect 'no answer is over 100000 bytes: a search page holds fewer hits, a text is cut and says so' '
	big=$(store_at big) &&
	for i in 1 2 3; do
		printf "%060000d\n" $i | CONVCTL_STORE=$big convctl add >/dev/null || return 1
	done &&
	printf "%s\n" "$(call search "{\"query\":\"0000\"}")" "$(call show "{}" 2)" "$(call context "{\"format\":\"markdown\"}" 3)" |
	    CONVCTL_STORE=$big convctl mcp >out &&
	answer_jq 1 out -e ".result.structuredContent | (.hits | length) == 1 and .nextCursor == \"1\" and (.hits[0].line | endswith(\"3\"))" &&
	for i in 2 3; do
		answer_jq $i out -je ".result.content[0].text" >got &&
		test "$(wc -c <got)" -lt 100300 &&
		tail -n 1 got | grep -q "^\[convctl: cut here, at [0-9]* of its 18[0-9]* bytes; .*\]$" || return 1
	done
'

test_expect 'bad resource and prompt requests get -32602 or -32002, and the server goes on' '
	mcp_lines "$(list x)" "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"convctl://conversation/conv-404\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///etc/passwd\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/get\",\"params\":{\"name\":\"nosuch\"}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"prompts/get\",\"params\":{\"name\":\"resume\",\"arguments\":{\"last\":\"-1\"}}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"prompts/get\",\"params\":{\"name\":\"resume\",\"arguments\":{\"bogus\":\"1\"}}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"prompts/get\",\"params\":{\"name\":\"resume\",\"arguments\":{\"id\":\"conv-404\"}}}" \
	    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/read\",\"params\":{\"uri\":\"convctl://conversation/conv%2Db.json\"}}" \
	    "$ping" &&
	test $rc -eq 0 && lines_are 10 out &&
	answer_jq 1 out -e ".error.code == -32602 and .error.message == \"resources/list: invalid cursor '\''x'\''\"" &&
	answer_jq 2 out -e ".error.code == -32602 and .error.message == \"resources/read: params need the uri as a string\"" &&
	answer_jq 3 out -e ".error.code == -32002 and .error.message == \"resource not found: no conversation '\''conv-404'\''\"" &&
	answer_jq 4 out -e ".error.code == -32002 and (.error.message | startswith(\"resource not found: '\''file:///etc/passwd'\''\"))" &&
	answer_jq 5 out -e ".error.code == -32602 and .error.message == \"prompts/get: unknown prompt '\''nosuch'\''\"" &&
	answer_jq 6 out -e ".error.code == -32602 and (.error.message | startswith(\"prompts/get: argument '\''last'\'' expects a whole number\"))" &&
	answer_jq 7 out -e ".error.code == -32602 and .error.message == \"prompts/get: unknown argument '\''bogus'\''\"" &&
	answer_jq 8 out -e ".error.code == -32602 and .error.message == \"prompts/get: no conversation '\''conv-404'\''\"" &&
	answer_jq 9 out -e ".result.contents[0].mimeType == \"application/json\" and (.result.contents[0].text | fromjson | .id == \"conv-b\")" &&
	answer_jq 10 out -e ".id == 7"
'

test_expect 'no lock is held between calls: a command writes while the server waits' '
	python3 "$top/tests/helpers/mcp-session.py" no-lock "$CONVCTL_BIN"
'

test_expect 'an idle timeout that does not parse stops the server at start, as it stops add' '
	snapshot "$S" &&
	printf "%s\n" "$(call add "{\"text\":\"x\"}")" >in &&
	CONVCTL_IDLE_TIMEOUT=abc fails_with 1 convctl mcp <in &&
	test ! -s "$T/stdout" && lines_are 1 "$T/err" &&
	stderr_has "convctl: mcp: CONVCTL_IDLE_TIMEOUT expects a whole number from 0 to 52560000, not '\''abc'\''" &&
	unchanged "$S"
'

# issue 44: every setting a tool reads is checked before the first
# message, and a bad one stops the server as it stops a command
test_expect 'any bad setting stops the server at start with one line' '
	snapshot "$S" && printf "%s\n" "$ping" >in &&
	for bad in CONVCTL_MAX_CONVERSATIONS=x CONVCTL_WAIT=-1 CONVCTL_MAX_INPUT_BYTES=q \
	    CONVCTL_SUMMARIZER=bogus CONVCTL_RETRIES=many; do
		(export "$bad" && convctl mcp <in >out 2>err) && return 1
		test ! -s out && lines_are 1 err && grep -q "^convctl: mcp: " err || return 1
	done &&
	CONVCTL_SUMMARIZER=bogus fails_with 1 convctl mcp <in &&
	stderr_has "convctl: mcp: invalid CONVCTL_SUMMARIZER '\''bogus'\'': expected openai, anthropic, offline or none" &&
	unchanged "$S"
'

# a client shows the model no server that stopped at start, but it does
# show a call's error: a store that cannot be opened is said once on
# standard error, and then by each call, until it can be
test_expect 'a store that cannot be read is said once at start, then answered by each call, until it can be read' '
	mkdir -p adir && echo x >notjson &&
	printf "%s\n" "$ping" "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"recent\",\"arguments\":{}}}" >in &&
	for bad in notjson adir; do
		CONVCTL_STORE=$PWD/$bad convctl mcp <in >out 2>err || return 1
		answer_jq 2 out -r "select(.result.isError) | .result.content[0].text" >said &&
		echo "convctl: mcp: $(cat said) (each call answers this until it can be opened)" >want &&
		test_cmp want err || return 1
	done &&
	echo "'\''$PWD/adir'\'' is a directory, not a store file" >want && test_cmp want said &&
	rmdir adir && convctl -s "$PWD/adir" add "now a store" >/dev/null &&
	CONVCTL_STORE=$PWD/adir convctl mcp <in >out 2>err && test ! -s err &&
	answer_jq 2 out -e ".result.isError == false and (.result.structuredContent.conversations | type) == \"array\"" >/dev/null
'

test_expect '--read-only starts without a summarizer, which only the tools that write use' '
	printf "%s\n" "$ping" | CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY= convctl mcp --read-only >out 2>err &&
	answer_jq 1 out -e ".id == 7" && test ! -s err &&
	printf "%s\n" "$ping" | CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY= fails_with 1 convctl mcp &&
	stderr_has "needs an API key"
'

test_expect 'mcp takes no operand' '
	fails_with 2 convctl mcp extra && stderr_has "unexpected argument '\''extra'\''"
'
test_done
