#!/bin/sh
# Writers in parallel on one store: every add lands exactly once, in a store
# jq parses, across idle timeouts; readers never see a partial store.
# check: pg sqlite (locks and transactions)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

# W writers of N adds each: 4 x CONCURRENCY_ADDS (4: four processes
# racing for the lock, a process an add) in make check, 8 x 200 at full
# counts (TEST_FULL=1, and in make stress); on PostgreSQL, whose adds each connect
# (and where t8000-pg.t races its own writers on a socket and TCP), 4 x 4 in make
# check and 8 x 60 at full counts; under a slow wrapper
# (valgrind) 4 x 10
if [ -n "${CONVCTL_WRAPPER:-}" ]; then W=4 N=10
elif is_pg "$CONVCTL_STORE"; then
	W=$(counts 4 8) N=${CONCURRENCY_ADDS:-$(counts 4 60)}
else W=$(counts 4 8) N=${CONCURRENCY_ADDS:-$(counts 4 200)}; fi
export CONVCTL_WAIT=120 CONVCTL_MAX_CONVERSATIONS=100000

# writers PREFIX: W processes each add N messages "PREFIX-w-i"; extra
# arguments go to every add; fails when one add failed. Each add a process
# of its own (convctl_exec): processes racing for the store's lock are
# what the file checks
writers() {
	prefix=$1
	shift
	w=0 pids=
	while [ $w -lt $W ]; do
		(
			i=0
			while [ $i -lt $N ]; do
				convctl_exec add "$@" "$prefix-$w-$i" >/dev/null ||
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

# store_holds COND PREFIX...: the store has the shape a careful writer
# keeps: at most one active conversation, ids unique, messages in time
# order, an ended one ended at its last message; the jq condition COND
# holds; and every PREFIX-w-i is in it exactly once, nothing else starting
# with a PREFIX- is. One jq (store_is) for all of it, naming each that
# fails, each text that is not once
store_holds() {
	sh_cond=$1 sh_p=
	shift
	for p; do sh_p="$sh_p${sh_p:+, }\"$p\""; done
	store_is "$CONVCTL_STORE" -c '. as $s | [
	    ('"$sh_cond"' | not | select(.) | "the case'\''s condition does not hold"),
	    (([.conversations[] | select(.endedAt == null)] | length) > 1 | select(.) |
		"more than one active conversation"),
	    (([.conversations[].id] | length) != ([.conversations[].id] | unique | length) |
		select(.) | "ids not unique"),
	    (all(.conversations[]; [.messages[].timestamp] as $t | $t == ($t | sort)) | not |
		select(.) | "messages out of time order"),
	    (all(.conversations[] | select(.endedAt != null);
		.endedAt >= .messages[-1].timestamp) | not | select(.) |
		"a conversation ended before its last message"),
	    ([.conversations[].messages[].content |
		select(. as $c | any(['"$sh_p"'][]; . as $p | $c | startswith($p + "-")))] |
		reduce .[] as $c ({}; .[$c] += 1)) as $seen |
	    [['"$sh_p"'][] as $p | range('"$W"') as $w | range('"$N"') as $i |
		"\($p)-\($w)-\($i)"] as $want |
	    ($want[] | select($seen[.] != 1) |
		"\(.): stored \($seen[.] // 0) times, want once"),
	    ($seen | delpaths([$want[] | [.]]) | to_entries[] |
		"\(.key): stored \(.value) times, written by no writer")
	] | if . == [] then . else . + ["(\($s.conversations | length) conversations)"] end' '[]' ||
	{ echo "wanted: $sh_cond; the store:"; store_json | head -c 2000; return 1; }
}

# readers: prompt, show and recent in a loop until $T/stop exists; every
# failure goes to $T/reader-log, a "round" line a round. Each round's JSON
# answers are kept ($T/round-KIND-K), and on a database the store as it was
# then (copy: store_json's command), for watch_store, which parses them all
# in one python, not a jq each; a file store it reads itself all along
readers() {
	k=0
	while [ ! -e "$T/stop" ]; do
		k=$((k + 1))
		convctl prompt >"$T/r1" 2>&1 || { printf "prompt: "; cat "$T/r1"; }
		convctl prompt --format jsonl >"$T/round-r2-$k" 2>&1 ||
			{ printf "prompt jsonl: "; head -c 300 "$T/round-r2-$k"; echo; }
		convctl show --format json >"$T/round-r3-$k" 2>&1 ||
			{ printf "show: "; head -c 300 "$T/round-r3-$k"; echo; }
		convctl recent --json >"$T/round-r4-$k" 2>&1 ||
			{ printf "recent: "; head -c 300 "$T/round-r4-$k"; echo; }
		[ "$engine" = file ] ||
			convctl copy "$CONVCTL_STORE" - >"$T/round-s-$k" 2>&1 ||
			echo "store not read"
		echo round
	done >"$T/reader-log"
}

# watch_store &: one python, alongside the readers: on a file store, reads
# the store file and parses it, again and again (not a cat and jq a round),
# until $T/readers-done exists; and checks, as each round ends, that its
# answers parse as JSON, as jq -e takes them: prompt --format jsonl's values
# (none, or the last true); show's one with an .id; recent's an array; the
# store's .conversations (each file read, and on a database each round's
# copy); a round's files are removed once read.
# Names each that does not; exits 1 then, or when it read the store never
watch_store_py='import json, os, sys, time
t, store = sys.argv[1], sys.argv[2]
def values(text):  # the JSON values of text, one after another, as jq reads them
    d, i, out = json.JSONDecoder(parse_constant=lambda c: 1 / 0), 0, []
    while True:
        while i < len(text) and text[i] in " \t\n\r":
            i += 1
        if i == len(text):
            return out
        v, i = d.raw_decode(text, i)
        out.append(v)
checks = [("r2", "prompt jsonl", lambda v: not v or v[-1] not in (None, False)),
          ("r3", "show", lambda v: len(v) == 1 and isinstance(v[0], dict)
           and v[0].get("id") not in (None, False)),
          ("r4", "recent", lambda v: len(v) == 1 and isinstance(v[0], list)),
          ("s", "store", lambda v: len(v) == 1 and isinstance(v[0], dict)
           and v[0].get("conversations") not in (None, False))]
def good(ok, data):
    try:
        return ok(values(data.decode("utf-8", "surrogateescape")))
    except (ValueError, ZeroDivisionError, IndexError):
        return False
fails, reads, checked = [], 0, 0
while True:
    done = os.path.exists(t + "/readers-done")
    if store and not done:
        with open(store, "rb") as f:
            data = f.read()
        reads += 1
        if not good(checks[3][2], data):
            fails.append("store read %d does not parse: %r" % (reads, data[:300]))
    # the rounds the readers ended (their "round" lines), checked and
    # removed as they come: a round'"'"'s answers are not kept longer
    try:
        with open(t + "/reader-log") as f:
            ended = f.read().count("round\n")
    except FileNotFoundError:
        ended = 0
    for k in range(checked + 1, ended + 1):
        for f, what, ok in checks[:3] if store else checks:
            path = "%s/round-%s-%d" % (t, f, k)
            data = open(path, "rb").read()
            if not good(ok, data):
                fails.append("%s: %s does not parse as wanted: %r" % (path, what, data[:300]))
            os.remove(path)
    checked = max(checked, ended)
    if done:
        break
    time.sleep(0.01)
print("\n".join(fails[:10] + ["(%d more)" % (len(fails) - 10)] * (len(fails) > 10)))
if store:
    print("# %d reads of the store file during the writes" % reads)
sys.exit(1 if fails or store and reads == 0 else 0)'

test_expect "$W writers x $N adds, readers alongside: each message stored once" '
	use_store a &&
	convctl add --at 2026-01-01T00:00:00Z first >/dev/null &&
	CONVCTL_NOW=2026-01-01T00:00:01Z convctl end >/dev/null || return 1
	if [ "$engine" = file ]; then file=$CONVCTL_STORE; else file=; fi
	python3 -c "$watch_store_py" "$T" "$file" >"$T/watched" & ppid=$!
	readers & rpid=$!
	writers a; wstatus=$?
	: >"$T/stop"; wait $rpid; : >"$T/readers-done"
	wait $ppid; pstatus=$?
	test $wstatus -eq 0 &&
	store_holds "(.conversations | length) == 2 and
	    (.conversations[1].messages | length) == $((W * N))" a &&
	rounds=0 && other= &&
	while IFS= read -r l; do
		case $l in round) rounds=$((rounds + 1)) ;; *) other="$other$l
