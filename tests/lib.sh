# tests/lib.sh - TAP helpers for the CLI tests; source it first.
#   test_expect 'name' 'commands'   passes when the commands succeed
#   test_done                       prints the plan; exits 1 if one failed
# Each test file runs in its own temporary directory, $T, with its own store
# ($CONVCTL_STORE) and config; convctl is the binary under test, run through
# $CONVCTL_WRAPPER (valgrind, say) when that is set.

# (what a file does once, the shell does where it can: the suite's files
# are a hundred, and a process each is a hundred)
case $0 in
*/*) top=${0%/*} ;;
*) top=. ;;
esac
cd "$top/../.." && top=$PWD || exit 1
# $T, named by this shell's pid, made with its home and bin by one mkdir
# (a name taken, by a shell of the same pid before: mktemp's)
T=${TMPDIR:-/tmp}/convctl-test.$$
mkdir -m 700 "$T" "$T/home" "$T/bin" 2>/dev/null ||
    { T=$(mktemp -d "${TMPDIR:-/tmp}/convctl-test.XXXXXX") &&
    mkdir "$T/home" "$T/bin"; } || exit 1
trap 'rm -rf "$T"' EXIT
# nothing from the caller's environment may leak into a test, but the
# harness's own variables
wrapper=${CONVCTL_WRAPPER:-} bin=${CONVCTL_BIN:-}
engine=${CONVCTL_TEST_ENGINE:-file} shared_pg=${CONVCTL_TEST_PG:-}
export -p >"$T/.env"	# "export NAME='VALUE'" lines
while read -r v v; do
	case $v in CONVCTL_[A-Z_]*) unset "${v%%=*}" ;; esac
done <"$T/.env"
CONVCTL_WRAPPER=$wrapper CONVCTL_BIN=$bin
unset OPENAI_API_KEY ANTHROPIC_API_KEY NO_COLOR LESS LV
# no pager: a test on a terminal (on_tty) sees convctl's own output;
# t2180-pager.t sets its own
export PAGER=cat
export HOME="$T/home" XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
export TZ=UTC LC_ALL=C.UTF-8
# a test writes only in its temporary directory: a relative name lands there
# even outside test_expect, however the file was started
cd "$T" || exit 1
CONVCTL_BIN=${CONVCTL_BIN:-$top/convctl}
# the helpers' python3 is Debian's, which scripts/install-deps installs: a
# version manager's shims first in PATH (pyenv's, .../shims) cost about a
# second a call on a busy two-core machine, and the suite makes hundreds of
# calls. So PATH is the caller's without its shims directories (cut by the
# shell: no process), and with $T/bin first, where a case puts its stubs
tp_rest=$PATH PATH=$T/bin
while [ -n "$tp_rest" ]; do
	tp_dir=${tp_rest%%:*}
	case $tp_rest in *:*) tp_rest=${tp_rest#*:} ;; *) tp_rest= ;; esac
	case $tp_dir in */shims) ;; *) PATH=$PATH:$tp_dir ;; esac
done

# convctl ARG..., convctl_exec ARG..., convctl_tool ARG...: convctl's
# commands, through the file's server or not (tests/serve-client.sh)
. "$top/tests/serve-client.sh"

# the server of convctl's commands (tests/serve-client.sh): in make check's plain
# run of the tree's own convctl; not under a wrapper or a sanitizer (each
# command its own process, as they measure it), in make check-all (CI
# runs every command as the process a user starts), nor with TEST_EXEC=1.
# Started by a command substitution, so that it is no child of this shell
# (a case's `wait` waits for its own), whose end this shell waits for: the
# server closes its standard output once it is up, so that the first call
# finds it; it ends when this shell does
cv_serve=
if [ -z "$CONVCTL_WRAPPER${ASAN_OPTIONS:-}${TEST_FULL:-}${TEST_EXEC:-}" ] &&
    [ "$CONVCTL_BIN" = "$top/convctl" ] && [ -x "$top/tests/tool/test-tool" ]
then
	cv_serve=$T/.serve
	cv_x=$("$top/tests/tool/test-tool" serve "$cv_serve" $$ --remove "$T" \
	    </dev/null &)
	# the server removes $T when this shell has ended (--remove): the
	# trap's rm only when it is not there to (not yet up, or crashed: its
	# lock left behind)
	trap '[ -p "$T/.serve/req" ] && [ ! -e "$T/.serve/lock" ] ||
	    rm -rf "$T"' EXIT
fi

