#!/bin/sh
# The file store's index (convctl(5), INDEX) makes a read faster, never
# different: between two reads the store is changed by every route a user
# has, and every reader's output, errors and exit status with the index are
# byte for byte those without it (CONVCTL_NO_INDEX=1). A writer killed
# between the store's rename and the index's leaves a correct system.
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the index of a file store"

export CONVCTL_NOW=2027-01-01T00:00:00.000Z CONVCTL_IDLE_TIMEOUT=52560000
s=$CONVCTL_STORE
idx=$HOME/.cache/convctl/index
# the store's own index: named by the SHA-256 of its path (one process,
# read back by the shell)
python3 -c 'import hashlib, os, sys
print(hashlib.sha256(os.path.realpath(sys.argv[1]).encode()).hexdigest())' "$s" >"$T/ix"
read -r ix <"$T/ix"
ix=$idx/$ix

# a store as another program lays it out (not one conversation a line), with
# top-level fields before and after the conversations
cat >"$T/layout.py" <<'EOP'
import json, sys
d = json.load(sys.stdin)
d = {"lastMigrated": "2026-12-01T00:00:00.000Z", **d, "big": "BIG"}
d["conversations"][3]["endedAt"] = d["conversations"][40]["endedAt"]
text = json.dumps(d, ensure_ascii=False, indent=1)
sys.stdout.write(text.replace('"BIG"', "1e400"))
EOP
python3 "$top/tests/helpers/bigstore.py" 150 1 | python3 "$T/layout.py" >"$T/other.json"
cp "$T/other.json" "$s"

# every reader the index serves, and the rest, with what they print; under a
# wrapper (valgrind: a second a run), the two the index serves most
all_readers='prompt
prompt --format openai --last 3
prompt --format jsonl
show
show --format json
show conv-1767236400000
show conv-1767920400000 --format markdown
show conv-none
recent
recent -n 3 --json
recent -n 1000
recent -n 1000 --json
search --json caf
prune --dry-run --max 5'
[ -z "${CONVCTL_WRAPPER:-}" ] || all_readers='prompt
show conv-1767236400000 --format json'
# agree's requests for test-tool run, three passes of every reader: with
# the index twice, then without it (the reference), run in one process;
# agree reads the transcript as three
# reader_requests ENV: a test-tool run request for each reader (its words
# split at blanks), with the environment ENV (JSON); $n_readers, how many
reader_requests() {
	rr_env=$1 n_readers=0
	while IFS= read -r r; do
		n_readers=$((n_readers + 1))
		set -f
		# shellcheck disable=SC2086
		set -- $r
		set +f
		printf '{"argv": ['
		sep=
		for w; do printf '%s"%s"' "$sep" "$w"; sep=", "; done
		printf '], "env": %s}\n' "$rr_env"
	done <<-EOF
	$all_readers
	EOF
}
for rd_env in "{}" "{}" '{"CONVCTL_NO_INDEX": "1"}'; do
	reader_requests "$rd_env"
done >"$T/agree.requests"
# readers DIR [no-index]: every reader run, "== READER", what it printed and
# "== exit N" each, in DIR/transcript; with no-index, each with
# CONVCTL_NO_INDEX=1 and not under $CONVCTL_WRAPPER (the reference, run as
# it is). In the test tool's one process (test-tool run: standard output,
# then standard error) when $CONVCTL_BIN is the tree's convctl, else a
# process each (the two kept apart all the same)
readers() {
	rd_dir=$1 rd_env="{}" rd_wrapper=$CONVCTL_WRAPPER
	[ -z "${2:-}" ] || rd_env='{"CONVCTL_NO_INDEX": "1"}' rd_wrapper=
	[ -d "$rd_dir" ] || mkdir "$rd_dir" || return 1
	if [ -x "$top/tests/tool/test-tool" ] && [ "$CONVCTL_BIN" -ef "$top/convctl" ]; then
		reader_requests "$rd_env" >"$rd_dir/requests"
		$rd_wrapper "$top/tests/tool/test-tool" run "$rd_dir/requests" \
		    "$rd_dir" >/dev/null
		return
	fi
	echo "$all_readers" | (
		[ -z "${2:-}" ] || { export CONVCTL_NO_INDEX=1; CONVCTL_WRAPPER=; }
		while IFS= read -r r; do
			echo "== $r"
			# shellcheck disable=SC2086
			convctl $r 2>"$T/reader.err" </dev/null
			rc=$?
			cat "$T/reader.err"
			echo "== exit $rc"
		done
	) >"$rd_dir/transcript"
}

