# tests/llm-stub.sh - the stub LLM server (tests/llm-stub.py) for CLI tests.
# Source it after lib.sh. It starts the stub on 127.0.0.1 and kills it when
# the test file ends.
#   stub_script 'JSON'   the canned responses from now on; empties the log
#   $STUB                http://127.0.0.1:PORT
#   $STUB_LOG            the requests received, one JSON object a line
#   stub_count N         exactly N requests were received
#   wait_for_request     waits until a request has arrived
#   stub_start NAME ARGS another stub (ARGS for llm-stub.py, e.g. TLS);
#                        its port in $stub_port and $T/NAME.port; same
#                        script and log
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

# wait_for_request: blocks until a request has arrived (60 s at most),
# reading the first stub's clock (a line every 20 ms on its FIFO): no sleep
# a try. The FIFO is opened as the stub's own descriptor, /proc/PID/fd/3,
# which is gone once the stub has died (where the FIFO's name would block
# the open, no writer left); the stub dying while read waits ends the read
wait_for_request() {
	for wr_pid in $STUB_PIDS; do break; done
	n=0
	while [ ! -s "$STUB_LOG" ]; do
		n=$((n + 1))
		[ "$n" -le 3000 ] || { echo "no request reached the stub"; return 1; }
		read -r l || { echo "the stub LLM server is gone"; return 1; }
	done <"/proc/$wr_pid/fd/3" || { echo "the stub LLM server is gone"; return 1; }
}

# started at the top level of a test file, so the EXIT trap knows its pid.
# The stub writes its port to a FIFO once it listens, and the shell blocks
# on reading it: no polling. The FIFO is opened for the stub (its fd 3)
# before python3 starts, so that a stub that fails to start, or dies before
# its port, ends the shell's read with the FIFO's end (and an empty port)
stub_start() {
	name=$1
	shift
	mkfifo "$T/$name.fifo" || exit 1
	python3 "$top/tests/llm-stub.py" --port-fd 3 \
	    --script "$T/script.json" --log "$STUB_LOG" "$@" \
	    2>"$T/$name.err" 3>"$T/$name.fifo" &
	STUB_PIDS="$STUB_PIDS $!"
	stub_port=
	read -r stub_port <"$T/$name.fifo" || :
	case $stub_port in
	"" | *[!0-9]*)
		echo "Bail out! the stub LLM server '$name' did not start"
		while IFS= read -r l; do echo "$l"; done <"$T/$name.err"
		exit 1
		;;
	esac
	echo "$stub_port" >"$T/$name.port"
}

trap 'for p in $STUB_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
stub_script '[{"reply": "TITLE: Stub title\nSUMMARY: Stub summary."}]'
stub_start stub
STUB=http://127.0.0.1:$stub_port