# counts QUICK FULL: how many inputs a randomized case tries: QUICK in make
# check, FULL with TEST_FULL=1 (make check-all, CI)
counts() {
	if [ -n "${TEST_FULL:-}" ]; then echo "$2"; else echo "$1"; fi
}

# The engine under test. CONVCTL_TEST_ENGINE=pg puts the file's stores on
# PostgreSQL, each in a schema of its own, on the cluster tests/with-pg
# started (its URI in CONVCTL_TEST_PG; make check does that) or else on one
# of the file's own (tests/pg.sh). A test names and reads its stores through
# the helpers below, which work on both engines:
#   store_at NAME        a fresh store's name: $T/NAME.json, or a URI
#   store_json [STORE]   prints the store as a file holds it (default
#                        $CONVCTL_STORE); `convctl copy STORE -` on pg
#   store_seed [STORE]   makes the store the JSON on standard input
#   store_rm [STORE]     removes the store: the next command starts afresh
#   store_exists [STORE] the store has been written
#   snapshot STORE, unchanged STORE: the store is what it was
# CONVCTL_TEST_ENGINE=sqlite puts them in SQLite databases,
# sqlite:$T/NAME.db, read the same way (`convctl copy STORE -`).
# A case about files themselves (locks, modes, renames) is test_file, and a
# file about nothing else starts with file_store_only.
case $engine in
file | sqlite) ;;
pg)
	if [ -n "$shared_pg" ]; then
		. "$top/tests/pg-cluster.sh"
		PG_URI=$shared_pg
	else
		. "$top/tests/pg.sh"
	fi
	if [ -n "$PG_SKIP" ]; then
		echo "1..0 # SKIP the PostgreSQL engine: $PG_SKIP"
		exit 0
	fi
	# a schema name of letters, digits and _: the file's, and this run's
	pg_prefix=$(basename "$0" .t | tr -c 'a-z0-9\n' _)_$$
	;;
*)
	echo "Bail out! CONVCTL_TEST_ENGINE=$engine: it is file, pg or sqlite"
	exit 1
	;;
esac

is_pg() {
	case $1 in
	postgres://* | postgresql://*) return 0 ;;
	esac
	return 1
}

# a store a database holds, read through convctl: PostgreSQL or SQLite
is_db() {
	case $1 in
	postgres://* | postgresql://* | sqlite:*) return 0 ;;
	esac
	return 1
}

store_at() {
	if [ "$engine" = pg ]; then
		echo "$PG_URI&schema=${pg_prefix}_$(echo "$1" | tr -c 'a-z0-9\n' _)"
	elif [ "$engine" = sqlite ]; then
		echo "sqlite:$T/$1.db"
	else
		echo "$T/$1.json"
	fi
}

# use_store NAME: CONVCTL_STORE, exported, is store_at NAME's store; the
# shell names it on a file or SQLite store (no subshell), store_at on pg.
# In a case that runs in the file's shell, the store is put back after it
# (case_save)
use_store() {
	case $engine in
	file) CONVCTL_STORE=$T/$1.json ;;
	sqlite) CONVCTL_STORE=sqlite:$T/$1.db ;;
	*) CONVCTL_STORE=$(store_at "$1") ;;
	esac
	export CONVCTL_STORE
}

# the schema a URI names
pg_schema() {
	echo "$1" | sed -n 's/.*[?&]schema=\([^&]*\).*/\1/p'
}

# store_json, store_rm, store_exists, store_seed [STORE]: STORE (default
# $CONVCTL_STORE) printed as JSON, removed, tested, or filled from stdin, on
# either engine
store_json() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_db "$1"; then
		convctl_tool copy "$1" -
	else
		cat "$1"
	fi
}

store_rm() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_pg "$1"; then
		psql_as "SET client_min_messages = warning; DROP SCHEMA IF EXISTS \"$(pg_schema "$1")\" CASCADE"
	elif is_db "$1"; then
		set -- "${1#sqlite:}"
		rm -f "$1" "$1-wal" "$1-shm" "$1-journal"
	else
		rm -f "$1"
	fi
}

store_exists() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_pg "$1"; then
		test "$(psql_as "SELECT to_regclass('\"$(pg_schema "$1")\".root') IS NOT NULL")" = t
	elif is_db "$1"; then
		test -s "${1#sqlite:}"	# a writer that wrote nothing leaves it empty
	else
		test -e "$1"
	fi
}

store_seed() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_db "$1"; then
		cat >"$T/.seed.json" && store_rm "$1" &&
		    convctl_tool copy "$T/.seed.json" "$1" 2>"$T/.seed.err" ||
		    { cat "$T/.seed.err"; return 1; }
	else
		cat >"$1"
	fi
}