# the readers agree with the index (twice: the first may rebuild it) and
# without it, byte for byte; under a wrapper, once with it (what valgrind
# looks for is in the reading, and the plain run reads twice), and the
# readers without it, the reference, run as they are: reading a store whole
# is what every other file checks under the wrapper
agree() {
	if [ -z "${CONVCTL_WRAPPER:-}" ] && [ -x "$top/tests/tool/test-tool" ] &&
	    [ "$CONVCTL_BIN" -ef "$top/convctl" ]; then
		[ -d "$T/agree" ] || mkdir "$T/agree" || return 1
		"$top/tests/tool/test-tool" run "$T/agree.requests" "$T/agree" \
		    >/dev/null || return 1
		# the transcript's three passes, each n_readers runs ending in
		# "== exit N", compared line by line in one awk, not two diffs
		# (each line kept as a string: "1" and "1.0" are not equal)
		awk -v n="$n_readers" 'BEGIN { pass = 0 }
			{ line[pass, ++len[pass]] = $0 "" }
			/== exit -?[0-9]+$/ && ++runs % n == 0 { pass++ }
			END {
				if (runs != 3 * n) {
					printf "%d runs in the transcript, want %d\n", runs, 3 * n
					exit 1
				}
				for (p = 0; p < 2; p++) {
					pn = p ? "the second" : "the first"
					for (i = 1; i <= len[2] || i <= len[p]; i++) {
						if (line[2, i] == line[p, i] && i <= len[2] && i <= len[p])
							continue
						printf "%s pass with the index differs from the one without at its line %d:\n", pn, i
						printf "without: %s\nwith:    %s\n", i <= len[2] ? line[2, i] : "(end)", i <= len[p] ? line[p, i] : "(end)"
						exit 1
					}
				}
			}' "$T/agree/transcript"
		return
	fi
	set -- "$T/with1"
	[ -n "${CONVCTL_WRAPPER:-}" ] || set -- "$1" "$T/with2"
	for ag_dir; do readers "$ag_dir" || return 1; done
	readers "$T/without" no-index &&
	for ag_dir; do
		test_cmp "$T/without/transcript" "$ag_dir/transcript" || return 1
	done
}

