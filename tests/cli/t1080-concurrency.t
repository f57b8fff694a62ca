#!/bin/sh
# Writers in parallel on one store: every add lands exactly once, in a store
# jq parses, across idle timeouts; readers never see a partial store.
# check: pg sqlite (locks and transactions)
. "$(dirname "$0")/../lib.sh"

# W writers of N adds each: 8 x CONCURRENCY_ADDS (12; 200 at full counts,
# TEST_FULL=1, and in make stress); on PostgreSQL, whose adds each connect
# (and where t8000-pg.t races its own writers on a socket and TCP), 4 x 8 in make
# check and 8 x 60 at full counts; under a slow wrapper
# (valgrind) 4 x 10
if [ -n "${CONVCTL_WRAPPER:-}" ]; then W=4 N=10
elif is_pg "$CONVCTL_STORE"; then
	W=$(counts 4 8) N=${CONCURRENCY_ADDS:-$(counts 8 60)}
else W=8 N=${CONCURRENCY_ADDS:-$(counts 12 200)}; fi
export CONVCTL_WAIT=120 CONVCTL_MAX_CONVERSATIONS=100000

# writers PREFIX: W processes each add N messages "PREFIX-w-i"; extra
# arguments go to every add; fails when one add failed
writers() {
	prefix=$1
	shift
	w=0 pids=
	while [ $w -lt $W ]; do
		(
			i=0
			while [ $i -lt $N ]; do
				convctl add "$@" "$prefix-$w-$i" >/dev/null ||
					{ echo "writer $w: add $i failed"; exit 1; }
				i=$((i + 1))
			done
		) &
		pids="$pids $!"
		w=$((w + 1))
	done
	status=0
	for p in $pids; do wait "$p" || status=1; done
	return $status
}

# read_store: the store as JSON in $T/now.json, its messages' texts in
# $T/texts, how many conversations it has in $convs; each_once and
# shape_holds check those (one read of the store for all a case checks)
read_store() {
	store_json "$CONVCTL_STORE" >"$T/now.json" &&
	jq -r '(.conversations | length), .conversations[].messages[].content' \
	    "$T/now.json" >"$T/jq.out" &&
	{ read -r convs && cat >"$T/texts"; } <"$T/jq.out"
}

# each_once PREFIX...: every PREFIX-w-i is in the store read exactly once,
# and nothing else starting with PREFIX- is; one awk for all the prefixes
# (not grep, sort and diff a prefix), naming each text that is not once
each_once() {
	awk -v W="$W" -v N="$N" -v prefixes="$*" '
	BEGIN { np = split(prefixes, P, " ") }
	{
		for (k = 1; k <= np; k++)
			if (index($0, P[k] "-") == 1) { seen[$0]++; break }
	}
	END {
		for (k = 1; k <= np; k++)
			for (w = 0; w < W; w++)
				for (i = 0; i < N; i++) {
					t = P[k] "-" w "-" i
					if (seen[t] != 1) {
						print t ": stored " seen[t] + 0 " times, want once"
						bad = 1
					}
					delete seen[t]
				}
		for (t in seen) {
			print t ": stored " seen[t] " times, written by no writer"
			bad = 1
		}
		exit bad
	}' "$T/texts"
}

# shape_holds [COND]: the store read has the shape a careful writer keeps:
# at most one active conversation, ids unique, messages in time order, an
# ended one ended at its last message; and the jq condition COND holds
shape_holds() {
	jq -e "${1:-true}"' and
	  ([.conversations[] | select(.endedAt == null)] | length) <= 1 and
	  ([.conversations[].id] | length) == ([.conversations[].id] | unique | length) and
	  all(.conversations[]; [.messages[].timestamp] as $t | $t == ($t | sort)) and
	  all(.conversations[] | select(.endedAt != null);
	      .endedAt >= .messages[-1].timestamp)' "$T/now.json" >/dev/null ||
	{ echo "the store has not the shape wanted (${1:-true}):"; head -c 2000 "$T/now.json"; return 1; }
}

# readers: prompt, show and recent in a loop until $T/stop exists; every
# failure, and every JSON answer that does not parse, goes to $T/reader-log
readers() {
	while [ ! -e "$T/stop" ]; do
		convctl prompt >"$T/r1" 2>&1 || echo "prompt: $(cat "$T/r1")"
		convctl prompt --format jsonl >"$T/r2" 2>&1 &&
			jq -e . "$T/r2" >/dev/null 2>&1 ||
			echo "prompt jsonl: $(head -c 300 "$T/r2")"
		convctl show --format json >"$T/r3" 2>&1 &&
			jq -e .id "$T/r3" >/dev/null 2>&1 ||
			echo "show: $(head -c 300 "$T/r3")"
		convctl recent --json >"$T/r4" 2>&1 &&
			jq -e "type == \"array\"" "$T/r4" >/dev/null 2>&1 ||
			echo "recent: $(head -c 300 "$T/r4")"
		store_json | jq -e .conversations >/dev/null 2>&1 ||
			echo "store does not parse"
		echo round
	done >"$T/reader-log"
}

test_expect "$W writers x $N adds, readers alongside: each message stored once" '
	store_rm "$CONVCTL_STORE" "$T/stop" &&
	convctl add --at 2026-01-01T00:00:00Z first >/dev/null &&
	CONVCTL_NOW=2026-01-01T00:00:01Z convctl end >/dev/null || return 1
	readers & rpid=$!
	writers a; wstatus=$?
	touch "$T/stop"; wait $rpid
	test $wstatus -eq 0 && read_store &&
	shape_holds "(.conversations | length) == 2 and
	    (.conversations[1].messages | length) == $((W * N))" &&
	each_once a &&
	rounds=$(grep -c "^round$" "$T/reader-log") &&
	echo "# $rounds reader rounds during the writes" &&
	test "$rounds" -gt 0 &&
	! grep -v "^round$" "$T/reader-log"
'

test_file 'no temporary file is left behind, the lock file is empty' '
	! ls -A "$T" | grep "^\.store\.json\." &&
	test ! -s "$CONVCTL_STORE.lock"
'

# the remaining cases hold with fewer adds; they keep the suite quick
N=$((N / 4 + 1))

# an idle timeout of 0 minutes: every add a millisecond or more after the
# last one ends the active conversation and starts another, so writers race
# across the idle boundary all the time
test_expect "idle timeout crossed mid-run: each message still once" '
	store_rm "$CONVCTL_STORE" &&
	CONVCTL_IDLE_TIMEOUT=0 writers b && read_store &&
	echo "# $convs conversations" &&
	test "$(wc -l <"$T/texts")" = $((W * N)) &&
	each_once b && shape_holds
'

# phases with a fixed clock (CONVCTL_NOW, --at) two hours apart: each phase
# makes one conversation, and ends the previous one at its last message
test_expect "phases an idle timeout apart, a fixed clock per process" '
	store_rm "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-03-01T10:00:00Z writers p1 &&
	CONVCTL_NOW=2026-03-01T12:00:00Z writers p2 &&
	writers p3 --at 2026-03-01T14:00:00.500Z &&
	read_store &&
	shape_holds "[.conversations[] | .messages | length] == [$((W * N)), $((W * N)), $((W * N))] and
	    [.conversations[].endedAt] == [\"2026-03-01T10:00:00.000Z\",
		\"2026-03-01T12:00:00.000Z\", null]" &&
	each_once p1 p2 p3
'

test_done