# message_is I FILE: message I (-1 the latest) of the latest conversation is
# FILE as `add` keeps it (trailing newlines dropped, "\r\n" with them)
message_is() {
	convctl show --format json >"$T/shown" &&
	python3 -c 'import json, sys
got = json.load(open(sys.argv[1]))["messages"][int(sys.argv[2])]["content"].encode("utf-8", "surrogatepass")
want = open(sys.argv[3], "rb").read()
while want.endswith(b"\n"):
    want = want[:-1]
    if want.endswith(b"\r"):
        want = want[:-1]
if got != want:
    n = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), None)
    sys.exit("content: %d bytes, want %d; first difference at %s" % (len(got), len(want), n))
' "$T/shown" "$1" "$2"
}

# wait_until CONDITION: evaluates the shell CONDITION every 0.05 s until it
# holds, 20 s at most; else fails, saying which one did not hold
wait_until() {
	i=0
	until eval "$1"; do
		i=$((i + 1))
		[ $i -lt 400 ] || { echo "gave up waiting for: $1"; return 1; }
		sleep 0.05
	done
}

# past_tick [FILE]: the clock has left the tick of FILE's last change (its
# ctime, $CONVCTL_STORE's by default): a reader writes a file store's index
# only then (git's racy rule, convctl(5)), and the coarse clock it reads
# runs at most a tick (10 ms) behind. In one process a wait, not a date, a
# stat and a tr a try: it sleeps until the clock (CLOCK_REALTIME, as date
# reads it) is more than 20 ms past the ctime, and holds then; false at
# once when that is more than 20 s away (the clock set back), or FILE is
# not there. So `wait_until past_tick` holds at its first try (python3 -S:
# no site module, a faster start)
past_tick() {
	python3 -S -c 'import os, sys, time
ctime = os.stat(sys.argv[1]).st_ctime_ns
while True:
    left = ctime + 20000000 - time.time_ns()
    if left < 0:
        break
    if left > 20000000000:
        sys.exit(1)
    time.sleep(left / 1e9 + 0.001)' "${1:-$CONVCTL_STORE}" 2>/dev/null
}

if [ "$engine" = file ]; then
	CONVCTL_STORE=$T/store.json	# store_at's, without a subshell
else
	CONVCTL_STORE=$(store_at store)
fi
export CONVCTL_STORE

test_n=0
test_failed=0

# A case runs in a subshell of its own, so that what it changes (the
# directory, variables, limits, traps) and an exit end with it; one that can
# change nothing of the kind (case_inline) runs in the file's shell, which
# saves a process a case. TEST_TIMES=1 follows each case's line with a
# comment: its wall seconds and the processor seconds of what it ran
test_expect() {
	test_n=$((test_n + 1))
	[ -z "${TEST_TIMES:-}" ] || case_began=$(date +%s.%N)
	if case_inline "$2"; then
		case_save "$2"
		case_eval "$1" "$2" >"$T/.out" 2>&1
		case_restore $?
	else
		(cd "$T" && eval "$2") >"$T/.out" 2>&1
	fi
	if [ $? -eq 0 ]; then
		echo "ok $test_n - $1"
	else
		echo "not ok $test_n - $1"
		sed 's/^/#   /' "$T/.out"
		test_failed=$((test_failed + 1))
	fi
	[ -z "${TEST_TIMES:-}" ] || case_times
}

# case_inline BODY: BODY may run in the file's shell: it names nothing
# that would outlive the case or end the shell there: no exit, cd, exec,
# trap, set, shift, export (but of CONVCTL_STORE), unset, readonly, ulimit,
# umask, no command left running in the background (a lone &). A case ends
# early with return N, which ends a subshell as exit N does, and the case
# alone in the file's shell (case_eval is a function). The variables it
# assigns (NAME=...) are put back as they were after it (case_save,
# case_restore); those a helper it calls sets stay set, as they always did.
# Read by the shell: no process
case_inline() {
	# export CONVCTL_STORE=...: lib.sh exported it, so putting its value
	# back is all a subshell's end did
	ci_body=$1
	while :; do
		case $ci_body in
		*"export CONVCTL_STORE="*)
			ci_body=${ci_body%%"export CONVCTL_STORE="*}${ci_body#*"export CONVCTL_STORE="} ;;
		*) break ;;
		esac
	done
	# a word of those, not part of a longer name (convctl_exec, exit_code,
	# cdir: the body padded with blanks, so that one at either end is
	# a word too); an & that puts a command in the background (one
	# before a blank, ; ) or } : not && nor >&2, nor one in a URI's
	# query, &schema=)
	case " $ci_body " in
	*[!A-Za-z0-9_]exit[!A-Za-z0-9_]* | *[!A-Za-z0-9_]cd[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]exec[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]trap[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]set[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]shift[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]export[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]unset[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]readonly[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]ulimit[!A-Za-z0-9_]* | \
	    *[!A-Za-z0-9_]umask[!A-Za-z0-9_]* | \
	    *[!\&\>\<]\&[[:space:]\;\)\}]*)
		return 1 ;;
	esac
}

