#!/bin/sh
# summarize: titles and summaries through a stub LLM server, and offline
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
. "$top/tests/llm-stub.sh"

KEY=sk-convctl-test-CANARY-7f3a9c0d
export CONVCTL_API_BASE="$STUB/v1" CONVCTL_API_KEY="$KEY" CONVCTL_MODEL=test-model

OK='[{"reply": "TITLE: Adding milk to the grocery list\nSUMMARY: The user asked to add milk. The assistant edited Lists/Groceries.md."}]'
E500='[{"status": 500, "body": {"error": {"message": "The server had an error"}}},
  {"reply": "TITLE: Adding milk to the grocery list\nSUMMARY: Milk was added."}]'
E429='[{"status": 429, "headers": {"Retry-After": "1"}, "body": {"error": {"message": "Rate limit reached for requests"}}},
  {"reply": "TITLE: Adding milk to the grocery list\nSUMMARY: Milk was added."}]'
E401='[{"status": 401, "body": {"error": {"message": "Incorrect API key provided: sk-convctl-test-CANARY-7f3a9c0d", "type": "invalid_request_error"}}}]'
A401='[{"status": 401, "body": {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}}]'
HTML='[{"status": 200, "headers": {"Content-Type": "text/html"}, "body": "<html><body>gateway says hi</body></html>"}]'
NOCHOICE='[{"status": 200, "body": {"id": "x", "object": "chat.completion", "choices": []}}]'
NOTITLE='[{"reply": "Sure! The user wanted milk added, and it was added to the groceries list."}]'
MARKDOWN='[{"reply": "<think>they want a summary</think>\nHere you go:\n\n**Title:** \"Milk for the groceries\"\n\n**Summary:**\nThe user asked for milk.\nThe assistant added it.\n\nAnything else?"}]'
SLOW='[{"delay": 4, "reply": "TITLE: Too late\nSUMMARY: Too late."}]'
HELD="[{\"wait_for\": \"$T/release\", \"reply\": \"TITLE: Adding milk to the grocery list\nSUMMARY: Milk was added.\"}]"

# an HTTPS stub with a self-signed certificate for 127.0.0.1 (an EC key:
# made in 30 ms, where RSA 2048 takes 200)
TLS=
if openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -nodes -keyout "$T/key.pem" -out "$T/cert.pem" -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1; then
	stub_start tls --tls-cert "$T/cert.pem" --tls-key "$T/key.pem"
	read -r TLS <"$T/tls.port" && TLS=https://127.0.0.1:$TLS
fi

# seed: a conversation ended without a summary; its id in $id (read from
# a file, not by a subshell)
seed() {
	convctl add --at 2026-02-04T17:26:40Z "Add milk to my groceries list" >/dev/null &&
	convctl add --role assistant --tool read_file --tool edit_file \
	    --at 2026-02-04T17:26:41.250Z "Added milk to Lists/Groceries.md." >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:00Z convctl end --no-summary >"$T/.id" &&
	read -r id <"$T/.id"
}

