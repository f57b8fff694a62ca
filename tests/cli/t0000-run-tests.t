#!/bin/sh
# scripts/run-tests, what make check prints: a line a test file as soon as
# it finishes (name, counts, seconds of wall clock and of processor time), a
# failure's TAP lines, the files' total time, and last the line CI reads,
# N passed, N failed; its exit status says whether all passed.
# check: plain-only (the test runner)
. "$(dirname "$0")/../lib.sh"
file_store_only "the test runner, no store"
# the runner under test prints what a plain make check does
unset VERBOSE RUN_TESTS_PERF
# a file's line ends with the processes it started where perf counts them
P='\(, [0-9]* process\(es\)\{0,1\}\)\{0,1\}'

mkdir "$T/t"
# slow.t ends only once the runner has reported fast.t (20 s at most)
printf '%s\n' 'i=0' \
    'until grep -q "t/fast.t:" out 2>/dev/null || [ $i -ge 400 ]; do sleep 0.05; i=$((i + 1)); done' \
    'echo "ok 1 - slow"' 'echo "1..1"' >"$T/t/slow.t"
printf '%s\n' 'echo "ok 1 - fast"' 'echo "ok 2 # SKIP why"' 'echo "1..2"' \
    >"$T/t/fast.t"
printf '%s\n' 'echo "ok 1 - one"' 'echo "not ok 2 - two"' 'echo "#   why"' \
    'echo "1..2"' 'exit 1' >"$T/t/fails.t"
printf '%s\n' 'exit 3' >"$T/t/dies.t"

test_expect 'each file as it finishes, then the total; a failure shows its lines' '
	TEST_JOBS=2 sh "$top/scripts/run-tests" t/slow.t t/fast.t t/fails.t \
	    t/dies.t >out; rc=$?
	test "$rc" -ne 0 &&
	test "$(tail -n 1 out)" = "3 passed, 2 failed" &&
	grep -qx "\[[1-4]/4\] t/fast.t: 1 passed, 1 skipped ([0-9]* s, [0-9.]* s CPU$P)" out &&
	grep -qx "\[[1-4]/4\] t/slow.t: 1 passed ([0-9]* s, [0-9.]* s CPU$P)" out &&
	grep -qx "\[[1-4]/4\] t/fails.t: 1 passed, 1 failed ([0-9]* s, [0-9.]* s CPU$P)" out &&
	has_line "    not ok 2 - two" out && has_line "    #   why" out &&
	grep -qx "\[[1-4]/4\] t/dies.t: 0 passed, 1 failed ([0-9]* s, [0-9.]* s CPU$P)" out &&
	grep -qx "    not ok - t/dies.t exited 3" out &&
	# the counter counts the files finished, 1 to 4 in the order printed
	sed -n "s|^\[\([0-9]*\)/4\] .*|\1|p" out | tr "\n" " " >got &&
	test "$(cat got)" = "1 2 3 4 " &&
	# slow.t began first, and is reported after those that ended before it
	test "$(grep -n "t/slow.t:" out | cut -d: -f1)" -gt \
	    "$(grep -n "t/fast.t:" out | cut -d: -f1)"
'

test_expect 'all passing: exit 0' '
	TEST_JOBS=1 sh "$top/scripts/run-tests" t/fast.t >out &&
	lines_are 3 out &&
	grep -qx "\[1/1\] t/fast.t: 1 passed, 1 skipped ([0-9]* s, [0-9.]* s CPU$P)" out &&
	grep -qx "1 files in [0-9]* s, [0-9]* s of processor time\(, [0-9]* processes started\( on the machine\)\{0,1\}\)\{0,1\}" out &&
	test "$(tail -n 1 out)" = "1 passed, 0 failed" || { cat out; exit 1; }
'

# the processor time of a file's processes is counted, its waits are not
test_expect 'each file says its processor time; the total line adds them' '
	printf "%s\n" "sh -c \"i=0; while [ \\\$i -lt 400000 ]; do i=\\\$((i + 1)); done\"" \
	    "echo \"ok 1 - burns\"" "echo 1..1" >t/burn.t &&
	TEST_JOBS=1 sh "$top/scripts/run-tests" t/burn.t t/fast.t >out &&
	cpu=$(sed -n "s|^\[./2\] t/burn.t: 1 passed ([0-9]* s, \([0-9.]*\) s CPU$P)\$|\1|p" out) &&
	test -n "$cpu" && test "$cpu" != 0.0 &&
	grep -qx "\[./2\] t/fast.t: 1 passed, 1 skipped ([0-9]* s, [0-9.]* s CPU$P)" out &&
	grep -qx "2 files in [0-9]* s, [0-9]* s of processor time\(, [0-9]* processes started\( on the machine\)\{0,1\}\)\{0,1\}" out || { cat out t/burn.t; exit 1; }
'