# case_save BODY: the value (or absence) of each variable BODY's words
# assign, NAME=..., kept for case_restore; a word that only looks like one
# (in a quoted text) costs a variable kept and put back, nothing more
case_save() {
	case_saved=
	# CONVCTL_STORE, whether the case names it or a helper it calls
	# changes it (engines.sh's session, use_store)
	set -f	# the words as they are, no file names
	set -- CONVCTL_STORE= $1
	for cs_w; do
		case $cs_w in
		*=*) ;;
		*) continue ;;
		esac
		cs_n=${cs_w%%=*}
		while :; do	# drop what leads the name: ( { ! " $(
			case $cs_n in
			[A-Za-z_]* | "") break ;;
			*) cs_n=${cs_n#?} ;;
			esac
		done
		case $cs_n in "" | *[!A-Za-z0-9_]*) continue ;; esac
		case " $case_saved " in *" $cs_n "*) continue ;; esac
		case_saved="$case_saved $cs_n"
		if eval "[ -n \"\${$cs_n+set}\" ]"; then
			eval "cs_set_$cs_n=1 cs_val_$cs_n=\$$cs_n"
		else
			eval "cs_set_$cs_n="
		fi
	done
	set +f
}

# case_restore STATUS: back in $T (a helper the case called may have
# left it), the variables case_save kept as they were; returns STATUS
case_restore() {
	cd "$T" || return 1
	for cs_n in $case_saved; do
		if eval "[ -n \"\$cs_set_$cs_n\" ]"; then
			eval "$cs_n=\$cs_val_$cs_n"
		else
			unset "$cs_n"
		fi
	done
	return "$1"
}

# case_eval NAME BODY: BODY in the file's shell, from $T ($1 and $2 NAME
# and BODY, as in the subshell); case_restore is back in $T after it
case_eval() {
	cd "$T" && eval "$2"
}

# case_times: the comment TEST_TIMES asks for, from the shell's children's
# processor time since the last case
case_times() {
	times >"$T/.times"	# not in a pipe: a subshell's would count none
	awk -v began="$case_began" -v now="$(date +%s.%N)" \
	    -v before="${case_cpu:-0}" -v n="$test_n" 'NR == 2 {
		gsub(/[ms]/, " "); cpu = $1 * 60 + $2 + $3 * 60 + $4
		printf "# time %d: %.2f s, %.2f s CPU\n", n, now - began, cpu - before
		print cpu > "/dev/stderr" }' "$T/.times" 2>"$T/.cpu"
	read -r case_cpu <"$T/.cpu"
}

test_done() {
	echo "1..$test_n"
	[ "$test_failed" -eq 0 ]
}

# test_cmp EXPECTED ACTUAL: the files are the same, or the diff is shown
test_cmp() {
	diff -u "$1" "$2"
}

# fails_with STATUS CMD...: CMD exits with STATUS (and output is kept in $T/err)
fails_with() {
	want=$1
	shift
	"$@" >"$T/stdout" 2>"$T/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "exit status $got, want $want; stderr:"
		cat "$T/err"
		return 1
	fi
}

# stderr_has TEXT: the last fails_with printed TEXT on stderr, on one line.
# The shell reads it, not grep: the suite checks stderr thousands of times,
# and a process a check is most of what the check costs
stderr_has() {
	sh_err= sh_lines=0
	while IFS= read -r sh_line || [ -n "$sh_line" ]; do
		sh_err="$sh_err$sh_line
"
		sh_lines=$((sh_lines + 1))
		[ "$sh_lines" -lt 500 ] || break	# a long log: grep reads it
	done <"$T/err"
	if [ "$sh_lines" -ge 500 ]; then
		grep -qF -- "$1" "$T/err" && return 0
	else
		case $sh_err in *"$1"*) return 0 ;; esac
	fi
	echo "stderr lacks '$1':"
	cat "$T/err"
	return 1
}

