# tests/lib.sh - TAP helpers for the CLI tests; source it first.
#   test_expect 'name' 'commands'   passes when the commands succeed
#   test_done                       prints the plan; exits 1 if one failed
# Each test file runs in its own temporary directory, $T, with its own store
# ($CONVCTL_STORE) and config; convctl is the binary under test, run through
# $CONVCTL_WRAPPER (valgrind, say) when that is set.

top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/convctl-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
# nothing from the caller's environment may leak into a test, but the
# harness's own two variables
wrapper=${CONVCTL_WRAPPER:-} bin=${CONVCTL_BIN:-}
for v in $(env | sed -n 's/^\(CONVCTL_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
CONVCTL_WRAPPER=$wrapper CONVCTL_BIN=$bin
unset OPENAI_API_KEY ANTHROPIC_API_KEY NO_COLOR
export HOME="$T/home" XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
export CONVCTL_STORE="$T/store.json" TZ=UTC LC_ALL=C.UTF-8
mkdir -p "$HOME"
CONVCTL_BIN=${CONVCTL_BIN:-$top/convctl}
# the helpers' python3 is Debian's, which scripts/install-deps installs: a
# version manager's shim first in PATH (pyenv's) costs about a second a call
# on a busy two-core machine, and the suite makes hundreds of calls. A link
# first in PATH, not a shell function: `python3 ... &` must leave $! the
# server's own pid, for the EXIT trap to stop it
if [ -x /usr/bin/python3 ]; then
	mkdir -p "$T/bin" && ln -s /usr/bin/python3 "$T/bin/python3" &&
	    PATH="$T/bin:$PATH"
fi

convctl() {
	$CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"
}

test_n=0
test_failed=0

test_expect() {
	test_n=$((test_n + 1))
	if (cd "$T" && eval "$2") >"$T/.out" 2>&1; then
		echo "ok $test_n - $1"
	else
		echo "not ok $test_n - $1"
		sed 's/^/#   /' "$T/.out"
		test_failed=$((test_failed + 1))
	fi
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

# stderr_has TEXT: the last fails_with printed TEXT on stderr
stderr_has() {
	grep -qF -- "$1" "$T/err" || { echo "stderr lacks '$1':"; cat "$T/err"; return 1; }
}

# unchanged FILE: FILE is byte for byte what snapshot FILE saved
# on_tty [--stdout FILE] CMD...: CMD on a pseudo-terminal (stdout to FILE
# with --stdout); prints what the terminal saw, exits with CMD's status
on_tty() { python3 "$top/tests/helpers/on-tty.py" "$@"; }
snapshot() { cp "$1" "$T/.snapshot"; }
unchanged() { cmp "$T/.snapshot" "$1"; }
