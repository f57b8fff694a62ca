#!/bin/sh
# Bad stores and bad input: a clear error naming the place, or a documented
# acceptance; never a crash, never a changed store. The stores come from
# tests/helpers/badinput.py; every reader and writer runs on each, in the
# test tool's one process (tests/tool/badinput.c), a few through the binary.
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2026-06-01T00:00:00Z

# Every input of a category runs through the test tool (`test-tool
# badinput`, tests/tool/badinput.c): each command run in one process, with
# the checks badinput.py makes of the binary; a few go through the binary
# too (below). badinput.py writes the inputs first, all in one call.
# TEST_FULL=1 (make check-all, CI) or BADINPUT_FULL=1 (make stress) tries
# every input; without it (make check) truncated tries one input in 4, types
# one in 2 and the sources one in 6 (each writer's save is a file's fsync),
# and the big store holds a 10 MB message, not 50, given to recent and add
# only, not to all ten commands. Under a wrapper (valgrind) the tool tries
# one input in 4 of each category and one source in 24, and leaves out
# truncated and big. BADINPUT_STRIDE=K and SOURCES_STRIDE=K choose.
full=${BADINPUT_FULL:-${TEST_FULL:-}}
# :K after a category: one input in K (badinput.py write)
q4=:4 q2=:2
[ -z "$full${BADINPUT_STRIDE:-}${CONVCTL_WRAPPER:-}" ] || q4= q2=
cats="utf8 escapes duplicates types$q2 nesting nul crlf empty notjson version
corpus=$top/tests/fuzz-corpus/store"
[ -z "${CONVCTL_WRAPPER:-}" ] && cats="truncated$q4 $cats big"
stride=${BADINPUT_STRIDE:-1} sources_stride=${SOURCES_STRIDE:-6}
[ -n "$full" ] && sources_stride=${SOURCES_STRIDE:-1}
if [ -n "${CONVCTL_WRAPPER:-}" ] && [ -z "$full" ]; then
	stride=${BADINPUT_STRIDE:-4} sources_stride=${SOURCES_STRIDE:-24}
fi
write_inputs() {
	BADINPUT_STRIDE=$stride python3 "$top/tests/helpers/badinput.py" \
	    write "$T/in" $cats sources:$sources_stride
}
# show_out: what the last run printed, $T/bad.out, shown by the shell (no
# cat a run)
show_out() {
	while IFS= read -r l || [ -n "$l" ]; do printf '%s\n' "$l"; done <"$T/bad.out"
}
# tool_inputs DIR: the tool on one category's inputs
tool_inputs() {
	test_tool badinput "$1" >"$T/bad.out"; status=$?
	show_out
	return $status
}
# summary: the summary line of the last run ("CATEGORY: N inputs, ...") as
# a comment, read by the shell; then emptied (no rm), so that a case
# skipped prints none
summary() {
	[ -s "$T/bad.out" ] || return 0
	while IFS= read -r l; do
		case $l in [a-z]*inputs*) echo "# $l" ;; esac
	done <"$T/bad.out"
	: >"$T/bad.out"
}
test_file 'bad stores and sources written (badinput.py write)' 'write_inputs'
for c in $cats; do
	c=${c%%[=:]*}
	test_file "bad stores: $c" "tool_inputs '$T/in/$c'"
	summary
done
test_file 'bad migrate sources: refused naming the file and place, store unchanged' '
	tool_inputs "$T/in/sources"
'
summary
rm -rf "$T/in"

# through the binary (badinput.py runs it once per input per command): exit
# status 1 and the one line on a real stderr, for a few inputs of a few
# categories (escapes: one whose error quotes a newline and an ESC; sources)
bad_stores() {
	BADINPUT_STRIDE=$2 python3 "$top/tests/helpers/badinput.py" "$1" -- \
	    $CONVCTL_WRAPPER "$CONVCTL_BIN" >"$T/bad.out"; status=$?
	show_out
	return $status
}
test_file 'bad stores through the binary: escapes, notjson, one in 6' '
	bad_stores escapes 6 && bad_stores notjson 6
