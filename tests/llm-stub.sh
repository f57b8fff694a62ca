# tests/llm-stub.sh - the stub LLM server (tests/llm-stub.py) for CLI tests.
# Source it after lib.sh. It starts the stub on 127.0.0.1 and kills it when
# the test file ends.
#   stub_script 'JSON'   the canned responses from now on; empties the log
#   $STUB                http://127.0.0.1:PORT
#   $STUB_LOG            the requests received, one JSON object a line
#   stub_count N         exactly N requests were received
#   wait_for_request     waits until a request has arrived
# No proxy of the caller's may stand between convctl and the stub.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY \
    no_proxy NO_PROXY

STUB_LOG=$T/requests

stub_script() {
	printf '%s\n' "$1" >"$T/script.json"
	: >"$STUB_LOG"
}

stub_count() {
	got=$(wc -l <"$STUB_LOG")
	[ "$got" -eq "$1" ] || { echo "$got requests, want $1:"; cat "$STUB_LOG"; return 1; }
}

wait_for_request() {
	n=0
	while [ ! -s "$STUB_LOG" ]; do
		n=$((n + 1))
		[ "$n" -lt 1200 ] || { echo "no request reached the stub"; return 1; }
		sleep 0.05
	done
}

stub_script '[{"reply": "TITLE: Stub title\nSUMMARY: Stub summary."}]'
python3 "$top/tests/llm-stub.py" --port-file "$T/port" \
    --script "$T/script.json" --log "$STUB_LOG" 2>"$T/stub.err" &
STUB_PID=$!
trap 'kill "$STUB_PID" 2>/dev/null; wait "$STUB_PID" 2>/dev/null; rm -rf "$T"' EXIT
n=0
while [ ! -s "$T/port" ]; do
	n=$((n + 1))
	if [ "$n" -gt 400 ] || ! kill -0 "$STUB_PID" 2>/dev/null; then
		echo "Bail out! the stub LLM server did not start"
		cat "$T/stub.err"
		exit 1
	fi
	sleep 0.05
done
STUB=http://127.0.0.1:$(cat "$T/port")