# memory_measured: true when a command's peak memory is its own: not under
# a wrapper (valgrind), whose own memory blurs it, nor a sanitizer's build,
# whose allocator keeps what is freed
memory_measured() { [ -z "${CONVCTL_WRAPPER:-}" ] && [ -z "${ASAN_OPTIONS:-}" ]; }
# peak_rss CMD...: CMD's peak resident memory in KB (what it prints on
# standard output is not kept), -1 when it failed
peak_rss() {
	python3 -c "import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if p.returncode == 0 else -1)" "$@"
}
# unchanged FILE: FILE is byte for byte what snapshot FILE saved
# on_tty [--stdout FILE] CMD...: CMD on a pseudo-terminal (stdout to FILE
# with --stdout); prints what the terminal saw, exits with CMD's status
on_tty() { python3 "$top/tests/helpers/on-tty.py" "$@"; }
snapshot() { store_json "$1" >"$T/.snapshot"; }
unchanged() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_db "$1"; then
		store_json "$1" | cmp "$T/.snapshot" -
	elif [ -e "$1" ]; then
		cmp "$T/.snapshot" "$1"	# no cat between: one process, not two
	else
		cmp "$T/.snapshot" /dev/null	# a store not written yet is empty
	fi
}

# test_file 'name' 'commands': a case about the store's file itself, skipped
# on another engine
test_file() {
	if [ "$engine" = file ]; then
		test_expect "$1" "$2"
	else
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: about the store's file"
	fi
}

# file_store_only WHY: the whole file is about file stores (or none)
file_store_only() {
	if [ "$engine" != file ]; then
		echo "1..0 # SKIP $1"
		exit 0
	fi
}

# test_tool SUBCOMMAND ARGS...: the test tool (tests/tool/, built by make
# check; tests/README.md, "The test tool"): checks of the library and the
# commands run in one process, under $CONVCTL_WRAPPER as convctl is
test_tool() {
	if [ ! -x "$top/tests/tool/test-tool" ]; then
		echo "no $top/tests/tool/test-tool: make tests/tool/test-tool" >&2
		return 2
	fi
	$CONVCTL_WRAPPER "$top/tests/tool/test-tool" "$@"
}

# commands_table FILE: FILE's commands ("STATUS ARG..." lines, each followed
# by tab-led texts its stderr must hold: test-tool commands) run in the test
# tool's one process, not a process each; what failed is shown
commands_table() {
	test_tool commands "$1" >"$T/.table" || { cat "$T/.table"; return 1; }
}

# jq_is FILE MODE FILTER WANT [MODE FILTER WANT]...: each FILTER of the JSON
# in FILE gives WANT as `test "$(jq MODE FILTER FILE)" = WANT` compares
# them (MODE -r: strings raw, -c: compact JSON; an output a line, trailing
# newlines dropped), all read by one jq, not one a field; a field that
# differs is named by its number, with what it gave
jq_is() {
	jq_file=$1 jq_prog= jq_i=0
	shift
	jq_all=$*
	jq_n=$(($# / 3))
	while [ "$jq_i" -lt "$jq_n" ]; do
		case $1 in
		-r) jq_show='if type == "string" then . else tojson end' ;;
		*) jq_show=tojson ;;
		esac
		jq_prog="$jq_prog([$2] | map($jq_show) | join(\"\\n\") |
		    sub(\"\\n+\$\"; \"\")) as \$g |
		    if \$g == \$ARGS.positional[$jq_i] then empty else
		    \"field $((jq_i + 1)): \\(\$g | @json), want \\(\$ARGS.positional[$jq_i] | @json)\" end,"
		set -- "$@" "$3"
		shift 3
		jq_i=$((jq_i + 1))
	done
	jq -r "${jq_prog%,}" "$jq_file" --args "$@" >"$T/.jq_is" &&
	    [ ! -s "$T/.jq_is" ] || {
		echo "jq_is $jq_file $jq_all:"
		cat "$T/.jq_is"
		return 1
	}
}

# same_file WANT GOT: the files hold the same lines, a last line without its
# newline too (read by the shell: no process when they do), else diff -u
# shows how they differ. For short texts: the shell reads a byte a call and
# no NUL byte, so a long file, or one that may hold a NUL, is test_cmp's
same_file() {
	sh_a= sh_b=
	while IFS= read -r l; do sh_a="$sh_a$l
"; done <"$1" || return 1
	[ -z "$l" ] || sh_a="$sh_a$l (no newline)"
	while IFS= read -r l; do sh_b="$sh_b$l
"; done <"$2" || return 1
	[ -z "$l" ] || sh_b="$sh_b$l (no newline)"
	[ "$sh_a" = "$sh_b" ] || test_cmp "$1" "$2"
}

# lacks TEXT FILE...: no line of the FILEs holds TEXT (the shell reads them:
# no grep a check); one that does is shown; a file that cannot be read fails
lacks() {
	l_text=$1
	shift
	for l_file; do
		while IFS= read -r l || [ -n "$l" ]; do
			case $l in *"$l_text"*) echo "$l_file: $l"; return 1 ;; esac
		done <"$l_file" || return 1	# (a file that cannot be read)
	done
}