'
test_file 'bad migrate sources through the binary: one in 600' '
	bad_stores sources 600
'

# input on standard input: a file printf wrote (add reads a pipe and a
# file alike, read() to the end: cmd_stdin_text(), cmd/common.c; a pipe
# would be a process more a case)
test_expect 'add: invalid UTF-8 of each kind is refused, naming the byte' '
	store_rm "$CONVCTL_STORE" &&
	convctl add --at 2026-01-01T00:00:00Z first >/dev/null && keep_store "$CONVCTL_STORE" &&
	for b in "\200" "\303" "\300\257" "\340\200\257" "\355\240\200" "\364\220\200\200" \
	    "\370\210\200\200\200" "\377" "\342\202"; do
		printf "ok $b" >in && fails_with 1 convctl add <in || { echo "for $b"; return 1; }
		stderr_has "not valid UTF-8 at byte 3" && store_kept "$CONVCTL_STORE" || return 1
	done
'

test_expect 'add: NUL bytes are kept (stored as \u0000, documented)' '
	printf "a\000b" >in && convctl add <in >/dev/null &&
	convctl show --format json >shown &&
	jq_is shown -c ".messages[-1].content == \"a\u0000b\"" true &&
	if is_db "$CONVCTL_STORE"; then
		store_json "$CONVCTL_STORE" >stored && holds "a\\u0000b" stored
	else
		holds "a\\u0000b" "$CONVCTL_STORE"
	fi
'

test_expect 'add: CRLF input keeps inner line ends, drops the final one' '
	printf "one\r\ntwo\r\n" >in && convctl add <in >/dev/null &&
	convctl show --format json >shown &&
	jq_is shown -c ".messages[-1].content == \"one\r\ntwo\"" true
'

test_expect 'add: empty input is refused, nothing changed' '
	keep_store "$CONVCTL_STORE" &&
	: >in && fails_with 1 convctl add <in && stderr_has "empty message" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'add: a bad --at and a bad setting are refused before any change' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 2 convctl add --at 1969-12-31T23:59:59Z x && stderr_has "--at" &&
	fails_with 2 convctl add --at "2026-02-30" x &&
	CONVCTL_IDLE_TIMEOUT=abc fails_with 1 convctl add x && stderr_has "CONVCTL_IDLE_TIMEOUT" &&
	CONVCTL_NOW=yesterday fails_with 1 convctl add x && stderr_has "CONVCTL_NOW" &&
	store_kept "$CONVCTL_STORE"
'

# 10 MB, 50 at full counts (the default max_message_bytes is 64 MiB)
mb=$(counts 10 50)
if [ -z "${CONVCTL_WRAPPER:-}" ]; then
	test_expect "add: a $mb MB message is stored whole and read back" '
		python3 -c "import sys; sys.stdout.write(\"x\" * int(sys.argv[1]))" \
		    $((mb * 1048576)) >"$T/big" &&
		convctl add <"$T/big" >/dev/null &&
		convctl show --format json | jq -j ".messages[-1].content" >"$T/back" &&
		cmp "$T/big" "$T/back" &&
		convctl add "after the big one" >/dev/null
	'
fi

test_expect 'bad config files: a clear error (an unknown key: a warning) naming the file and line' '
	mkdir -p "$XDG_CONFIG_HOME/convctl" && cfg=$XDG_CONFIG_HOME/convctl/config &&
	printf "idle_timeout = 30\nnokey\n" >"$cfg" &&
	fails_with 1 convctl recent && stderr_has "$cfg:2: expected" &&
	printf "colour = blue\n" >"$cfg" &&
	convctl recent 2>"$T/err" &&
	stderr_has "warning: $cfg:1: unknown setting '\''colour'\''" &&
	printf "idle_timeout = soon\r\n" >"$cfg" &&
	fails_with 1 convctl add x && stderr_has "idle_timeout" &&
	printf "\377\376 = \000\n" >"$cfg" &&
	convctl recent 2>"$T/err" && stderr_has "$cfg:1: unknown setting '\''\\xff\\xfe'\''" &&
	rm "$cfg"
'

test_done
