# tests/llm-stub.sh - the stub LLM server (tests/llm-stub.py) for CLI tests.
# Source it after lib.sh. It starts the stub on 127.0.0.1 and kills it when
# the test file ends.
#   stub_script 'JSON'   the canned responses from now on; empties the log
#   $STUB                http://127.0.0.1:PORT
#   $STUB_LOG            the requests received, one JSON object a line
#   stub_count N         exactly N requests were received
#   wait_for_request     waits until a request has arrived
#   stub_start NAME ARGS another stub (ARGS for llm-stub.py, e.g. TLS);
#                        prints its port; same script and log
# No proxy of the caller's may stand between convctl and the stub.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY \
    no_proxy NO_PROXY

STUB_LOG=$T/requests
STUB_PIDS=

stub_script() {
	printf '%s\n' "$1" >"$T/script.json"
	: >"$STUB_LOG"
}

# the log's lines counted by the shell, as wc -l counts them (a last line
# without its newline is none): no process a count
stub_count() {
	got=0
	while IFS= read -r l; do got=$((got + 1)); done <"$STUB_LOG"
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

# started at the top level of a test file, so the EXIT trap knows its pid
stub_start() {
	name=$1
	shift
	python3 "$top/tests/llm-stub.py" --port-file "$T/$name.port" \
	    --script "$T/script.json" --log "$STUB_LOG" "$@" 2>"$T/$name.err" &
	STUB_PIDS="$STUB_PIDS $!"
	n=0
	while [ ! -s "$T/$name.port" ]; do
		n=$((n + 1))
		if [ "$n" -gt 400 ] || ! kill -0 "$!" 2>/dev/null; then
			echo "Bail out! the stub LLM server '$name' did not start"
			cat "$T/$name.err"
			exit 1
		fi
		sleep 0.05
	done
}

trap 'for p in $STUB_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
stub_script '[{"reply": "TITLE: Stub title\nSUMMARY: Stub summary."}]'
stub_start stub
STUB=http://127.0.0.1:$(cat "$T/stub.port")