# holds TEXT FILE: a line of FILE holds TEXT, as grep -qF finds it, read by
# the shell (no grep a check); else says so
holds() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"$1"*) return 0 ;; esac
	done <"$2" || return 1	# (a file that cannot be read)
	echo "$2 lacks '$1'"
	return 1
}

# store_is STORE MODE FILTER WANT [MODE FILTER WANT]...: jq_is over STORE,
# read once: a file store by jq itself, a database's through store_json
store_is() {
	si_store=$1
	shift
	if is_db "$si_store"; then
		store_json "$si_store" >"$T/.store_is.json" &&
		    jq_is "$T/.store_is.json" "$@"
	else
		jq_is "$si_store" "$@"
	fi
}

# lines_are N FILE: FILE has N lines, as wc -l counts them (a last line
# without its newline is none), counted by the shell; else says how many
lines_are() {
	la_n=0
	while IFS= read -r l; do la_n=$((la_n + 1)); done <"$2" || return 1
	[ "$la_n" -eq "$1" ] || { echo "$2: $la_n lines, want $1"; return 1; }
}

# file_is TEXT FILE: FILE holds TEXT, as test "$(cat FILE)" = TEXT compares
# them (trailing newlines dropped), read by the shell: no cat a check
file_is() {
	fi_got=
	while IFS= read -r l || [ -n "$l" ]; do fi_got="$fi_got$l
"; done <"$2" || return 1
	while :; do
		case $fi_got in
		*"
") fi_got=${fi_got%"
"} ;;
		*) break ;;
		esac
	done
	[ "$fi_got" = "$1" ] || { echo "$2 holds '$fi_got', want '$1'"; return 1; }
}

# store_jq STORE JQ-ARG...: jq JQ-ARG... over STORE, as store_json STORE |
# jq JQ-ARG... gives it; a file store read by jq itself (no cat and pipe)
store_jq() {
	sj_store=${1:-$CONVCTL_STORE}
	shift
	if is_db "$sj_store"; then
		store_json "$sj_store" | jq "$@"
	else
		jq "$@" "$sj_store"
	fi
}

# has_line TEXT FILE: a line of FILE is TEXT, whole, as grep -qxF finds it,
# read by the shell (no grep a check); else says so
has_line() {
	while IFS= read -r l || [ -n "$l" ]; do
		[ "$l" != "$1" ] || return 0
	done <"$2" || return 1	# (a file that cannot be read)
	echo "$2 has no line '$1'"
	return 1
}

# same_set WANT GOT: the files hold the same lines, in any order, each as
# many times (as sorting both and comparing them would find), read by the
# shell (no sort and diff); else names each line one of them lacks. For
# lists of names: file names, objects, words
same_set() {
	ss_want= ss_got="
" ss_bad=
	while IFS= read -r l || [ -n "$l" ]; do ss_want="$ss_want$l
"; done <"$1" || return 1
	while IFS= read -r l || [ -n "$l" ]; do ss_got="$ss_got$l
"; done <"$2" || return 1
	while [ -n "$ss_want" ]; do	# each line of WANT takes one of GOT's
		l=${ss_want%%"
"*} ss_want=${ss_want#*"
"}
		case $ss_got in
		*"
$l
"*) ss_got=${ss_got%%"
$l
"*}"
"${ss_got#*"
$l
"} ;;
		*) echo "$2 lacks: $l"; ss_bad=1 ;;
		esac
	done
	ss_got=${ss_got#"
"}
	while [ -n "$ss_got" ]; do	# what is left of GOT
		l=${ss_got%%"
"*} ss_got=${ss_got#*"
"}
		echo "$1 lacks: $l"; ss_bad=1
	done
	[ -z "$ss_bad" ]
}

# line_starts TEXT FILE: a line of FILE starts with TEXT, as grep -q "^TEXT"
# finds it (TEXT as it is, no pattern), read by the shell (no grep a
# check); else says so
line_starts() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in "$1"*) return 0 ;; esac
	done <"$2" || return 1	# (a file that cannot be read)
	echo "$2 has no line starting '$1'"
	return 1
}

