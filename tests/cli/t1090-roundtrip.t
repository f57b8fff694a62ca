#!/bin/sh
# The round-trip property: random stores (tests/helpers/roundtrip.py) with
# unknown fields at every level holding numbers of every shape (0.1, 1.0,
# -0, 1e400, integers past int64_t...), strings and keys with \u0000, go
# through convctl's writers and readers; python's json module, reading
# every number as its text, finds each value and each number's text kept,
# in conversations touched (a message added, ended) and untouched, and at
# the top. ROUNDTRIP_STORES=N sets how many stores (6 in make check, 40 at
# full counts, TEST_FULL=1).
# check: pg sqlite (number texts and unknown fields through SQL and COPY)
. "$(dirname "$0")/../lib.sh"

S=$CONVCTL_STORE
RT="python3 $top/tests/helpers/roundtrip.py"
N=${ROUNDTRIP_STORES:-$(counts 6 40)}
# on PostgreSQL each store is seeded and read back through copy: 3 of them
# (15 at full counts)
is_pg "$S" && [ -z "${ROUNDTRIP_STORES:-}" ] && N=$(counts 3 15)
[ -n "${CONVCTL_WRAPPER:-}" ] && N=5
# a long idle timeout: add joins the active conversation
export CONVCTL_NOW=2026-03-01T00:00:00.000Z CONVCTL_IDLE_TIMEOUT=1000000

# the N stores, gen$i.json for seed i, made once (one python) for every case
i=0 && set --
while [ "$i" -lt "$N" ]; do set -- "$@" "$i" "$T/gen$i.json"; i=$((i + 1)); done
$RT gen "$@"

# each: seed a store, run the writer, keep it and the one before
# (before$i.json, after$i.json); then one python checks every pair
trials() {
	i=0 pairs=
	while [ "$i" -lt "$N" ]; do
		store_seed "$S" <"gen$i.json" &&
		store_json "$S" >"before$i.json" && "$@" >/dev/null &&
		store_json "$S" >"after$i.json" || { echo "seed $i"; return 1; }
		pairs="$pairs before$i.json after$i.json"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	$RT check $pairs
}

test_expect 'add: values and number texts kept, the active conversation grown' '
	trials convctl add "a new message"
'

test_expect 'end: values and number texts kept' '
	trials convctl end --no-summary
'

test_expect 'add, then end, then add again: still kept' '
	three() { convctl add one && convctl end --no-summary && convctl add two; } &&
	trials three
'

test_expect 'copy: every value kept in the copy, keys holding NUL too' '
	i=0 && pairs= &&
	while [ "$i" -lt "$N" ]; do
		store_seed "$S" <"gen$i.json" &&
		copy=$(store_at "copy$i") &&
		convctl copy "$S" "$copy" 2>/dev/null && store_json "$copy" >"copied$i.json" ||
		{ echo "seed $i"; return 1; }
		pairs="$pairs gen$i.json copied$i.json"
		i=$((i + 1))
	done &&
	$RT check $pairs
'

test_expect 'show --format json: a conversation as stored, number texts included' '
	i=0 && triples= &&
	while [ "$i" -lt "$N" ]; do
		store_seed "$S" <"gen$i.json" &&
		convctl show --format json c0 >"c0-$i.json" || { echo "seed $i"; return 1; }
		triples="$triples gen$i.json c0 c0-$i.json"
		i=$((i + 1))
	done &&
	$RT conv $triples
'

test_done
