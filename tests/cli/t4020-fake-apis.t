#!/bin/sh
# the fake model APIs the real transcripts were made against
# (tests/helpers/fake-gemini-api.py and fake-model-api.py, on fakeapi.py):
# each answers as its API does, logs each request, and ends cleanly when
# the scripts stop it (SIGTERM)
. "$(dirname "$0")/../lib.sh"
file_store_only "the helpers, not a store"

H=$top/tests/helpers

# ask URL PATH BODY: the reply's body to a POST of BODY to URL/PATH
ask() {
	python3 -c 'import sys, urllib.request as u
r = u.urlopen(u.Request(sys.argv[1] + sys.argv[2], data=sys.argv[3].encode(), method="POST"))
sys.stdout.write(r.read().decode())' "$@"
}

# serve FAKE DIR: FAKE started on a free port, once it listens; $pid, $url
serve() {
	mkdir -p "$2" &&
	python3 "$H/$1" --port-file "$2/port" --log "$2/log" --read-path /w/notes.txt &
	pid=$! &&
	wait_until "test -s $2/port" &&
	url=http://127.0.0.1:$(cat "$2/port")
}

# stopped: $pid ended by SIGTERM, and exited 0
stopped() {
	kill "$pid" && wait "$pid"
}

test_expect 'Gemini'\''s: a call of read_file for the notes, streamed a part a chunk; the request logged; SIGTERM ends it, 0' '
	serve fake-gemini-api.py g &&
	ask "$url" "/v1beta/models/m:streamGenerateContent?alt=sse" "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"What do my notes say?\"}]}], \"tools\": [{\"functionDeclarations\": [{\"name\": \"read_file\"}]}]}" >out &&
	stopped &&
	sed -n "s/^data: //p" out | jq -c ".candidates[0].content.parts[0]" >got &&
	printf "%s\n" "{\"text\":\"Let me read them.\"}" "{\"functionCall\":{\"name\":\"read_file\",\"args\":{\"file_path\":\"/w/notes.txt\"}}}" >want &&
	test_cmp want got &&
	jq -c "[.method, .path, .body.contents[0].parts[0].text]" g/log >got &&
	echo "[\"POST\",\"/v1beta/models/m:streamGenerateContent?alt=sse\",\"What do my notes say?\"]" >want &&
	test_cmp want got
'

test_expect 'Anthropic'\''s and OpenAI'\''s: a tool call, then the closing reply to its result; a 404 elsewhere' '
	serve fake-model-api.py m &&
	ask "$url" /v1/messages "{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Hi\"}]}], \"tools\": [{\"name\": \"Read\"}]}" >a1 &&
	ask "$url" /v1/responses "{\"input\": [{\"type\": \"function_call_output\"}]}" >a2 &&
	! ask "$url" /v1/nothing "{}" 2>err &&
	stopped &&
	jq -c "[.content[] | .type], .content[1].input" a1 >got &&
	printf "%s\n" "[\"text\",\"tool_use\"]" "{\"file_path\":\"/w/notes.txt\"}" >want &&
	test_cmp want got &&
	sed -n "s/^data: //p" a2 | jq -r "select(.type == \"response.completed\") | .response.output[0].content[0].text" >got &&
	echo "The notes say to glaze the bowls on Friday." >want &&
	test_cmp want got &&
	holds "404" err &&
	test "$(jq -r .path m/log | tr "\n" " ")" = "/v1/messages /v1/responses /v1/nothing "
'

test_done