# cut_is LIST FILE WANT: the fields LIST (N[,M]...) of FILE's tab-separated
# lines are WANT, as test "$(cut -f LIST FILE)" = WANT compares them (a
# line without a tab whole, trailing newlines dropped), cut by the shell:
# no cut and no subshell a check
cut_is() {
	ci_got= ci_nl=
	while IFS= read -r l || [ -n "$l" ]; do
		ci_out=$l
		case $l in
		*"	"*)
			ci_out= ci_sep= ci_k=1 ci_rest=$l
			while :; do
				ci_f=${ci_rest%%"	"*}
				case ",$1," in
				*",$ci_k,"*) ci_out="$ci_out$ci_sep$ci_f" ci_sep="	" ;;
				esac
				[ "$ci_f" != "$ci_rest" ] || break
				ci_rest=${ci_rest#*"	"} ci_k=$((ci_k + 1))
			done ;;
		esac
		ci_got="$ci_got$ci_nl$ci_out" ci_nl="
"
	done <"$2" || return 1
	while :; do
		case $ci_got in
		*"
") ci_got=${ci_got%"
"} ;;
		*) break ;;
		esac
	done
	[ "$ci_got" = "$3" ] || { echo "cut -f $1 $2 gives '$ci_got', want '$3'"; return 1; }
}

# line_ends TEXT FILE: a line of FILE ends with TEXT, as grep -q "TEXT\$"
# finds it (TEXT as it is, no pattern), read by the shell (no grep a
# check); else says so
line_ends() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"$1") return 0 ;; esac
	done <"$2" || return 1	# (a file that cannot be read)
	echo "$2: no line ends with '$1'"
	return 1
}

# line_like PATTERN FILE: a line of FILE matches the shell PATTERN whole
# (case's: * and ?, [...], [*] for a star itself; grep's "^A.*B" is
# "A*B*"), read by the shell (no grep a check); else says so
line_like() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in $1) return 0 ;; esac
	done <"$2" || return 1	# (a file that cannot be read)
	echo "$2 has no line like '$1'"
	return 1
}

# want_is FILE <<END: FILE holds the lines of standard input (a
# here-document, written by no cat), read by the shell as same_file reads
# them; else diff -u shows how they differ (from $T/.want)
want_is() {
	wi_want=
	while IFS= read -r l; do wi_want="$wi_want$l
"; done
	printf %s "$wi_want$l" >"$T/.want"
	same_file "$T/.want" "$1"
}

# copy_text SRC DST: DST a copy of the text file SRC (one without a NUL
# byte), made by the shell: no cp a copy; a last line without its newline
# is copied so
copy_text() {
	while IFS= read -r l; do printf '%s\n' "$l"; done <"$1" >"$2" || return 1
	[ -z "$l" ] || printf %s "$l" >>"$2"
}

# holds_n N TEXT FILE: N lines of FILE hold TEXT, as grep -c counts them,
# counted by the shell; else says how many
holds_n() {
	hn_n=0
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"$2"*) hn_n=$((hn_n + 1)) ;; esac
	done <"$3" || return 1
	[ "$hn_n" -eq "$1" ] || { echo "$3: $hn_n lines hold '$2', want $1"; return 1; }
}

# counts_to NAME QUICK FULL: NAME=$(counts QUICK FULL), set by the shell
# (no subshell)
counts_to() {
	if [ -n "${TEST_FULL:-}" ]; then eval "$1=\$3"; else eval "$1=\$2"; fi
}

# line_is N TEXT FILE: line N of FILE (1 the first, -1 the last) is TEXT,
# as head, sed -n Np or tail piped to grep -qx would find it, read by the
# shell; else says what the line is
line_is() {
	li_n=0 li_got= li_last=
	while IFS= read -r l || [ -n "$l" ]; do
		li_n=$((li_n + 1)) li_last=$l
		[ "$li_n" -ne "$1" ] || { li_got=$l; break; }
	done <"$3" || return 1
	[ "$1" -ne -1 ] || { li_got=$li_last; [ "$li_n" -gt 0 ] || li_n=-2; }
	[ "$li_n" -ge "$1" ] && [ "$li_got" = "$2" ] && return 0
	echo "$3: line $1 is '$li_got', want '$2'"
	return 1
}