# fields_are ID NAME WANT [ID NAME WANT]...: each stored NAME of conversation
# ID is WANT, as jq -r prints it ("null" when null); the store read by one jq (jq_is)
fields_are() {
	fa_n=$(($# / 3))
	while [ "$fa_n" -gt 0 ]; do
		set -- "$@" -r ".conversations[] | select(.id == \"$1\") | .$2" "$3"
		shift 3
		fa_n=$((fa_n - 1))
	done
	if is_db "$CONVCTL_STORE"; then
		store_json "$CONVCTL_STORE" >"$T/.fields.json" &&
		    jq_is "$T/.fields.json" "$@"
	else
		jq_is "$CONVCTL_STORE" "$@"
	fi
}

# req N JQ: JQ applied to request N (from 1), the log's lines read by one
# jq (no sed before it)
req() {
	jq -r -n "[limit($1; inputs)] | if length == $1 then .[-1] | $2 else empty end" "$STUB_LOG"
}

# req_is N MODE FILTER WANT...: jq_is over request N (from 1), its line
# found by the shell
req_is() {
	rq_i=0
	while IFS= read -r l; do
		rq_i=$((rq_i + 1))
		[ "$rq_i" -lt "$1" ] || break
	done <"$STUB_LOG"
	[ "$rq_i" -eq "$1" ] || { echo "no request $1 in the log"; return 1; }
	printf '%s\n' "$l" >"$T/.req"
	shift
	jq_is "$T/.req" "$@"
}

no_key() {	# the fake key appears in none of the files given
	lacks "$KEY" "$@"
}

test_expect 'success: the request is a chat completion with the conversation' '
	use_store ok && seed && stub_script "$OK" &&
	convctl summarize >out 2>err &&
	printf "%s\tAdding milk to the grocery list\n" "$id" >expect &&
	test_cmp expect out && stub_count 1 &&
	jq_is "$STUB_LOG" -r .method POST -r .path /v1/chat/completions \
	    -r .body.model test-model -r .headers.authorization "Bearer $KEY" \
	    -r ".headers[\"content-type\"]" application/json \
	    -r ".body.messages[0].role" system \
	    -r ".body.messages[0].content | split(\"\\n\") | any(startswith(\"TITLE: \"))" true \
	    -r ".body.messages[0].content | split(\"\\n\") | any(startswith(\"SUMMARY: \"))" true &&
	req 1 ".body.messages[1].content" >sent &&
	holds "User: Add milk to my groceries list" sent &&
	holds "Assistant: Added milk to Lists/Groceries.md. [used: read_file, edit_file]" sent &&
	holds "[2026-02-04T17:26:40.000Z]" sent &&
	fields_are "$id" title "Adding milk to the grocery list" \
	    "$id" summary "The user asked to add milk. The assistant edited Lists/Groceries.md." \
	    "$id" endedAt 2026-02-04T17:27:00.000Z \
	    "$id" "messages | length" 2 &&
	no_key out err
'

test_expect 'anthropic: the Messages API with x-api-key and anthropic-version' '
	use_store anthropic && seed && stub_script "$OK" &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-CANARY-anthro \
	    CONVCTL_ANTHROPIC_BASE="$STUB/v1" CONVCTL_MODEL=claude-test \
	    convctl summarize "$id" >out 2>err &&
	stub_count 1 &&
	jq_is "$STUB_LOG" -r .path /v1/messages \
	    -r ".headers[\"x-api-key\"]" sk-ant-CANARY-anthro \
	    -r ".headers[\"anthropic-version\"]" 2023-06-01 \
	    -r .headers.authorization null -r .body.model claude-test \
	    -r ".body.max_tokens | type == \"number\" and . > 0 and . == floor" true \
	    -r ".body.system | split(\"\\n\") | any(startswith(\"TITLE: \"))" true \
	    -r ".body.messages[0].role" user \
	    -r ".body.messages[0].content | split(\"\\n\") | any(contains(\"User: Add milk to my groceries list\"))" true &&
	fields_are "$id" title "Adding milk to the grocery list" &&
	lacks sk-ant-CANARY-anthro out err
'

test_expect 'anthropic is the default when only an Anthropic key is set' '
	use_store anthropic-default && seed && stub_script "$OK" &&
	(unset CONVCTL_API_KEY CONVCTL_API_BASE &&
	 ANTHROPIC_API_KEY=sk-ant-CANARY-anthro CONVCTL_ANTHROPIC_BASE="$STUB/v1" \
	    convctl summarize >out 2>err) &&
	req_is 1 -r .path /v1/messages -r .body.model test-model
'

test_expect '500 then success: retried, and stored once' '
	use_store 500 && seed && stub_script "$E500" &&
	convctl summarize --verbose >out 2>err &&
	stub_count 2 &&
	jq -ne "[inputs] | length == 2 and (.[0].body | tojson) == (.[1].body | tojson)" "$STUB_LOG" >/dev/null &&
	{ line_like "*retrying in 0.[5-9] seconds (attempt 2 of 4)*" err ||
	    line_like "*retrying in 1.0 seconds (attempt 2 of 4)*" err; } &&
	fields_are "$id" title "Adding milk to the grocery list" \
	    "$id" summary "Milk was added."
'

test_expect '429 with Retry-After: waits as told, then stores' '
	use_store 429 && seed && stub_script "$E429" &&
	convctl summarize --verbose >out 2>err &&
	stub_count 2 &&
	holds "< HTTP 429" err &&
	holds "retrying in 1.0 seconds (attempt 2 of 4)" err &&
	fields_are "$id" summary "Milk was added."
'

test_expect '429 past the retries: one line with the status and the message' '
	use_store 429-all && seed &&
	stub_script "[{\"status\": 429, \"headers\": {\"Retry-After\": \"0\"}, \"body\": {\"error\": {\"message\": \"Rate limit reached\"}}}]" &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_RETRIES=2 fails_with 1 convctl summarize &&
	stub_count 3 &&
	lines_are 1 "$T/err" &&
	stderr_has "convctl: summarize: cannot summarize '"'"'$id'"'"': HTTP 429 from '"'"'$STUB/v1/chat/completions'"'"': Rate limit reached (gave up after 3 attempts)" &&
	store_kept "$CONVCTL_STORE"
'

test_expect '429 asking for more than a minute: no wait, no retry, says so' '
	use_store 429-long && seed &&
	stub_script "[{\"status\": 429, \"headers\": {\"Retry-After\": \"120\"}, \"body\": {\"error\": {\"message\": \"Slow down\"}}}]" &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl summarize &&
	stub_count 1 &&
	stderr_has "convctl: summarize: cannot summarize '"'"'$id'"'"': HTTP 429 from '"'"'$STUB/v1/chat/completions'"'"': Slow down (the server asks to wait 120 seconds; try again later)" &&
	store_kept "$CONVCTL_STORE"
'

test_expect '401: no retry, the provider message, the key redacted, store unchanged' '
	use_store 401 && seed && stub_script "$E401" &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl summarize --verbose &&
	stub_count 1 &&
	stderr_has "HTTP 401 from '"'"'$STUB/v1/chat/completions'"'"': Incorrect API key provided: [redacted]" &&
	stderr_has "> Authorization: Bearer [redacted]" &&
	no_key "$T/err" "$T/stdout" &&
	fields_are "$id" summary null &&
	store_kept "$CONVCTL_STORE"
'

test_expect '401 from Anthropic: its error shape is read' '
	use_store a401 && seed && stub_script "$A401" &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-CANARY-anthro \
	    CONVCTL_ANTHROPIC_BASE="$STUB/v1" fails_with 1 convctl summarize &&
	stub_count 1 &&
	stderr_has "HTTP 401 from '"'"'$STUB/v1/messages'"'"': invalid x-api-key"
'

test_expect 'a malformed body: a clear error, nothing stored' '
	use_store html && seed && stub_script "$HTML" &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl summarize &&
	stub_count 1 &&
	stderr_has "malformed reply from '"'"'$STUB/v1/chat/completions'"'"': not JSON" &&
	store_kept "$CONVCTL_STORE" &&
	stub_script "$NOCHOICE" &&
	fails_with 1 convctl summarize &&
	stderr_has "no '"'"'choices[0].message.content'"'"' string" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'a reply without TITLE: the offline title, the reply as summary' '
	use_store notitle && seed && stub_script "$NOTITLE" &&
	convctl summarize >out 2>err &&
	fields_are "$id" title "Add milk to my groceries list" \
	    "$id" summary "Sure! The user wanted milk added, and it was added to the groceries list."
'

test_expect 'a reply in markdown with a <think> block is read tolerantly' '
	use_store markdown && seed && stub_script "$MARKDOWN" &&
	convctl summarize >out 2>err &&
	fields_are "$id" title "Milk for the groceries" \
	    "$id" summary "The user asked for milk. The assistant added it."
'

test_expect 'a server slower than the timeout: retried, then one clear line' '
	use_store slow && seed && stub_script "$SLOW" &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_TIMEOUT=1 CONVCTL_RETRIES=1 fails_with 1 convctl summarize &&
	stub_count 2 &&
	lines_are 1 "$T/err" &&
	stderr_has "request to '"'"'$STUB/v1/chat/completions'"'"' failed: operation timed out" &&
	stderr_has "(gave up after 2 attempts)" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'connection refused: no retry, a clear error, store unchanged' '
	use_store refused && seed &&
	python3 -c "import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])" >port &&
	read -r port <port &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_API_BASE=http://127.0.0.1:$port/v1 fails_with 1 convctl summarize --verbose &&
	stderr_has "cannot summarize '"'"'$id'"'"': request to '"'"'http://127.0.0.1:$port/v1/chat/completions'"'"' failed: " &&
	lacks retrying "$T/err" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'the offline summarizer: exact, deterministic, no request' '
	use_store offline && export CONVCTL_IDLE_TIMEOUT=600 && stub_script "$OK" &&
	convctl add --at 2026-02-04T17:26:40Z "add milk to the groceries list, please. And eggs." >/dev/null &&
	convctl add --role assistant --tool read_file --tool edit_file --at 2026-02-04T17:26:41.250Z \
	    "Added milk to Lists/Groceries.md." >/dev/null &&
	convctl add --at 2026-02-04T17:28:00Z "Thanks!
Also eggs." >/dev/null &&
	convctl add --role assistant --tool edit_file --at 2026-02-04T19:31:10Z "Added eggs too." >/dev/null &&
	CONVCTL_NOW=2026-02-04T20:00:00Z convctl end --no-summary >id && read -r id <id &&
	CONVCTL_SUMMARIZER=offline convctl summarize >out &&
	stub_count 0 &&
	printf "%s\tAdd milk to the groceries list, please\n" "$id" >expect && same_file expect out &&
	fields_are "$id" summary "User asked: \"add milk to the groceries list, please. And eggs.\" Assistant answered: \"Added eggs too.\" Tools used: read_file, edit_file. 4 messages over 2 hours 4 minutes, 2026-02-04 17:26 to 19:31 UTC." &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_SUMMARIZER=offline convctl summarize --force >/dev/null &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'offline is the default when no key or base URL is set' '
	use_store default && seed && stub_script "$OK" &&
	(unset CONVCTL_API_KEY CONVCTL_API_BASE && convctl summarize >out) &&
	stub_count 0 &&
	fields_are "$id" title "Add milk to my groceries list" \
	    "$id" summary "User asked: \"Add milk to my groceries list\". Assistant answered: \"Added milk to Lists/Groceries.md.\" Tools used: read_file, edit_file. 2 messages within a minute, 2026-02-04 17:26 UTC."
'

test_expect 'a writer adding messages while a summary is in flight: nothing lost' '
	{ use_store race && seed && stub_script "$HELD" &&
	  rm -f "$T/release"; } || return 1
	{ convctl summarize >out 2>err; echo $? >status; } &
	wait_for_request &&
	convctl --wait 0 add --at 2026-02-04T18:00:00Z "a message said meanwhile" >new &&
	read -r new <new &&
	convctl --wait 0 add --role assistant --at 2026-02-04T18:00:01Z "and its answer" >/dev/null &&
	touch "$T/release" && wait &&
	file_is 0 status &&
	fields_are "$id" title "Adding milk to the grocery list" \
	    "$id" "messages | length" 2 \
	    "$new" "messages | length" 2 \
	    "$new" "messages[0].content" "a message said meanwhile" \
	    "$new" endedAt null &&
	store_is "$CONVCTL_STORE" -c ".conversations | length" 2
'

test_expect 'a conversation changed while in flight is not overwritten' '
	{ use_store race2 && seed && stub_script "$HELD" &&
	  rm -f "$T/release"; } || return 1
	{ convctl summarize >out 2>err; echo $? >status; } &
	wait_for_request &&
	CONVCTL_SUMMARIZER=offline convctl --wait 0 summarize "$id" >/dev/null &&
	touch "$T/release" && wait &&
	file_is 1 status &&
	holds "convctl: summarize: '"'"'$id'"'"' changed while it was summarized; its summary is dropped" err &&
	fields_are "$id" title "Add milk to my groceries list"
'

test_expect 'a long conversation is sent as its start and end with a marked gap' '
	use_store long && stub_script "$OK" &&
	i=0 lorem= dolor= &&
	while [ $i -lt 2000 ]; do lorem="${lorem}lorem ipsum " dolor="${dolor}dolor sit " i=$((i + 1)); done &&
	convctl add --at 2026-02-04T17:00:00Z "FIRST-WORDS $lorem" >/dev/null &&
	convctl add --role assistant --at 2026-02-04T17:00:01Z "$dolor LAST-WORDS" >/dev/null &&
	convctl end --no-summary >id && read -r id <id &&
	CONVCTL_CONTEXT_CHARS=2000 convctl summarize >out &&
	req_is 1 -r ".body.messages[1].content | contains(\"FIRST-WORDS\") and contains(\"LAST-WORDS\")" true \
	    -r ".body.messages[1].content | split(\"\n\") | any(test(\"^[[][.][.][.] [0-9]* characters omitted [.][.][.][]]$\"))" true \
	    -r ".body.messages[1].content | utf8bytelength + 1 < 2300" true &&
	fields_are "$id" title "Adding milk to the grocery list"
'

test_expect 'the proxy variables libcurl honours are used' '
	use_store proxy && seed && stub_script "$OK" &&
	http_proxy=$STUB CONVCTL_API_BASE=http://llm.invalid/v1 convctl summarize >out &&
	req_is 1 -r .path http://llm.invalid/v1/chat/completions &&
	fields_are "$id" title "Adding milk to the grocery list"
'

test_expect 'TLS is verified: a self-signed server fails, its CA bundle works' '
	test -n "$TLS" || { echo "no openssl to make a certificate"; return 1; }
	use_store tls && seed && stub_script "$OK" &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_API_BASE=$TLS/v1 fails_with 1 convctl summarize &&
	stderr_has "request to '"'"'$TLS/v1/chat/completions'"'"' failed: " &&
	stderr_has "certificate" && stub_count 0 && store_kept "$CONVCTL_STORE" &&
	if line_like "*[Ff][Aa][Ii][Ll][Ee][Dd]: [Ss][Ss][Ll]*" "$T/err"; then
		# libcurl names the library: quoted as it wrote it, not "sSL"
		stderr_has "failed: SSL certificate problem"
	fi &&
	CONVCTL_API_BASE=$TLS/v1 CONVCTL_CA_BUNDLE=$T/cert.pem convctl summarize >out &&
	stub_count 1 && req_is 1 -r .path /v1/chat/completions &&
	fields_are "$id" title "Adding milk to the grocery list" &&
	CONVCTL_CA_BUNDLE=$T/nonexistent.pem fails_with 1 convctl summarize --force &&
	stderr_has "cannot read ca_bundle '"'"'$T/nonexistent.pem'"'"'"
'

test_expect '--pending, --all, --force, --dry-run and --json' '
	use_store many && stub_script "$OK" &&
	seed && a=$id &&
	convctl add --at 2026-02-05T10:00:00Z "Second one" >/dev/null &&
	CONVCTL_NOW=2026-02-05T10:05:00Z convctl end --no-summary >b && read -r b <b &&
	convctl add --at 2026-02-06T10:00:00Z "Third one" >/dev/null &&
	CONVCTL_NOW=2026-02-06T10:05:00Z convctl end --no-summary >c && read -r c <c &&
	convctl add --at 2026-02-07T10:00:00Z "still active" >/dev/null &&
	CONVCTL_SUMMARIZER=offline convctl summarize "$b" >/dev/null &&
	keep_store "$CONVCTL_STORE" &&
	convctl summarize --pending --dry-run >out &&
	printf "%s\n%s\n" "$c" "$a" >expect && test_cmp expect out &&
	stub_count 0 && store_kept "$CONVCTL_STORE" &&
	convctl summarize --all --dry-run --json >out &&
	jq_is out -c "[.[] | [.id, .status]]" "[[\"$c\",\"would-summarize\"],[\"$b\",\"skipped\"],[\"$a\",\"would-summarize\"]]" &&
	convctl summarize --pending --json >out &&
	stub_count 2 &&
	jq_is out -c "[.[] | [.id, .status, .title, .error]]" "[[\"$c\",\"summarized\",\"Adding milk to the grocery list\",null],[\"$a\",\"summarized\",\"Adding milk to the grocery list\",null]]" &&
	fields_are "$b" title "Second one" &&
	stub_script "$OK" && convctl summarize --pending >out && test ! -s out && stub_count 0 &&
	convctl summarize --all --force >out && stub_count 3 &&
	lines_are 3 out &&
	fields_are "$b" title "Adding milk to the grocery list"
'

test_expect 'a progress line on a terminal, none elsewhere' '
	use_store progress && seed &&
	convctl add --at 2026-02-05T10:00:00Z "Second one" >/dev/null &&
	convctl end --no-summary >/dev/null &&
	on_tty "$CONVCTL_BIN" summarize --all --summarizer offline >tty &&
	holds "summarizing 1/2 " tty && holds "summarizing 2/2 " tty &&
	convctl summarize --all --force --summarizer offline >out 2>err &&
	test ! -s err && lines_are 2 out
'

test_expect 'an already summarized conversation is left alone without --force' '
	use_store again && seed && stub_script "$OK" &&
	convctl summarize >/dev/null && stub_script "$OK" &&
	keep_store "$CONVCTL_STORE" &&
	convctl summarize "$id" >out 2>err && test ! -s out && stub_count 0 &&
	holds "already has a summary; --force makes a new one" err &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'bad requests: usage errors and missing conversations' '
	use_store bad && seed &&
	fails_with 2 convctl summarize --pending "$id" && stderr_has "give one of ID, --pending or --all" &&
	fails_with 2 convctl summarize --pending --all &&
	fails_with 2 convctl summarize --summarizer gpt && stderr_has "unknown summarizer '"'"'gpt'"'"'" &&
	fails_with 2 convctl summarize --api-key x &&
	fails_with 1 convctl summarize conv-nope && stderr_has "no conversation '"'"'conv-nope'"'"'" &&
	convctl add "open one" >/dev/null && convctl add "still open" >act && read -r act <act &&
	fails_with 1 convctl summarize "$act" && stderr_has "is still active; end it first" &&
	CONVCTL_SUMMARIZER=bogus fails_with 1 convctl summarize &&
	stderr_has "invalid CONVCTL_SUMMARIZER '"'"'bogus'"'"': expected openai, anthropic, offline or none" &&
	CONVCTL_TIMEOUT=soon fails_with 1 convctl summarize && stderr_has "CONVCTL_TIMEOUT expects a number from 0.001 to 86400, not '"'"'soon'"'"'" &&
	CONVCTL_API_BASE=ftp://x fails_with 1 convctl summarize && stderr_has "expected an http:// or https:// URL" &&
	CONVCTL_SUMMARIZER=none fails_with 1 convctl summarize && stderr_has "summaries are turned off" &&
	CONVCTL_API_KEY="$(printf "sk-1\r\nX-Evil: 1")" fails_with 1 convctl summarize &&
	stderr_has "the key in CONVCTL_API_KEY holds a control character" && lacks Evil "$T/err" &&
	(unset CONVCTL_API_BASE CONVCTL_API_KEY && CONVCTL_SUMMARIZER=openai fails_with 1 convctl summarize) &&
	stderr_has "needs an API key"
'

test_expect 'a config file holding a key readable by others is refused' '
	use_store config && seed && stub_script "$OK" &&
	mkdir -p "$XDG_CONFIG_HOME/convctl" &&
	printf "api_key = %s\napi_base = %s/v1\n" "$KEY" "$STUB" >"$XDG_CONFIG_HOME/convctl/config" &&
	chmod 644 "$XDG_CONFIG_HOME/convctl/config" &&
	(unset CONVCTL_API_KEY CONVCTL_API_BASE &&
	 fails_with 1 convctl summarize &&
	 stderr_has "holds an API key but is readable by others (mode 644)" &&
	 no_key "$T/err" && stub_count 0 &&
	 chmod 600 "$XDG_CONFIG_HOME/convctl/config" &&
	 convctl summarize >out 2>err) &&
	rm "$XDG_CONFIG_HOME/convctl/config" &&
	req_is 1 -r .headers.authorization "Bearer $KEY" &&
	no_key out err
'

test_expect '--help tells the whole story' '
	convctl summarize --help >out &&
	line_like "usage: convctl summarize * [[]ID | --pending | --all]" out &&
	for o in --pending --all --force --dry-run --json --verbose --summarizer --model --api-base; do
		holds "$o" out || return 1
	done
'

test_done
