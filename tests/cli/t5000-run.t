#!/bin/sh
# convctl run -- CMD: CMD's output streamed and recorded with its prompt
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_BIN
# bg_convctl ARGS... &: convctl as the job itself, for $! to be its pid (the
# exec), with SIGINT as an interactive shell's job has it: sh starts a
# background job with SIGINT ignored, which convctl and CMD would keep
bg_convctl() {
	exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
	    $CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"
}

# messages [N]: the active (else latest) conversation's messages, one a
# line, as role: content, with [tools] after an assistant's when it has
# them; with N, the last N lines of that text (as tail -n N gives them: a
# message of two lines is two); the conversation as show printed it is left
# in $T/shown. No pipe: show to a file, then jq (its slice, no tail)
messages() {
	convctl show --format json >"$T/shown" &&
	jq -r --argjson n "${1:-0}" '[.messages[] |
	    "\(.role): \(.content)" + if .toolsUsed then " \(.toolsUsed)" else "" end |
	    split("\n")[]] | .[-$n:][]' "$T/shown"
}

# last_message: the latest message, as messages prints it (its jq takes
# it: no tail)
last_message() {
	convctl show --format json >"$T/shown" &&
	jq -r '.messages[-1] |
	    "\(.role): \(.content)" + if .toolsUsed then " \(.toolsUsed)" else "" end' "$T/shown"
}

# first_is TEXT FILE: FILE's first line is TEXT; else says what it is
first_is() {
	fi_first=
	{ IFS= read -r fi_first || [ -n "$fi_first" ]; } <"$2"
	[ "$fi_first" = "$1" ] || { echo "$2: first line '$fi_first', want '$1'"; return 1; }
}

# wait_for FILE TEXT: until FILE holds TEXT, 20 s at most (read by the
# shell: a sleep a try, no grep)
wait_for() {
	i=0
	until holds "$2" "$1" >/dev/null 2>&1; do
		i=$((i + 1))
		[ "$i" -lt 400 ] || { echo "no '$2' in $1 after 20 s"; return 1; }
		sleep 0.05
	done
}

test_expect '--prompt TEXT is the last argument; prompt and answer recorded' '
	convctl run --prompt "why?" -- printf "%s|%s\n" because >out 2>err &&
	echo "because|why?" >want && same_file want out && test ! -s err &&
	printf "%s\n" "user: why?" "assistant: because|why?" >want &&
	messages >got && same_file want got
'

test_expect 'without --prompt, standard input is the prompt and CMD'\''s input' '
	printf "tell me\n\n" | convctl run -- tr a-z A-Z >out &&
	printf "TELL ME\n\n" >want && same_file want out &&
	messages 2 >got &&
	printf "%s\n" "user: tell me" "assistant: TELL ME" >want && same_file want got
'

test_expect 'options end at CMD, -- or not; --tool goes with the answer' '
	convctl run --prompt hi --tool web --tool calc printf "%s|" -s >out &&
	printf "%s" "-s|hi|" >want && same_file want out &&
	last_message >got &&
	echo "assistant: -s|hi| [\"web\",\"calc\"]" >want && same_file want got
'

