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
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE
RT="python3 $top/tests/helpers/roundtrip.py"
N=${ROUNDTRIP_STORES:-$(counts 6 40)}
# on PostgreSQL each store is seeded and read back through copy: 3 of them
# (15 at full counts)
is_pg "$S" && [ -z "${ROUNDTRIP_STORES:-}" ] && N=$(counts 3 15)
[ -n "${CONVCTL_WRAPPER:-}" ] && N=5
# a long idle timeout: add joins the active conversation
export CONVCTL_NOW=2026-03-01T00:00:00.000Z CONVCTL_IDLE_TIMEOUT=1000000

# rt_at NAME: $rt is store_at NAME's store, named by the shell (NAME is of
# a-z and 0-9, which store_at keeps as it is): no subshell a store
rt_at() {
	case $engine in
	file) rt=$T/$1.json ;;
	sqlite) rt=sqlite:$T/$1.db ;;
	*) rt="$PG_URI&schema=${pg_prefix}_$1" ;;
	esac
}

# the N stores, gen$i.json for seed i, made once (one python) for every
# case; on a file store the same python writes each case's stores, NAME$i,
# as seeding would (a seed's store is the same text each time); a database's
# are seeded with copy (seed NAME$i)
i=0 && set --
while [ "$i" -lt "$N" ]; do
	set -- "$@" "$i" "$T/gen$i.json"
	[ "$engine" != file ] ||
	    for c in add end three src show; do set -- "$@" "$i" "$T/$c$i.json"; done
	i=$((i + 1))
done
$RT gen "$@"

# seed NAME I: $rt is store NAME$I, a fresh one holding gen$I.json, and
# before$I.json what it reads back: on a file store, gen$I.json itself
seed() {
	rt_at "$1$2"
	if [ "$engine" = file ]; then
		before=gen$2.json
	else
		before=$1-before$2.json
		convctl copy "gen$2.json" "$rt" && convctl copy "$rt" - >"$before"
	fi
}

# trials NAME CMD...: each seed's store NAME$i, the writer CMD run on it,
# kept with the one before (a file store is its own after$i); then one
# python checks every pair
trials() {
	t_name=$1
	shift
	i=0 pairs=
	while [ "$i" -lt "$N" ]; do
		seed "$t_name" "$i" && CONVCTL_STORE=$rt && "$@" >/dev/null &&
		if [ "$engine" = file ]; then after=$rt
		else after=$t_name-after$i.json && convctl copy "$rt" - >"$after"; fi ||
		{ echo "seed $i"; return 1; }
		pairs="$pairs $before $after"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	$RT check $pairs
}

test_expect 'add: values and number texts kept, the active conversation grown' '
	trials add convctl add "a new message"
'

test_expect 'end: values and number texts kept' '
	trials end convctl end --no-summary
'

test_expect 'add, then end, then add again: still kept' '
	three() { convctl add one && convctl end --no-summary && convctl add two; } &&
	trials three three
'

test_expect 'copy: every value kept in the copy, keys holding NUL too' '
	i=0 && pairs= &&
	while [ "$i" -lt "$N" ]; do
		seed src "$i" && src=$rt && rt_at "copy$i" &&
		convctl copy "$src" "$rt" 2>/dev/null &&
		if [ "$engine" = file ]; then copied=$rt
		else copied=copied$i.json && convctl copy "$rt" - >"$copied"; fi ||
		{ echo "seed $i"; return 1; }
		pairs="$pairs gen$i.json $copied"
		i=$((i + 1))
	done &&
	$RT check $pairs
'

test_expect 'show --format json: a conversation as stored, number texts included' '
	i=0 && triples= &&
	while [ "$i" -lt "$N" ]; do
		seed show "$i" &&
		convctl -s "$rt" show --format json c0 >"c0-$i.json" || { echo "seed $i"; return 1; }
		triples="$triples gen$i.json c0 c0-$i.json"
		i=$((i + 1))
	done &&
	$RT conv $triples
'

test_done
