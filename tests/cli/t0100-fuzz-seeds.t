#!/bin/sh
# Every seed and every past crash of each libFuzzer harness
# (tests/fuzz-corpus/NAME/) replayed through the harness without libFuzzer
# (build/replay/NAME, fuzz/replay.c): the harness's invariants hold on each,
# under ASan and valgrind too when the suite runs there. A crash the fuzzer
# found stays fixed.
# check: valgrind
. "$(dirname "$0")/../lib.sh"
file_store_only "the fuzz harnesses, which open file stores"

for dir in "$top"/tests/fuzz-corpus/*/; do
	name=$(basename "$dir")
	test_expect "fuzz seeds: $name ($(ls "$dir" | wc -l) inputs)" '
		replay="$top/build/replay/'"$name"'" &&
		{ [ -x "$replay" ] || { echo "no $replay: run make check"; exit 1; }; } &&
		for seed in "'"$dir"'"*; do
			$CONVCTL_WRAPPER "$replay" "$seed" ||
			    { echo "fails on $seed"; exit 1; }
		done
	'
done

test_expect 'every harness has seeds, and every seed directory a harness' '
	for f in "$top"/fuzz/fuzz_*.c; do
		name=${f##*/fuzz_}; name=${name%.c}
		[ -n "$(ls "$top/tests/fuzz-corpus/$name")" ] ||
		    { echo "no seeds for $name"; return 1; }
	done &&
	for dir in "$top"/tests/fuzz-corpus/*/; do
		[ -e "$top/fuzz/fuzz_$(basename "$dir").c" ] ||
		    { echo "no harness for $dir"; return 1; }
	done
'

test_done
