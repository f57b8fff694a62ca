#!/bin/sh
# Every seed and every past crash of each libFuzzer harness
# (tests/fuzz-corpus/NAME/) replayed through the harness without libFuzzer
# (build/replay/NAME, fuzz/replay.c): the harness's invariants hold on each,
# under ASan and valgrind too when the suite runs there. A crash the fuzzer
# found stays fixed.
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the fuzz harnesses, which open file stores"

# replay_all NAME DIR: every seed of DIR through build/replay/NAME, all in
# one process (replay.c reads each file named and gives it to the harness,
# as libFuzzer replays a corpus); when that fails, each seed again alone,
# to name the one it fails on
replay_all() {
	ra_replay=$top/build/replay/$1
	[ -x "$ra_replay" ] || { echo "no $ra_replay: run make check"; return 1; }
	$CONVCTL_WRAPPER "$ra_replay" "$2"* && return 0
	for ra_seed in "$2"*; do
		$CONVCTL_WRAPPER "$ra_replay" "$ra_seed" ||
		    { echo "fails on $ra_seed"; return 1; }
	done
	echo "fails on the seeds together, on none alone"
	return 1
}

for dir in "$top"/tests/fuzz-corpus/*/; do
	name=${dir%/} name=${name##*/}
	set -- "$dir"*
	[ -e "$1" ] || shift	# an empty directory: no input
	test_expect "fuzz seeds: $name ($# inputs)" '
		replay_all "'"$name"'" "'"$dir"'"
	'
done

test_expect 'every harness has seeds, and every seed directory a harness' '
	for f in "$top"/fuzz/fuzz_*.c; do
		name=${f##*/fuzz_}; name=${name%.c}
		for seed in "$top/tests/fuzz-corpus/$name/"*; do
			[ -e "$seed" ] || { echo "no seeds for $name"; return 1; }
			break
		done
	done &&
	for dir in "$top"/tests/fuzz-corpus/*/; do
		name=${dir%/}; name=${name##*/}
		[ -e "$top/fuzz/fuzz_$name.c" ] ||
		    { echo "no harness for $dir"; return 1; }
	done
'

test_done