test_expect 'output reaches stdout as it comes, before CMD ends' '
	bg_convctl run --prompt go -- sh -c "echo first; i=0
	    while [ ! -e go.flag ] && [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done
	    echo second" >out 2>err &
	pid=$!
	wait_for out first && lacks second out &&
	: >go.flag && wait $pid &&
	printf "first\nsecond\n" >want && same_file want out &&
	messages 2 >got && printf "assistant: first\nsecond\n" >want &&
	same_file want got
'

test_expect 'a failing CMD: its status, the prompt kept, the partial answer not' '
	convctl add before >/dev/null &&
	fails_with 3 convctl run --prompt "fail please" -- sh -c "echo partial; exit 3" &&
	echo partial >want && same_file want "$T/stdout" &&
	stderr_has "run: '\''sh'\'' exited with status 3; recorded the prompt, not its partial answer (--keep-partial records it)" &&
	messages 2 >got &&
	printf "%s\n" "user: before" "user: fail please" >want && same_file want got
'

test_expect '--keep-partial records what a failing CMD printed' '
	fails_with 3 convctl run --keep-partial --prompt again -- sh -c "echo half; exit 3" &&
	stderr_has "exited with status 3; recorded the prompt and the partial answer" &&
	messages 2 >got &&
	printf "%s\n" "user: again" "assistant: half" >want && same_file want got
'

test_expect 'a CMD killed by a signal: 128 + the signal, as shells say' '
	fails_with 143 convctl run --prompt die -- sh -c "echo some; kill -TERM \$\$" &&
	stderr_has "'\''sh'\'' was killed by signal 15" &&
	stderr_has "recorded the prompt, not its partial answer" &&
	last_message >got && echo "user: die" >want && same_file want got
'

test_expect 'SIGINT and SIGTERM sent to convctl reach CMD, once each' '
	for s in INT TERM; do
		: >out
		bg_convctl run --prompt "sig $s" -- sh -c "trap \"echo got $s; exit 7\" $s
		    echo ready; i=0; while [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done" >out 2>err &
		pid=$! &&
		wait_for out ready && kill -$s $pid &&
		{ wait $pid; rc=$?; } &&
		test "$rc" -eq 7 && printf "ready\ngot %s\n" $s >want &&
		same_file want out || return 1
	done &&
	last_message >got && echo "user: sig TERM" >want && same_file want got
'

# convctl a process of its own (convctl_exec): the signal dispositions it
# inherits from the shell, and gives CMD, are what this checks
test_expect 'CMD finds the signals as convctl did: ignored ones (nohup) ignored' '
	sh -c "grep SigIgn /proc/\$\$/status" >want &&
	convctl_exec run --prompt x -- sh -c "grep SigIgn /proc/\$\$/status" sh >got &&
	same_file want got &&
	(trap "" HUP; sh -c "grep SigIgn /proc/\$\$/status") >want &&
	(trap "" HUP; convctl_exec run --prompt x -- sh -c "grep SigIgn /proc/\$\$/status" sh) >got &&
	same_file want got &&
	while IFS= read -r l; do	# a signal ignored, as grep "SigIgn:[[:space:]]*0*$" would not find
		case $l in SigIgn:*)
			v=${l#SigIgn:} && v=${v#"${v%%[![:space:]]*}"}
			case $v in *[!0]*) ;; *) echo "no signal ignored: $l"; return 1 ;; esac
		esac
	done <want
'

# a timing case, left out until it is made exact: on a busy machine it has
# failed under ASan, valgrind and once plain on PostgreSQL ("ready" seen,
# cmd.pid not there); the rule it checks, a second SIGINT stops waiting, is
# the terminal's case below too. TEST_SIGINT=1 runs it
if [ -n "${TEST_SIGINT:-}" ]; then
	test_expect 'a second SIGINT stops waiting: 130, the prompt recorded' '
		# no "out" of the case before (its "ready" would be seen before the
		# job below has made its own, and python killed before it starts)
		rm -f out cmd.pid &&
		bg_convctl run --prompt stubborn -- sh -c "trap \"\" INT; echo \$\$ >cmd.pid
		    echo ready; exec sleep 60" >out 2>err &
		pid=$! &&
		wait_for out ready &&
		# two SIGINTs that reach convctl while it has them blocked (a write
		# under the lock on a loaded machine, a build with sanitizers) are one,
		# as signals do not queue: another every 0.5 s until it stops waiting
		kill -INT $pid && i=0 &&
		while sleep 0.5 && kill -INT $pid 2>/dev/null && [ $i -lt 40 ]; do
			i=$((i + 1))
		done
		wait $pid; rc=$?
		kill "$(cat cmd.pid)" &&
		test "$rc" -eq 130 &&
		grep -q "run: stopped waiting for '\''sh'\'' (pid [0-9]*), which may still run; recorded the prompt" err &&
		last_message >got && echo "user: stubborn" >want && same_file want got
	'
