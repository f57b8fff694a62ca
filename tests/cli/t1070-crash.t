#!/bin/sh
# Writes killed with SIGKILL at random moments leave the store as it was
# before or as it is after, never torn; what a killed writer leaves behind
# (a temporary file, the lock file) never blocks or confuses the next run.
# CRASH_TRIALS kills per command (5 in make check, as under a wrapper; 60
# at full counts, TEST_FULL=1; make stress sets thousands); CRASH_SEED
# replays a failure exactly.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "file writes killed mid-rename (t8000-pg.t kills PostgreSQL writers)"

trials=${CRASH_TRIALS:-$(counts 5 60)}
[ -n "${CONVCTL_WRAPPER:-}" ] && trials=${CRASH_TRIALS:-5}
export CONVCTL_NOW=2027-01-01T00:00:00Z CONVCTL_WAIT=5
python3 "$top/tests/helpers/bigstore.py" 150 1 >"$T/before.json"

# crash_case [--between ARGS | --between-env VAR=VALUE] NAME ARGS...: NAME
# killed $trials times; one line per command, so a new writer is one more
# line below. --between names the command whose result is a documented step
# on the way (quoted, one word an argument); --between-env, the same command
# with VAR=VALUE in its environment. The cases are written to
# $T/crash.cases, a line each, and run by one crashkill.py (not a python a
# case), each leaving its line in $T/crash/NAME.out for its test below
crash_names=
crash_case() {
	kind=- value=-
	case $1 in
	--between | --between-env) kind=${1#--} value=$2 && shift 2 ;;
	esac
	name=$1
	shift
	crash_names="$crash_names $name"
	printf "%s\t%s\t%s\t%s\n" "$name" "$kind" "$value" "$*" >>"$T/crash.cases"
}

# the active conversation is idle past the timeout: add ends it and writes
# the message, then the ended one's offline summary: killed between, the
# summary is pending (what add writes with summarizer none)
crash_case --between-env CONVCTL_SUMMARIZER=none add add --role assistant --tool read_file "a message that lands once"
crash_case --between-env CONVCTL_SUMMARIZER=none add-idle add --at 2026-09-01T00:00:00Z "after the idle timeout"
crash_case end end --no-summary
# end writes the end and its offline summary in one write: no state between
crash_case end-summary end --summarizer offline
crash_case prune prune --max 10
crash_case prune-older prune --older-than 90d
crash_case summarize summarize --force --summarizer offline
crash_case migrate migrate "$top/tests/fixtures/migrate/data.json"
crash_case migrate-dir migrate "$top/tests/fixtures/migrate/sessions"

python3 "$top/tests/helpers/crashkill.py" --store "$CONVCTL_STORE" \
    --before "$T/before.json" --trials $trials ${CRASH_SEED:+--seed $CRASH_SEED} \
    --follow add --follow=--at --follow 2027-01-01T00:00:00Z --follow "after the kill" \
    --cases "$T/crash.cases" --out "$T/crash" \
    -- $CONVCTL_WRAPPER "$CONVCTL_BIN" >"$T/crash.log" 2>&1
for name in $crash_names; do
	test_expect "$name killed $trials times: the store is before or after, never torn" '
		read -r line <"$T/crash/'"$name"'.out" ||
		    { echo "crashkill.py left no line for '"$name"':"; cat "$T/crash.log"; return 1; }
		echo "$line"
		case $line in FAIL*) return 1 ;; esac
	'
	{ read -r line <"$T/crash/$name.out"; } 2>/dev/null && echo "# $line"
done

test_expect 'a lock file left by a killed writer does not block the next' '
	cp "$T/before.json" "$CONVCTL_STORE" &&
	: >"$CONVCTL_STORE.lock" && chmod 600 "$CONVCTL_STORE.lock" &&
	CONVCTL_WAIT=0 convctl add "lock is free" >/dev/null
'

test_expect 'a stale temporary file is removed by the next write, nothing else' '
	cp "$T/before.json" "$CONVCTL_STORE" &&
	echo "{ torn" >"$T/.store.json.convctl-tmp.AbC123" &&
	echo keep >"$T/.store.json.notmine" &&
	echo keep >"$T/.store.json.AbC123" &&
	echo keep >"$T/.other.json.convctl-tmp.XyZ987" &&
	convctl add "cleans up" >/dev/null &&
	test ! -e "$T/.store.json.convctl-tmp.AbC123" &&
	test -e "$T/.store.json.notmine" && test -e "$T/.store.json.AbC123" &&
	test -e "$T/.other.json.convctl-tmp.XyZ987" &&
	convctl show --format json >shown &&
	jq_is shown -r ".messages[-1].content" "cleans up"
'

test_expect 'a reader ignores stale temporary files' '
	echo "{ torn" >"$T/.store.json.convctl-tmp.QwE456" &&
	convctl recent -n 1000 --json >"$T/recent" &&
	jq -e --slurpfile s "$CONVCTL_STORE" "([\$s[0].conversations[] | select(.endedAt)] | length) as \$n |
	    length == \$n and \$n > 100" "$T/recent" >/dev/null
'

test_done