# the processes a file started: its own process tree's, exactly, where perf
# counts them (a file that starts 60 shows 60, and the total adds the
# files'); else those the machine started while the files ran, at least 60
test_expect 'each file says how many processes it started; the total adds them' '
	printf "%s\n" "i=0; while [ \$i -lt 60 ]; do /bin/true; i=\$((i + 1)); done" \
	    "echo \"ok 1 - forks\"" "echo 1..1" >t/forks.t &&
	printf "%s\n" "echo \"ok 1 - killed\"" "/bin/true" "kill -9 \$\$" >t/killed.t &&
	! TEST_JOBS=1 sh "$top/scripts/run-tests" t/forks.t t/killed.t >out &&
	grep -qx "\[./2\] t/killed.t: 1 passed, 1 failed (.*)" out &&
	has_line "    not ok - t/killed.t exited 137" out &&
	if perf stat -x, -o perf.out -e sched:sched_process_fork -- true \
	    >/dev/null 2>&1 && grep -q "^0," perf.out; then
		grep -qx "\[./2\] t/forks.t: 1 passed ([0-9]* s, [0-9.]* s CPU, 60 processes)" out &&
		grep -qx "\[./2\] t/killed.t: .*, 1 process)" out &&
		grep -qx "2 files in [0-9]* s, [0-9]* s of processor time, 61 processes started" out
	else
		echo "# no perf counting: the machine'\''s count"
		n=$(sed -n "s/^2 files in .*, \([0-9]*\) processes started on the machine\$/\1/p" out) &&
		test -n "$n" && test "$n" -ge 60
	fi || { cat out; exit 1; }
'

test_expect 'without perf the total is the machine'\''s count, saying so' '
	test -r /proc/stat || { echo "# no /proc/stat: not counted"; exit 0; }
	RUN_TESTS_PERF=no TEST_JOBS=1 sh "$top/scripts/run-tests" t/forks.t >out &&
	grep -qx "\[1/1\] t/forks.t: 1 passed ([0-9]* s, [0-9.]* s CPU)" out &&
	n=$(sed -n "s/^1 files in .*, \([0-9]*\) processes started on the machine\$/\1/p" out) &&
	test -n "$n" && test "$n" -ge 60 || { cat out; exit 1; }
'

# a case runs in the file's shell only when it can change nothing that
# outlives it (tests/lib.sh, case_inline: what it assigns is put back; a
# function it defines stays, which tells where it ran); either way a failure
# is its own
test_expect 'a case runs in the file'\''s shell or a subshell; a failure stays its own' '
	mkdir -p lt/tests/cli && ln -s "$top/tests/lib.sh" lt/tests/lib.sh &&
	cat >lt/tests/cli/cases.t <<-\END &&
	. "$(dirname "$0")/../lib.sh"
	X=0
	test_expect "inline, fails" "x=1 X=2 && f() { :; } && false"
	test_expect "inline: what it assigned is back" "f && test -z \"\$x\" && test \$X = 0"
	test_expect "inline: a capital before a command" "X=3 true && CONVCTL_STORE=/x true &&
	    export CONVCTL_STORE=/y && k() { :; }"
	test_expect "inline: return ends the case alone" "h() { :; }; z=1; return 2"
	test_expect "inline: what it assigned before is back" "test -z \"\$z\" && h"
	test_expect "a subshell: exit ends the case alone" "g() { :; }; y=1; exit 3"
	test_expect "what a subshell set ends with it" "test -z \"\$y\" && ! command -v g"
	test_expect "a subshell: cd" "cd / && test \"\$PWD\" = /"
	hop() { cd / && CONVCTL_STORE=/z; }
	test_expect "inline: a helper leaves \$T, changes the store" "hop && return 1"
	test_expect "inline: use_store" "use_store u && test \"\$CONVCTL_STORE\" = \"\$T/u.json\""
	test_expect "back in \$T, the store as it was" "test \"\$PWD\" = \"\$T\" &&
	    test \"\$CONVCTL_STORE\" = \"\$T/store.json\" && test \$X = 0 && k &&
	    sh -c \"test \\\"\\\$CONVCTL_STORE\\\" = \\\"\$T/store.json\\\"\""
	test_done
	END
	! sh lt/tests/cli/cases.t >out &&
	printf "%s\n" "not ok 1 - inline, fails" "ok 2 - inline: what it assigned is back" \
	    "ok 3 - inline: a capital before a command" \
	    "not ok 4 - inline: return ends the case alone" \
	    "ok 5 - inline: what it assigned before is back" \
	    "not ok 6 - a subshell: exit ends the case alone" \
	    "ok 7 - what a subshell set ends with it" "ok 8 - a subshell: cd" \
	    "not ok 9 - inline: a helper leaves \$T, changes the store" \
	    "ok 10 - inline: use_store" \
	    "ok 11 - back in \$T, the store as it was" "1..11" >want &&
	grep -v "^#" out >got && same_file want got
'

# in a git work tree, a test that writes there (as tests once wrote a file
# named tty at the root) fails the run, naming what it wrote
test_expect 'a file written in the work tree is a failure, named' '
	mkdir repo && cd repo && git init -q && cp -R ../t . &&
	printf "%s\n" "echo x >tty" "echo \"ok 1 - writes\"" "echo 1..1" >t/writes.t &&
	git add t && git -c user.name=t -c user.email=t@t commit -q -m t &&
	TEST_JOBS=1 sh "$top/scripts/run-tests" t/fast.t >out1 &&
	tail -n 1 out1 | grep -qx "1 passed, 0 failed" &&
	! TEST_JOBS=1 sh "$top/scripts/run-tests" t/writes.t >out2 &&
	tail -n 3 out2 >got &&
	printf "%s\n" "not ok - the work tree changed while the tests ran (a test wrote outside its temporary directory):" \
	    "    ?? tty" "1 passed, 1 failed" >want && test_cmp want got || { cat out2; exit 1; }
'

test_done