else
	test_n=$((test_n + 1))
	echo "ok $test_n # SKIP a second SIGINT by kill: a timing case (TEST_SIGINT=1 runs it)"
fi

# ctrl_c N CMD...: CMD on a pseudo-terminal, N ^C typed after it says
# "ready" (a second one 0.5 s after the first); prints what the terminal
# showed, then "exit STATUS". Two SIGINTs that reach a process busy
# elsewhere (a loaded machine, a sanitizer's build) are one, as signals do
# not queue: with N > 1, another ^C every 0.5 s until it stops waiting.
ctrl_c() {
	python3 - "$@" <<-\EOF
	import os, pty, select, signal, sys, time
	n, argv = int(sys.argv[1]), sys.argv[2:]
	pid, fd = pty.fork()
	if pid == 0:
	    # as an interactive shell starts its foreground job; make check
	    # runs the tests as background jobs, SIGINT ignored, and under
	    # nohup SIGHUP is ignored too
	    signal.signal(signal.SIGINT, signal.SIG_DFL)
	    signal.signal(signal.SIGHUP, signal.SIG_DFL)
	    os.execvp(argv[0], argv)
	signal.alarm(60)    # a test that fails, not one that hangs
	out = b""
	while b"ready" not in out:
	    out += os.read(fd, 1024)
	for i in range(n):
	    time.sleep(0.5 if i else 0.1)
	    os.write(fd, b"\x03")
	while True:
	    if not select.select([fd], [], [], 0.5)[0]:
	        if n > 1 and b"stopped waiting" not in out:
	            os.write(fd, b"\x03")
	        continue
	    try:
	        chunk = os.read(fd, 1024)
	    except OSError:
	        break
	    if not chunk:
	        break
	    out += chunk
	_, status = os.waitpid(pid, 0)
	sys.stdout.write(out.decode(errors="replace"))
	print("exit %d" % os.waitstatus_to_exitcode(status))
	EOF
}

