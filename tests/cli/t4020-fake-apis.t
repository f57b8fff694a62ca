#!/bin/sh
# the fake model APIs the real transcripts were made against
# (tests/helpers/fake-gemini-api.py and fake-model-api.py, on fakeapi.py):
# each answers as its API does, logs each request, and ends cleanly when
# the scripts stop it (SIGTERM)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the helpers, not a store"

H=$top/tests/helpers

# asks URL OUT PATH BODY [OUT PATH BODY]...: a POST of each BODY to
# URL/PATH in turn, by one python: the reply's body in OUT, or, when the
# request fails, the error in OUT.err (and no OUT)
asks() {
	python3 -c 'import sys, urllib.request as u
url = sys.argv[1]
for out, path, body in zip(*[iter(sys.argv[2:])] * 3):
    try:
        r = u.urlopen(u.Request(url + path, data=body.encode(), method="POST"))
        body = r.read().decode()
    except Exception as e:
        open(out + ".err", "w").write("%s\n" % e)
    else:
        open(out, "w").write(body)' "$@"
}

# serve FAKE DIR: FAKE started on a free port, once it listens; $pid, $url.
# The port is read from a FIFO where the fake writes it (its port file
# before the rename, DIR/port.tmp), the shell blocked on the read: no
# polling. The FIFO is held open for the fake (its fd 3) from before
# python3 starts, so that a fake that fails ends the read (no port)
serve() {
	{ mkdir -p "$2" && mkfifo "$2/port.tmp"; } || return 1
	python3 "$H/$1" --port-file "$2/port" --log "$2/log" --read-path /w/notes.txt \
	    3>"$2/port.tmp" &
	pid=$! &&
	read -r url <"$2/port.tmp" && url=http://127.0.0.1:$url
}

# stopped: $pid ended by SIGTERM, and exited 0
stopped() {
	kill "$pid" && wait "$pid"
}

# events FILTER FILE OPTION: FILTER of each server-sent event's data in
# FILE (its "data: " lines), by one jq (no sed before it) given OPTION
# (-c, -r)
events() {
	jq -R "select(startswith(\"data: \")) | .[6:] | fromjson | $1" "$2" "$3"
}

test_expect 'Gemini'\''s: a call of read_file for the notes, streamed a part a chunk; the request logged; SIGTERM ends it, 0' '
	serve fake-gemini-api.py g &&
	asks "$url" out "/v1beta/models/m:streamGenerateContent?alt=sse" "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"What do my notes say?\"}]}], \"tools\": [{\"functionDeclarations\": [{\"name\": \"read_file\"}]}]}" &&
	stopped && test ! -e out.err &&
	events ".candidates[0].content.parts[0]" out -c >got &&
	printf "%s\n" "{\"text\":\"Let me read them.\"}" "{\"functionCall\":{\"name\":\"read_file\",\"args\":{\"file_path\":\"/w/notes.txt\"}}}" >want &&
	same_file want got &&
	jq -c "[.method, .path, .body.contents[0].parts[0].text]" g/log >got &&
	echo "[\"POST\",\"/v1beta/models/m:streamGenerateContent?alt=sse\",\"What do my notes say?\"]" >want &&
	same_file want got
'

test_expect 'Anthropic'\''s and OpenAI'\''s: a tool call, then the closing reply to its result; a 404 elsewhere' '
	serve fake-model-api.py m &&
	asks "$url" a1 /v1/messages "{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Hi\"}]}], \"tools\": [{\"name\": \"Read\"}]}" \
	    a2 /v1/responses "{\"input\": [{\"type\": \"function_call_output\"}]}" \
	    a3 /v1/nothing "{}" &&
	stopped &&
	test ! -e a1.err && test ! -e a2.err && test ! -e a3 &&
	jq -c "[.content[] | .type], .content[1].input" a1 >got &&
	printf "%s\n" "[\"text\",\"tool_use\"]" "{\"file_path\":\"/w/notes.txt\"}" >want &&
	same_file want got &&
	events "select(.type == \"response.completed\") | .response.output[0].content[0].text" a2 -r >got &&
	echo "The notes say to glaze the bowls on Friday." >want &&
	same_file want got &&
	holds "404" a3.err &&
	jq -r .path m/log >got && printf "%s\n" /v1/messages /v1/responses /v1/nothing >want &&
	same_file want got
'

test_done
