#!/bin/sh
# Writes killed with SIGKILL at random moments leave the store as it was
# before or as it is after, never torn; what a killed writer leaves behind
# (a temporary file, the lock file) never blocks or confuses the next run.
# CRASH_TRIALS kills per command (10; 60 at full counts, TEST_FULL=1; make
# stress sets thousands); CRASH_SEED replays a failure exactly.
. "$(dirname "$0")/../lib.sh"
file_store_only "file writes killed mid-rename (t8000-pg.t kills PostgreSQL writers)"

trials=${CRASH_TRIALS:-$(counts 10 60)}
[ -n "${CONVCTL_WRAPPER:-}" ] && trials=${CRASH_TRIALS:-5}
export CONVCTL_NOW=2027-01-01T00:00:00Z CONVCTL_WAIT=5
python3 "$top/tests/helpers/bigstore.py" 150 1 >"$T/before.json"

# crash_case [--between ARGS | --between-env VAR=VALUE] NAME ARGS...: NAME
# killed $trials times; one line per command, so a new writer is one more
# line below. --between names the command whose result is a documented step
# on the way (quoted, one word an argument); --between-env, the same command
# with VAR=VALUE in its environment
crash_case() {
	between=
	if [ "$1" = --between ]; then
		for w in $2; do between="$between --between=$w"; done
		shift 2
	elif [ "$1" = --between-env ]; then
		between="--between-env=$2"
		shift 2
	fi
	name=$1
	shift
	test_expect "$name killed $trials times: the store is before or after, never torn" '
		python3 "$top/tests/helpers/crashkill.py" --store "$CONVCTL_STORE" \
		    --before "$T/before.json" --trials $trials ${CRASH_SEED:+--seed $CRASH_SEED} \
		    --prefix $(echo $CONVCTL_WRAPPER "$CONVCTL_BIN" | wc -w) \
		    --follow add --follow=--at --follow 2027-01-01T00:00:00Z --follow "after the kill" \
		    $between \
		    -- $CONVCTL_WRAPPER "$CONVCTL_BIN" '"$*"' >"$T/crash.out"; status=$?
		cat "$T/crash.out"; exit $status
	'
	sed -n "s/^/# /p" "$T/crash.out"
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
	convctl show --format json | jq -e ".messages[-1].content == \"cleans up\"" >/dev/null
'

test_expect 'a reader ignores stale temporary files' '
	echo "{ torn" >"$T/.store.json.convctl-tmp.QwE456" &&
	convctl recent -n 1000 --json >"$T/recent" &&
	jq -e --argjson n "$(jq "[.conversations[] | select(.endedAt)] | length" \
	    "$CONVCTL_STORE")" "length == \$n and \$n > 100" "$T/recent" >/dev/null
'

test_done
