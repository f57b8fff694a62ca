#!/bin/sh
# scripts/run-tests, what make check prints: a line a test file as soon as
# it finishes (name, counts, seconds of wall clock and of processor time), a
# failure's TAP lines, the files' total time, and last the line CI reads,
# N passed, N failed; its exit status says whether all passed.
# check: plain-only (the test runner)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the test runner, no store"
# the runner under test prints what a plain make check does
unset VERBOSE RUN_TESTS_PERF

# whole S: S is a whole number
whole() {
	case $1 in "" | *[!0-9]*) return 1 ;; esac
}

# reported FILE NAME TEXT: FILE has the runner's line for the test file
# NAME, "[K/N] NAME: TEXT (W s, C s CPU)", with ", P process" or ", P
# processes" before the ")" where perf counted them (K, N, W and P whole
# numbers, C digits and points); its K, N, C and what follows "CPU" are
# left in $k, $n, $cpu and $procs. Read by the shell: no grep a line
reported() {
	while IFS= read -r l; do
		case $l in
		"["*"/"*"] $2: $3 ("*" s, "*" s CPU"*")") ;;
		*) continue ;;
		esac
		k=${l#"["} n=${l#*/} r=${l#*"] $2: $3 ("}
		k=${k%%/*} n=${n%%"]"*} r=${r%")"}
		w=${r%%" s, "*} r=${r#*" s, "}
		cpu=${r%%" s CPU"*} procs=${r#*" s CPU"}
		whole "$k" && whole "$n" && whole "$w" || continue
		case $cpu in "" | *[!0-9.]*) continue ;; esac
		case $procs in
		"") return 0 ;;
		", "*" process" | ", "*" processes")
			p=${procs#, } && whole "${p%% *}" && return 0 ;;
		esac
	done <"$1"
	echo "$1 has no line [K/N] $2: $3 (W s, C s CPU[, P processes]):"
	cat "$1"
	return 1
}

# died FILE NAME STATUS: FILE says that NAME ended with STATUS, on a line
# of its own among the file's TAP lines
died() {
	has_line "    not ok - $2 exited $3" "$1"
}

# total_line FILE N: FILE has the runner's total for N files, "N files in
# W s, C s of processor time", then ", P processes started" where perf
# counted each file's, ", P processes started on the machine" where it did
# not; P is left in $started ("" when there is none), and $machine is 1
# when the count is the machine's
total_line() {
	while IFS= read -r l; do
		case $l in
		"$2 files in "*" s, "*" s of processor time"*) ;;
		*) continue ;;
		esac
		r=${l#"$2 files in "}
		w=${r%%" s, "*} r=${r#*" s, "}
		c=${r%%" s of processor time"*} r=${r#*" s of processor time"}
		whole "$w" && whole "$c" || continue
		started= machine=
		case $r in
		"") return 0 ;;
		", "*" processes started") ;;
		", "*" processes started on the machine") machine=1 ;;
		*) continue ;;
		esac
		started=${r#, } started=${started%% *}
		whole "$started" && return 0
	done <"$1"
	echo "$1 has no line $2 files in W s, C s of processor time[, P processes started...]:"
	cat "$1"
	return 1
}

# last_line FILE: its last line, in $last
last_line() {
	last=
	while IFS= read -r l || [ -n "$l" ]; do last=$l; done <"$1"
}

# the test files the runner runs: slow.t ends only once the runner has
# reported fast.t (20 s at most; it reads the runner's output, out1, in the
# shell); burn.t spends processor time, forks.t starts 10 processes, and
# killed.t is killed; writes.t writes in the git work tree it runs in
mkdir "$T/t"
printf '%s\n' 'seen() { while IFS= read -r l; do case $l in *"t/fast.t:"*) return 0 ;; esac; done <out1; return 1; } 2>/dev/null' \
    'i=0' \
    'until seen || [ $i -ge 400 ]; do sleep 0.05; i=$((i + 1)); done' \
    'echo "ok 1 - slow"' 'echo "1..1"' >"$T/t/slow.t"
printf '%s\n' 'echo "ok 1 - fast"' 'echo "ok 2 # SKIP why"' 'echo "1..2"' \
    >"$T/t/fast.t"
printf '%s\n' 'echo "ok 1 - one"' 'echo "not ok 2 - two"' 'echo "#   why"' \
    'echo "1..2"' 'exit 1' >"$T/t/fails.t"
printf '%s\n' 'exit 3' >"$T/t/dies.t"
printf '%s\n' 'i=0; while [ $i -lt 400000 ]; do i=$((i + 1)); done' \
    'echo "ok 1 - burns"' 'echo 1..1' >"$T/t/burn.t"
printf '%s\n' 'i=0; while [ $i -lt 10 ]; do /bin/true; i=$((i + 1)); done' \
    'echo "ok 1 - forks"' 'echo 1..1' >"$T/t/forks.t"
printf '%s\n' 'echo "ok 1 - killed"' '/bin/true' 'kill -9 $$' >"$T/t/killed.t"
printf '%s\n' 'echo x >tty' 'echo "ok 1 - writes"' 'echo 1..1' >"$T/t/writes.t"
# and a git work tree holding them, repo/t, where the runner also compares
# git status before and after the files
git init -q "$T/repo" && cp -R "$T/t" "$T/repo/" && git -C "$T/repo" add t &&
    git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q -m t

# one run of six files, for this case and the one on processes below (out1)
test_expect 'each file as it finishes, then the total; a failure shows its lines' '
	TEST_JOBS=2 sh "$top/scripts/run-tests" t/slow.t t/fast.t t/fails.t \
	    t/dies.t t/forks.t t/killed.t >out1; rc=$?
	test "$rc" -ne 0 &&
	last_line out1 && test "$last" = "5 passed, 3 failed" &&
	reported out1 t/fast.t "1 passed, 1 skipped" && test "$n" = 6 &&
	reported out1 t/slow.t "1 passed" && test "$n" = 6 &&
	reported out1 t/fails.t "1 passed, 1 failed" && test "$n" = 6 &&
	has_line "    not ok 2 - two" out1 && has_line "    #   why" out1 &&
	reported out1 t/dies.t "0 passed, 1 failed" && test "$n" = 6 &&
	died out1 t/dies.t 3 &&
	# the counter counts the files finished, 1 to 6 in the order printed;
	# slow.t began first, and is reported after those that ended before it
	got= && i=0 && while IFS= read -r l; do
		i=$((i + 1))
		case $l in
		"["*"/6] "*) k=${l#"["} && got="$got${k%%/*} " ;;
		esac
		case $l in
		*"] t/slow.t:"*) slow=$i ;;
		*"] t/fast.t:"*) fast=$i ;;
		esac
	done <out1 &&
	test "$got" = "1 2 3 4 5 6 " && test "$slow" -gt "$fast"
'

# in the git work tree: nothing written there, so no failure more (a
# file that writes there is below)
test_expect 'all passing: exit 0' '
	cd repo &&
	TEST_JOBS=1 sh "$top/scripts/run-tests" t/burn.t t/fast.t >"$T/pass" &&
	lines_are 4 "$T/pass" &&
	reported "$T/pass" t/fast.t "1 passed, 1 skipped" && test "$n" = 2 &&
	total_line "$T/pass" 2 &&
	last_line "$T/pass" && test "$last" = "2 passed, 0 failed" ||
	    { cat "$T/pass"; exit 1; }
'

# the processor time of a file's processes is counted, its waits are not
# (the run above)
test_expect 'each file says its processor time; the total line adds them' '
	reported pass t/burn.t "1 passed" && test "$n" = 2 &&
	test -n "$cpu" && test "$cpu" != 0.0 &&
	reported pass t/fast.t "1 passed, 1 skipped" && test "$n" = 2 &&
	total_line pass 2 || { cat pass t/burn.t; return 1; }
'

# the processes a file started: its own process tree's, exactly, where perf
# counts them (a file that starts 10 shows 10, and the total adds the
# files': the sum of the six lines' of the first run, out1); else those
# the machine started while the files ran, at least 10
test_expect 'each file says how many processes it started; the total adds them' '
	reported out1 t/killed.t "1 passed, 1 failed" && test "$n" = 6 &&
	died out1 t/killed.t 137 &&
	perf_counts= &&
	if perf stat -x, -o perf.out -e sched:sched_process_fork -- true \
	    >/dev/null 2>&1; then
		while IFS= read -r l; do
			case $l in 0,*) perf_counts=1 ;; esac
		done <perf.out
	fi &&
	if [ -n "$perf_counts" ]; then
		reported out1 t/forks.t "1 passed" && test "$procs" = ", 10 processes" &&
		reported out1 t/killed.t "1 passed, 1 failed" && test "$procs" = ", 1 process" &&
		sum=0 && files=0 && while IFS= read -r l; do
			case $l in
			"["*"/6] "*" process)" | "["*"/6] "*" processes)")
				l=${l##*", "} && sum=$((sum + ${l%% *})) &&
				files=$((files + 1)) ;;
			esac
		done <out1 &&
		test "$files" = 6 &&
		total_line out1 6 && test "$started" = "$sum" && test -z "$machine"
	else
		echo "# no perf counting: the machine'\''s count"
		total_line out1 6 && test -n "$machine" && test "$started" -ge 10
	fi || { cat out1; return 1; }
'

test_expect 'without perf the total is the machine'\''s count, saying so' '
	test -r /proc/stat || { echo "# no /proc/stat: not counted"; return 0; }
	RUN_TESTS_PERF=no TEST_JOBS=1 sh "$top/scripts/run-tests" t/forks.t >out &&
	reported out t/forks.t "1 passed" && test -z "$procs" &&
	test "$k/$n" = 1/1 &&
	total_line out 1 && test -n "$machine" && test "$started" -ge 10 ||
	    { cat out; return 1; }
'

# a case runs in the file's shell only when it can change nothing that
# outlives it (tests/lib.sh, case_inline: what it assigns is put back; a
# function it defines stays, which tells where it ran); either way a failure
# is its own. cases.t sources this tree's tests/lib.sh, run as if it were
# a file of tests/cli ($0 says so: lib.sh finds the tree from it)
printf '. "%s/tests/lib.sh"\n' "$top" >"$T/cases.t"
while IFS= read -r l; do printf '%s\n' "$l"; done >>"$T/cases.t" <<-\END
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
test_expect 'a case runs in the file'\''s shell or a subshell; a failure stays its own' '
	! sh -c ". ./cases.t" "$top/tests/cli/cases.t" >out &&
	printf "%s\n" "not ok 1 - inline, fails" "ok 2 - inline: what it assigned is back" \
	    "ok 3 - inline: a capital before a command" \
	    "not ok 4 - inline: return ends the case alone" \
	    "ok 5 - inline: what it assigned before is back" \
	    "not ok 6 - a subshell: exit ends the case alone" \
	    "ok 7 - what a subshell set ends with it" "ok 8 - a subshell: cd" \
	    "not ok 9 - inline: a helper leaves \$T, changes the store" \
	    "ok 10 - inline: use_store" \
	    "ok 11 - back in \$T, the store as it was" "1..11" >want &&
	while IFS= read -r l; do
		case $l in "#"*) ;; *) printf "%s\n" "$l" ;; esac
	done <out >got &&
	same_file want got
'

# in a git work tree, a test that writes there (as tests once wrote a file
# named tty at the root) fails the run, naming what it wrote (a run that
# writes nothing there passes: all passing, above)
test_expect 'a file written in the work tree is a failure, named' '
	cd repo &&
	! TEST_JOBS=1 sh "$top/scripts/run-tests" t/writes.t >"$T/out2" &&
	a= && b= && c= &&
	while IFS= read -r l; do a=$b b=$c c=$l; done <"$T/out2" &&
	printf "%s\n" "$a" "$b" "$c" >got &&
	printf "%s\n" "not ok - the work tree changed while the tests ran (a test wrote outside its temporary directory):" \
	    "    ?? tty" "1 passed, 1 failed" >want && same_file want got ||
	    { cat "$T/out2"; exit 1; }
'

test_done