# cut_f N FILE: field N of each line of FILE, fields split at tabs, as cut
# -f N prints it (a line without a tab whole), by the shell: no cut
cut_f() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"	"*) ;; *) printf '%s\n' "$l"; continue ;; esac
		cf_i=1
		while [ "$cf_i" -lt "$1" ]; do
			case $l in
			*"	"*) l=${l#*"	"} ;;
			*) l= && break ;;
			esac
			cf_i=$((cf_i + 1))
		done
		printf '%s\n' "${l%%"	"*}"
	done <"$2"
}

# write_to FILE: a here-document written to FILE line by line by the
# shell, as cat >FILE writes it (its lines all end in a newline): no cat
write_to() {
	while IFS= read -r l || [ -n "$l" ]; do printf '%s\n' "$l"; done >"$1"
}

# conv_is ID NAME WANT [NAME WANT]...: each field NAME of conversation ID in
# $CONVCTL_STORE (a jq filter after its ".": summary, "endedAt != null") is
# WANT as jq -r prints it, "null" when null: one store_is, not a jq a field
conv_is() {
	ci_c=".conversations[] | select(.id == \"$1\")"
	shift
	ci_n=$(($# / 2))
	while [ "$ci_n" -gt 0 ]; do
		set -- "$@" -r "$ci_c | .$1" "$2"
		shift 2
		ci_n=$((ci_n - 1))
	done
	store_is "$CONVCTL_STORE" "$@"
}

# keep_store [STORE], store_kept [STORE]: snapshot and unchanged read by the
# shell, no cat nor cmp: STORE's text (a file store's bytes, which must hold
# no NUL byte: JSON as convctl writes it; a database's as store_json prints
# it; a store not written yet is empty) kept in a variable, then compared
# byte for byte, the last newline or its absence too; diff shows a change
store_read() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_db "$1"; then
		store_json "$1" >"$T/.store_read" || return 1
		set -- "$T/.store_read"
	fi
	sr_text=
	[ -e "$1" ] || return 0
	while IFS= read -r l; do sr_text="$sr_text$l
"; done <"$1" || return 1
	sr_text=$sr_text$l
}
keep_store() { store_read "$1" && kept_text=$sr_text; }
store_kept() {
	store_read "$1" || return 1
	[ "$sr_text" != "$kept_text" ] || return 0
	printf '%s' "$kept_text" >"$T/.kept" && printf '%s' "$sr_text" >"$T/.now"
	echo "the store changed:" && diff -u "$T/.kept" "$T/.now"
	return 1
}

# seed_text [STORE]: store_seed for a text of lines (a here-document, jq's
# output): a file store written by the shell (write_to, no cat)
seed_text() {
	set -- "${1:-$CONVCTL_STORE}"
	if is_db "$1"; then store_seed "$1"; else write_to "$1"; fi
}

# spool_fds PID FILE DIR/: the files PID holds open that have no name (as
# /proc shows them, "DIR/#INODE (deleted)": convctl run's spools) in FILE,
# all read by one readlink (not one a descriptor); $spool_in is how many of
# them name an unnamed file made in DIR/: "DIR/#INODE" where O_TMPFILE made
# it, "DIR/.convctl-spool.XXXXXX" where a name was unlinked at once (the
# portable build: lib/base/os.c), counted by the shell
spool_fds() {
	readlink /proc/"$1"/fd/* >"$T/.fds" 2>/dev/null
	: >"$2"
	spool_in=0
	while IFS= read -r sf_l; do
		case $sf_l in *" (deleted)") ;; *) continue ;; esac
		printf "%s\n" "$sf_l" >>"$2"
		case $sf_l in "$3"*) ;; *) continue ;; esac
		sf_r=${sf_l#"$3"}
		sf_r=${sf_r%" (deleted)"}
		case $sf_r in
		\# | \#*[!0-9]*) ;;
		\#*) spool_in=$((spool_in + 1)) ;;
		.convctl-spool.??????)
			case ${sf_r#.convctl-spool.} in
			*[!A-Za-z0-9]*) ;;
			*) spool_in=$((spool_in + 1)) ;;
			esac ;;
		esac
	done <"$T/.fds"
}

# dir_empty DIR [vgdb]: DIR holds nothing (with vgdb, nothing but the FIFOs
# valgrind leaves in TMPDIR when it is killed with convctl under
# CONVCTL_WRAPPER, vgdb-pipe-*); else names what it holds.
# The shell looks, not ls
dir_empty() {
	for de_f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$de_f" ] || [ -L "$de_f" ] || continue
		case ${de_f##*/} in vgdb-pipe-*) [ -z "${2:-}" ] || continue ;; esac
		echo "$1 holds ${de_f##*/}"
		return 1
	done
}