# trace_reads TRACE ARGS...: convctl ARGS run under strace, what it opens,
# reads and maps traced into TRACE, for bytes_read
trace_reads() {
	tr_file=$1
	shift
	strace -o "$tr_file" -e trace=openat,read,pread64,mmap -e signal=none \
	    "$CONVCTL_BIN" "$@" >/dev/null 2>&1
	true	# (the bytes say whether it ran)
}
# bytes_read TRACE...: the bytes each run read from the store, a line each,
# counted by one awk for them all
bytes_read() {
	# a reader maps the whole store where it can: those bytes count too
	awk -v f="\"$s\"" '
		FNR == 1 && NR > 1 { print n + 0; n = 0; fd = "" }
		/^openat/ && index($0, f) { split($NF, a, " "); fd = $NF }
		/^(read|pread64)\(/ { split($0, a, /[(,]/); if (a[2] == fd) n += $NF }
		/^mmap\(/ { split($0, a, /[(,]/); if (a[6] + 0 == fd + 0) n += a[3] }
		END { print n + 0 }' "$@"
}

# tick_passed [FILE]: waits (20 s at most) until past_tick holds, in one
# process, not a date, a stat and a tr a try: the clock (CLOCK_REALTIME,
# as date reads it) 20 ms past FILE's ctime
tick_passed() {
	python3 -c 'import os, sys, time
ctime = os.stat(sys.argv[1]).st_ctime_ns
limit = time.monotonic() + 20
while time.time_ns() <= ctime + 20000000:
    if time.monotonic() > limit:
        sys.exit("gave up waiting for the clock to pass the ctime of " + sys.argv[1])
    time.sleep(0.005)' "${1:-$s}"
}

# settle [FILE]: once FILE's last change is a tick behind the clock, a
# reader, which writes an index of it that the next reader trusts
settle() {
	settle_file=${1:-$s}
	tick_passed "$settle_file" &&
	{ convctl -s "$settle_file" recent >/dev/null 2>&1 || true; }
}

# files_in DIR N: DIR holds N files not named with a leading dot (as
# `ls DIR | wc -l` counts them), counted by the shell
files_in() {
	fi_n=0
	for fi_f in "$1"/*; do
		[ ! -e "$fi_f" ] || fi_n=$((fi_n + 1))
	done
	[ "$fi_n" = "$2" ] || { echo "$1 holds $fi_n files, want $2"; return 1; }
}

test_expect 'a reader writes the index: 0600, in a 0700 directory, one per store' '
	tick_passed && convctl prompt >/dev/null &&
	files_in "$idx" 1 &&
	stat -c %a "$idx" "$idx"/* >modes && file_is "700
600" modes &&
	convctl -s "$T/two.json" add hi >/dev/null &&
	files_in "$idx" 2
'

# small_part READER N ALL: with the index READER read N bytes of the
# store's $size, a tenth at most, and without it ALL, the whole
small_part() {
	echo "$1: $2 of $size bytes (without: $3)" &&
	test "$2" -gt 0 && test $(($2 * 10)) -lt "$size" && test "$3" -ge "$size"
}

if command -v strace >/dev/null 2>&1; then
	test_expect 'with the index, prompt, show ID and recent read a small part of the store (read or mapped)' '
		settle && stat -c %s "$s" >size && read -r size <size &&
		i=0 &&
		for r in prompt "show conv-1767236400000" "recent -n 2"; do
			i=$((i + 1)) &&
			# shellcheck disable=SC2086
			trace_reads "$T/trace$i" $r &&
			# shellcheck disable=SC2086
			CONVCTL_NO_INDEX=1 trace_reads "$T/trace$i.all" $r || return 1
		done &&
		bytes_read "$T/trace1" "$T/trace1.all" "$T/trace2" "$T/trace2.all" \
		    "$T/trace3" "$T/trace3.all" >bytes &&
		{ read -r n1 && read -r all1 && read -r n2 && read -r all2 &&
		    read -r n3 && read -r all3; } <bytes &&
		small_part prompt "$n1" "$all1" &&
		small_part "show conv-1767236400000" "$n2" "$all2" &&
		small_part "recent -n 2" "$n3" "$all3"
	'
else
	test_n=$((test_n + 1))
	echo "ok $test_n # SKIP the bytes a reader reads: no strace"
fi

test_expect 'the readers agree on a store another program laid out' 'settle && agree'

# edit NAME COMMANDS: once a reader has written an index the next one
# trusts, the store is changed by COMMANDS; then every reader agrees with
# and without the index. At full counts (TEST_FULL=1) the readers agree
# before the change too (make check relies on the change before it, whose
# readers read the same store)
agree_before=$(counts "" "agree &&")
edit() {
	test_expect "$1: every reader agrees with and without the index" '
		settle && '"$agree_before $2"' && agree
	'
}

# inplace FILE OLD NEW: a same-size edit in place, as an editor that writes
# the file back does
inplace() {
	python3 -c 'import sys
p, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
with open(p, "r+b") as f:
    b = f.read()
    assert len(old) == len(new) and old in b
    f.seek(b.index(old)); f.write(new)
' "$@"
}

edit 'a same-size edit in place (a message)' \
    'inplace "$s" "message 0 of conversation 150" "MESSAGE 0 of conversation 150"'
edit 'a same-size edit in place (an end time)' \
    'inplace "$s" "2026-01-01T05:00:10.000Z" "2026-03-01T05:00:10.000Z"'
edit 'an edit in place, its mtime put back (touch -d)' \
    'stat -c %y "$s" >mtime && read -r old <mtime &&
    inplace "$s" "2026-01-01T09:00:00.000Z" "2026-01-01T09:00:00.001Z" &&
    touch -d "$old" "$s" && stat -c %y "$s" >mtime && file_is "$old" mtime'
edit 'cp over it (same inode, other bytes)' 'cp "$T/other.json" "$s"'
edit 'a second convctl writer' 'convctl add "from another writer" >/dev/null'
edit 'a writer that keeps no index' \
    'CONVCTL_NO_INDEX=1 convctl add --role assistant "unindexed" >/dev/null'
edit 'an end and a prune by convctl' \
    'convctl end >/dev/null && convctl prune --max 100 >/dev/null'
edit 'a different file renamed into place' \
    'cp "$T/other.json" "$T/new.json" && inplace "$T/new.json" "t7\"" "T7\"" && mv "$T/new.json" "$s"'
edit 'truncated to half (invalid: the same error both ways)' \
    'stat -c %s "$s" >size && read -r size <size && truncate -s $((size / 2)) "$s"'
edit 'truncated to nothing' 'truncate -s 0 "$s"'
edit 'a store written anew' 'cp "$T/other.json" "$s" && convctl add "again" >/dev/null'
edit 'a store dated in the future (its changes cannot be told from the index)' \
    'touch -d "+1 hour" "$s"'
edit 'a corrupt index (a byte changed)' \
    'test -f "$ix" && printf "\377" >byte &&
    dd if=byte of="$ix" bs=1 seek=300 conv=notrunc 2>/dev/null'
edit 'a truncated index' 'test -f "$ix" && truncate -s 100 "$ix"'
edit 'an index of another store in its place' \
    'convctl -s "$T/two.json" recent >/dev/null &&
    stat -c "%s %n" "$idx"/* >sizes && small= &&
    while read -r size f; do
	[ -n "$small" ] && [ "$size" -ge "$small_size" ] || small=$f small_size=$size
    done <sizes &&
    cp "$small" "$T/i.small" && for f in "$idx"/*; do cp "$T/i.small" "$f"; done'
edit "an index that is not the reader's (another owner)" \
    'chown 65534 "$idx"/* && inplace "$s" "t9\"" "T9\""'

# same_but_ids WANT GOT: the stores are byte for byte the same but for
# message ids' random digits ("m-..." each read as M), else a diff shows
# them; one process (not two seds and a diff)
same_but_ids() {
	python3 -c 'import difflib, re, sys
want, got = (re.sub(rb"\"m-[0-9]*-[0-9a-f]*\"", b"M", open(f, "rb").read())
    .decode("utf-8", "surrogateescape").splitlines(True) for f in sys.argv[1:])
sys.stdout.writelines(difflib.unified_diff(want, got, sys.argv[1], sys.argv[2]))
sys.exit(want != got)' "$@"
}

test_expect 'writes through the index give the store byte for byte as without' '
	cp "$T/other.json" "$T/a.json" && cp "$T/other.json" "$T/b.json" &&
	settle "$T/a.json" &&
	for w in "add one" "add --role assistant two" "end" "add three" \
	    "title conv-1767236400000 new-title" "prune --max 20"; do
		# shellcheck disable=SC2086
		convctl -s "$T/a.json" $w >/dev/null &&
		# shellcheck disable=SC2086
		CONVCTL_NO_INDEX=1 "$CONVCTL_BIN" -s "$T/b.json" $w >/dev/null || return 1
	done &&
	# message ids end in random digits
	same_but_ids "$T/b.json" "$T/a.json"
'

test_expect 'no place for an index (the cache cannot be made): still correct' '
	rm -rf "$HOME/.cache" && : >"$HOME/.cache" && agree &&
	convctl add "no cache" >/dev/null && agree && rm "$HOME/.cache"
'

# dot_files DIR: dots, how many names in DIR start with a dot (but . and
# ..), as ls -A | grep "^\." finds them, counted by the shell
dot_files() {
	dots=0
	for df in "$1"/.[!.]* "$1"/..?*; do
		[ ! -e "$df" ] && [ ! -L "$df" ] || dots=$((dots + 1))
	done
}

# killed between the store's rename and the index's: a preloaded rename()
# that kills the process when it would put an index in place
if command -v "${CC:-cc}" >/dev/null 2>&1 && cat >"$T/killix.c" <<'EOC' &&
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
int rename(const char *from, const char *to)
{
	if (strstr(to, "/convctl/index/") != NULL)
		kill(getpid(), SIGKILL);
	return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 0);
}
EOC
    "${CC:-cc}" -shared -fPIC -D_GNU_SOURCE -include fcntl.h -o "$T/killix.so" "$T/killix.c" 2>/dev/null; then
	test_expect 'SIGKILL between the store rename and the index write: the store is new, every reader right' '
		cp "$T/other.json" "$s" && settle &&
		for w in "add killed-after-rename" "end" "add --role assistant again"; do
			# shellcheck disable=SC2086
			LD_PRELOAD=$T/killix.so "$CONVCTL_BIN" $w >/dev/null 2>&1
			test $? = 137 || { echo "$w: not killed"; return 1; }
		done &&
		convctl show --format json >shown &&
		jq_is shown -r ".messages[-1].content" again &&
		agree && settle && agree
	'
	test_expect 'a reader killed writing the index: the next is right, the temporary goes' '
		cp "$T/other.json" "$s" && tick_passed &&
		LD_PRELOAD=$T/killix.so "$CONVCTL_BIN" recent >/dev/null 2>&1
		test $? = 137 && dot_files "$idx" && test "$dots" -gt 0 && agree &&
		touch -d "-2 minutes" "$idx"/.* 2>/dev/null; cp "$T/other.json" "$s" &&
		tick_passed && convctl recent >/dev/null &&
		dot_files "$idx" && test "$dots" = 0
	'
else
	test_n=$((test_n + 2))
	echo "ok $((test_n - 1)) # SKIP killed before the index write: no C compiler"
	echo "ok $test_n # SKIP a reader killed writing the index: no C compiler"
fi

test_done