" ;; esac
	done <"$T/reader-log" &&
	echo "# $rounds reader rounds during the writes" &&
	test "$rounds" -gt 0 &&
	{ [ -z "$other" ] || { printf "%s" "$other"; return 1; }; } &&
	{ test "$pstatus" -eq 0 || { cat "$T/watched"; return 1; }; }
'

test_file 'no temporary file is left behind, the lock file is empty' '
	for f in "$T"/.a.json.*; do
		[ ! -e "$f" ] || { echo "left: $f"; return 1; }
	done &&
	test -e "$T/a.json.lock" && test ! -s "$T/a.json.lock"
'

# the remaining cases hold with fewer adds; they keep the suite quick
N=$((N / 4 + 1))

# an idle timeout of 0 minutes: every add a millisecond or more after the
# last one ends the active conversation and starts another, so writers race
# across the idle boundary all the time
test_expect "idle timeout crossed mid-run: each message still once" '
	use_store b &&
	CONVCTL_IDLE_TIMEOUT=0 writers b &&
	store_holds "([.conversations[].messages[]] | length) == $((W * N))" b
'

# phases with a fixed clock (CONVCTL_NOW, --at) two hours apart: each phase
# makes one conversation, and ends the previous one at its last message
test_expect "phases an idle timeout apart, a fixed clock per process" '
	use_store p &&
	CONVCTL_NOW=2026-03-01T10:00:00Z writers p1 &&
	CONVCTL_NOW=2026-03-01T12:00:00Z writers p2 &&
	writers p3 --at 2026-03-01T14:00:00.500Z &&
	store_holds "[.conversations[] | .messages | length] == [$((W * N)), $((W * N)), $((W * N))] and
	    [.conversations[].endedAt] == [\"2026-03-01T10:00:00.000Z\",
		\"2026-03-01T12:00:00.000Z\", null]" p1 p2 p3
'

test_done