test_expect 'the terminal'\''s ^C reaches CMD directly; a second one stops waiting' '
	ctrl_c 1 "$CONVCTL_BIN" run --prompt tty1 -- sh -c "trap \"echo caught; exit 7\" INT
	    echo ready; i=0; while [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done" >tty &&
	holds "caught" tty && has_line "exit 7" tty &&
	ctrl_c 2 "$CONVCTL_BIN" run --prompt tty2 -- sh -c "trap \"\" INT; echo \$\$ >cmd.pid
	    echo ready; exec sleep 60" >tty &&
	read -r cmd <cmd.pid && kill "$cmd" &&
	holds "stopped waiting for" tty && has_line "exit 130" tty &&
	messages 2 >got && printf "%s\n" "user: tty1" "user: tty2" >want &&
	same_file want got
'

test_expect 'output that is not UTF-8: all on stdout, not recorded, a note' '
	fails_with 0 convctl run --prompt bytes -- printf "ok \377 %s\n" &&
	printf "ok \377 bytes\n" >want && cmp want "$T/stdout" &&
	stderr_has "run: recorded the prompt, not its answer: not valid UTF-8 at byte 3; all of it went to standard output" &&
	last_message >got && echo "user: bytes" >want && same_file want got
'

test_expect 'UTF-8 checked as it comes: characters cut between reads, a bad byte far in' '
	convctl run --prompt cut -- python3 -c "import os, time
for b in \"a\u00e9\u65e5\U0001f642\".encode():
    os.write(1, bytes([b])); time.sleep(0.02)" >out &&
	last_message >got &&
	printf "assistant: a\303\251\346\227\245\360\237\231\202\n" >want &&
	same_file want got &&
	fails_with 0 convctl run --prompt far -- python3 -c "import os
os.write(1, b\"x\" * 500000 + b\"\\xe6\\x97y\")" &&
	stderr_has "not its answer: not valid UTF-8 at byte 500000" &&
	test "$(wc -c <"$T/stdout")" -eq 500003
'

test_expect 'output past max_message_bytes: all on stdout, not recorded' '
	CONVCTL_MAX_MESSAGE_BYTES=1000 fails_with 0 convctl run --prompt big -- \
	    sh -c "head -c 300000 /dev/zero | tr \"\\\\0\" x" &&
	test "$(wc -c <"$T/stdout")" -eq 300000 &&
	stderr_has "not its answer: 300000 bytes, larger than the limit of 1000 bytes (the max_message_bytes setting)" &&
	last_message >got && echo "user: big" >want && same_file want got
'

test_expect 'output past the limit reaches a file, a file opened to append and a pipe whole' '
	seq 1 200000 >want &&
	CONVCTL_MAX_MESSAGE_BYTES=1000 convctl run --prompt seq -- sh -c "cat want" \
	    >out 2>err && test_cmp want out &&
	holds "not its answer: 1288895 bytes, larger than the limit" err &&
	echo before >app &&
	CONVCTL_MAX_MESSAGE_BYTES=1000 convctl run --prompt seq -- sh -c "cat want" \
	    >>app 2>err && first_is before app && cmp -i 7:0 app want &&
	CONVCTL_MAX_MESSAGE_BYTES=1000 convctl run --prompt seq -- sh -c "cat want" \
	    2>err | cat >piped && test_cmp want piped &&
	holds "not its answer: 1288895 bytes, larger than the limit" err
'

test_expect 'a prompt past max_message_bytes, or empty: CMD never runs' '
	CONVCTL_MAX_MESSAGE_BYTES=10 fails_with 1 convctl run --prompt 01234567890 -- touch ran &&
	stderr_has "run: --prompt is larger than the limit of 10 bytes" &&
	printf "\n\n" | fails_with 1 convctl run -- touch ran &&
	stderr_has "run: empty message" &&
	printf "\377" | fails_with 1 convctl run -- touch ran &&
	stderr_has "not valid UTF-8" &&
	fails_with 1 convctl run --prompt x --tool "" -- touch ran &&
	test ! -e ran
'

test_expect 'no CMD, or one not found: usage error, 127; nothing recorded' '
	fails_with 2 convctl run --prompt x &&
	stderr_has "convctl: run: no command to run: give it after --" &&
	stderr_has "usage: convctl run" &&
	fails_with 2 convctl run --prompt x -- &&
	stderr_has "convctl: run: no command to run: give it after --" &&
	snapshot "$CONVCTL_STORE" &&
	fails_with 127 convctl run --prompt x -- no-such-command-here &&
	stderr_has "run: cannot run '\''no-such-command-here'\'': No such file or directory; nothing recorded" &&
	unchanged "$CONVCTL_STORE"
'

test_expect '--context: the conversation as prompt prints it, a blank line, the prompt' '
	convctl end >/dev/null &&
	convctl add "first q" >/dev/null && convctl add -r assistant "first a" >/dev/null &&
	convctl prompt >want && echo >>want && echo "next q" >>want &&
	echo "next q" | convctl run --context -- cat >out && same_file want out &&
	convctl prompt --format openai >want && echo >>want && printf "second q" >>want &&
	printf "second q" | convctl run --context=openai -- cat >out &&
	same_file want out &&
	convctl prompt --format jsonl >want && echo >>want && echo "[third q]" >>want &&
	convctl run --context=jsonl --prompt "third q" -- sh -c "cat; echo \"[\$1]\"" sh >out &&
	same_file want out &&
	fails_with 2 convctl run --context=yaml -- cat &&
	stderr_has "unknown format '\''yaml'\''"
'

test_expect '--context with nothing active: the prompt alone' '
	convctl end >/dev/null &&
	echo "fresh" | convctl run --context -- cat >out &&
	echo fresh >want && same_file want out
'

test_expect 'the store is not locked while CMD runs: CMD may add to it' '
	convctl add "open" >/dev/null &&
	convctl run --prompt outer -- sh -c "\"\$CONVCTL_BIN\" add --wait 0 inner >/dev/null &&
	    echo answered" >out &&
	echo answered >want && same_file want out &&
	messages 4 >got &&
	printf "%s\n" "user: open" "user: inner" "user: outer" "assistant: answered" >want &&
	same_file want got
'

test_expect 'ended while CMD ran, nothing active: the exchange starts a new one' '
	convctl add "topic" >id && read -r id <id &&
	convctl run --prompt late -- sh -c "\"\$CONVCTL_BIN\" end --no-summary >/dev/null; echo reply" >out 2>err &&
	printf "%s\n" "user: late" "assistant: reply" >want && messages >got && same_file want got &&
	jq -r .id "$T/shown" >new && read -r new <new && test "$new" != "$id" &&
	holds "run: conversation '\''$id'\'' was ended while '\''sh'\'' ran; the exchange starts conversation '\''$new'\''" err &&
	convctl show "$id" --format json >old && jq_is old -r ".messages[-1].content" topic
'

test_expect 'another conversation active by then: exit 4, nothing recorded' '
	convctl add "topic 2" >id && read -r id <id &&
	fails_with 4 convctl run --prompt lost -- sh -c "\"\$CONVCTL_BIN\" end --no-summary >/dev/null
	    \"\$CONVCTL_BIN\" add other >/dev/null; echo reply" &&
	echo reply >want && same_file want "$T/stdout" &&
	stderr_has "became active while the command ran; the exchange belongs to '\''$id'\''; nothing recorded" &&
	messages >got && echo "user: other" >want && same_file want got
'

test_expect 'idle rules of add: idle at the start ends it; the answer joins its question' '
	CONVCTL_STORE=$T/idle.json && export CONVCTL_STORE &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "long ago" >old && read -r old <old &&
	CONVCTL_NOW=2026-02-04T11:00:00Z convctl run --prompt now -- printf "yes\n" >/dev/null &&
	convctl show "$old" --format json >old.json &&
	jq_is old.json -r .endedAt 2026-02-04T10:00:00.000Z &&
	printf "%s\n" "user: now" "assistant: yes" >want && messages >got && same_file want got &&
	convctl --idle-timeout 0 run --prompt slow -- sh -c "sleep 0.2; echo done" >/dev/null &&
	printf "%s\n" "user: slow" "assistant: done" >want && messages >got && same_file want got
'

test_expect 'a reader that goes away: CMD read to its end, recorded, its status' '
	{ convctl run --prompt many -- sh -c "i=0; while [ \$i -lt 20000 ]; do
	    echo line \$i; i=\$((i + 1)); done" 2>err; echo $? >rc; } |
	    head -n 1 >out &&
	echo "line 0" >want && same_file want out && echo 0 >want && same_file want rc &&
	printf "%s\n" "convctl: run: standard output was closed before '\''sh'\'' ended; it was read to its end (208890 bytes) and the exchange recorded" >want &&
	same_file want err &&
	convctl show --format json >shown &&
	jq_is shown -c ".messages[-1].content | split(\"\n\") | length" 20000 &&
	{ echo q | convctl run -- seq 1 200000 2>err; echo $? >rc; } | head -n 1 >out &&
	echo 1 >want && same_file want out && echo 0 >want && same_file want rc &&
	holds "closed before '\''seq'\'' ended; it was read to its end (1288895 bytes) and the exchange recorded" err &&
	convctl show --format json >shown &&
	jq_is shown -r ".messages[-2].content" q -c ".messages[-1].content | length" 1288894
'

test_expect 'a reader that goes away from a failing CMD: its status, what was kept' '
	{ convctl run --prompt fail -- sh -c "seq 1 100000; exit 5" 2>err; echo $? >rc; } |
	    head -n 1 >out &&
	echo 5 >want && same_file want rc &&
	line_ends "closed before '\''sh'\'' ended; it was read to its end (588895 bytes)" err &&
	holds "'\''sh'\'' exited with status 5; recorded the prompt, not its partial answer" err &&
	convctl show --format json >shown && jq_is shown -r ".messages[-1].content" fail
'

test_expect 'no --prompt and standard input a terminal: usage error' '
	on_tty "$CONVCTL_BIN" run -- cat >tty; rc=$?;
	test "$rc" -eq 2 && holds "no --prompt given and standard input is a terminal" tty
'
test_done
