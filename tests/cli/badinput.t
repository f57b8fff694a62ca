#!/bin/sh
# Bad stores and bad input: a clear error naming the place, or a documented
# acceptance; never a crash, never a changed store. The stores come from
# tests/helpers/badinput.py, which runs every reader and writer on each.
# check: valgrind
. "$(dirname "$0")/../lib.sh"

export CONVCTL_NOW=2026-06-01T00:00:00Z
# bad_stores CATEGORY [STRIDE]: every store of CATEGORY (or one in STRIDE)
# is refused cleanly or accepted
bad_stores() {
	BADINPUT_STRIDE=${2:-${BADINPUT_STRIDE:-1}} \
	    python3 "$top/tests/helpers/badinput.py" "$1" -- $CONVCTL_WRAPPER "$CONVCTL_BIN" \
	    >"$T/bad.out"; status=$?
	cat "$T/bad.out"
	return $status
}

# one line a category; under a slow wrapper the largest are left out.
# TEST_FULL=1 (make check-all, CI) or BADINPUT_FULL=1 (make stress) tries
# every input; without it (make check), the three largest categories try
# one input in 16 (truncated), in 12 (types) and in 3 (utf8: each of its
# 15 bad sequences in one or two of its 4 places), and the big store holds a 10 MB
# message, not 50, and is given to recent and add only, not to all ten
# commands (about 7 s each at 50 MB). Under a
# wrapper (valgrind: each command ~0.8 s), one input in 40 of each category
full=${BADINPUT_FULL:-${TEST_FULL:-}}
cats="utf8 escapes duplicates types nesting nul crlf empty notjson version
corpus=$top/tests/fuzz-corpus/store"
[ -z "${CONVCTL_WRAPPER:-}" ] && cats="truncated $cats big"
[ -n "${CONVCTL_WRAPPER:-}" ] && export BADINPUT_STRIDE=${BADINPUT_STRIDE:-40}
for c in $cats; do
	stride=${BADINPUT_STRIDE:-1}
	if [ -z "$full" ] && [ -z "${BADINPUT_STRIDE:-}" ]; then
		case $c in
		truncated) stride=16 ;;
		types) stride=12 ;;
		utf8) stride=3 ;;
		esac
	fi
	test_file "bad stores: ${c##*/}" "bad_stores '$c' $stride"
	[ ! -e "$T/bad.out" ] || sed -n 's/^\([a-z].*inputs.*\)/# \1/p' "$T/bad.out"
done

# bad migrate sources (badinput.py sources): every fixture format truncated
# at ~40 offsets (a jsonl line torn in the middle), invalid UTF-8, a wrong
# type at every field, deep nesting; one input in SOURCES_STRIDE is tried:
# 3 at full counts, 24 at quick ones, 72 under a wrapper
sources_stride=24
[ -n "$full" ] && sources_stride=3
[ -n "${CONVCTL_WRAPPER:-}" ] && sources_stride=72
test_file 'bad migrate sources: refused naming the file and place, store unchanged' '
	bad_stores sources ${SOURCES_STRIDE:-$sources_stride}
'
[ ! -e "$T/bad.out" ] || sed -n 's/^\([a-z].*inputs.*\)/# \1/p' "$T/bad.out"

# input on standard input
test_expect 'add: invalid UTF-8 of each kind is refused, naming the byte' '
	store_rm "$CONVCTL_STORE" &&
	convctl add --at 2026-01-01T00:00:00Z first >/dev/null && snapshot "$CONVCTL_STORE" &&
	for b in "\200" "\303" "\300\257" "\340\200\257" "\355\240\200" "\364\220\200\200" \
	    "\370\210\200\200\200" "\377" "\342\202"; do
		printf "ok $b" | fails_with 1 convctl add || { echo "for $b"; exit 1; }
		stderr_has "not valid UTF-8 at byte 3" && unchanged "$CONVCTL_STORE" || exit 1
	done
'

test_expect 'add: NUL bytes are kept (stored as \u0000, documented)' '
	printf "a\000b" | convctl add >/dev/null &&
	convctl show --format json | jq -e ".messages[-1].content == \"a\u0000b\"" >/dev/null &&
	store_json "$CONVCTL_STORE" | grep -qF "a\\u0000b"
'

test_expect 'add: CRLF input keeps inner line ends, drops the final one' '
	printf "one\r\ntwo\r\n" | convctl add >/dev/null &&
	convctl show --format json | jq -e ".messages[-1].content == \"one\r\ntwo\"" >/dev/null
'

test_expect 'add: empty input is refused, nothing changed' '
	snapshot "$CONVCTL_STORE" &&
	: | fails_with 1 convctl add && stderr_has "empty message" &&
	unchanged "$CONVCTL_STORE"
'

test_expect 'add: a bad --at and a bad setting are refused before any change' '
	snapshot "$CONVCTL_STORE" &&
	fails_with 2 convctl add --at 1969-12-31T23:59:59Z x && stderr_has "--at" &&
	fails_with 2 convctl add --at "2026-02-30" x &&
	CONVCTL_IDLE_TIMEOUT=abc fails_with 1 convctl add x && stderr_has "CONVCTL_IDLE_TIMEOUT" &&
	CONVCTL_NOW=yesterday fails_with 1 convctl add x && stderr_has "CONVCTL_NOW" &&
	unchanged "$CONVCTL_STORE"
'

# 10 MB, 50 at full counts (the default max_message_bytes is 64 MiB)
mb=$(counts 10 50)
if [ -z "${CONVCTL_WRAPPER:-}" ]; then
	test_expect "add: a $mb MB message is stored whole and read back" '
		head -c $((mb * 1048576)) /dev/zero | tr "\0" "x" >"$T/big" &&
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
