#!/bin/sh
# What a store path may name, and what convctl touches beside it: a store is a
# regular file or nothing yet; the temporaries it sweeps are its own; a
# rewrite keeps the owner and mode; a symlink someone planted in /tmp is not
# followed; a store truncated under a reader (one that reads it, or one
# that maps it) is an error, never a signal;
# every input is read up to a limit, and never while the lock is held.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "what a file store's path may name"

export CONVCTL_NOW=2026-06-01T00:00:00Z
S=$CONVCTL_STORE

# root only: as root through setpriv, the user nobody runs what "asnobody"
# runs, when it can reach convctl (a checkout under a 0700 directory is
# closed to it); elsewhere these tests say why they are skipped
root=
why="needs root, setpriv and the user nobody"
# who runs the tests, and nobody's uid and gid: an id each, read once by
# the shell (id nobody: "uid=65534(nobody) gid=65534(nogroup) ...")
id -u >"$T/.id" && read -r my_uid <"$T/.id"
nobody_uid= nobody_gid=
if [ "$my_uid" -eq 0 ] && id nobody >"$T/.id" 2>/dev/null; then
	read -r nobody_uid <"$T/.id"
	nobody_gid=${nobody_uid#* gid=} nobody_gid=${nobody_gid%%[!0-9]*}
	nobody_uid=${nobody_uid#uid=} nobody_uid=${nobody_uid%%[!0-9]*}
fi
if [ "$my_uid" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
    [ -n "$nobody_uid" ]; then
	root=yes
	NOBODY="$nobody_uid:$nobody_gid"
	if ! setpriv --reuid="$nobody_uid" --regid="$nobody_gid" \
	    --clear-groups -- test -x "$CONVCTL_BIN"; then
		root=
		why="the user nobody cannot run $CONVCTL_BIN (a directory above it is closed)"
	fi
fi
asnobody() {
	setpriv --reuid="$nobody_uid" --regid="$nobody_gid" \
	    --clear-groups -- env $CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"
}
test_as_root() {
	if [ -z "$root" ]; then
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: $why"
	else
		test_expect "$1" "$2"
	fi
}
chmod 755 "$T"

# none_like DIR PREFIX: no name in DIR starts with PREFIX (a dot file's:
# as ls -A DIR | grep "^PREFIX" finds none), by the shell's glob; one that
# does is named
none_like() {
	nl_left=
	for nl_f in "$1"/$2*; do	# (PREFIX a pattern: .[!.] too)
		[ ! -e "$nl_f" ] && [ ! -L "$nl_f" ] || nl_left="$nl_left ${nl_f##*/}"
	done
	[ -z "$nl_left" ] || { echo "in $1:$nl_left"; return 1; }
}
# empty_dir DIR: DIR holds nothing (as test -z "$(ls -A DIR)")
empty_dir() {
	none_like "$1" "" && none_like "$1" .[!.] && none_like "$1" ..?
}
# stat_is FORMAT FILE WANT: stat -c FORMAT FILE prints WANT
stat_is() {
	stat -c "$1" "$2" >"$T/.stat" && file_is "$3" "$T/.stat"
}
# line_starts TEXT FILE: a line of FILE starts with TEXT (grep -q "^TEXT")
line_starts() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in "$1"*) return 0 ;; esac
	done <"$2"
	return 1
}

# --- not a regular file: refused before a lock or a temporary is made

test_expect 'a FIFO as the store: exit 2 at once, for writers and readers' '
	mkfifo "$T/fifo" &&
	for c in "add hi" "end" "prune --max 1" "show" "recent" "prompt"; do
		fails_with 2 timeout 10 $CONVCTL_WRAPPER "$CONVCTL_BIN" -s "$T/fifo" $c &&
		stderr_has "'\''$T/fifo'\'' is a FIFO, not a store file" &&
		test -p "$T/fifo" && test ! -e "$T/fifo.lock" || { echo "in $c"; return 1; }
	done &&
	none_like "$T" .fifo.
'

test_expect 'a socket as the store: exit 2, named' '
	python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
	    "$T/sock" &&
	fails_with 2 convctl -s "$T/sock" add hi &&
	stderr_has "is a socket, not a store file" && test -S "$T/sock" &&
	test ! -e "$T/sock.lock" &&
	fails_with 2 convctl -s "$T/sock" show && stderr_has "is a socket"
'

test_expect '/dev/null as the store: readers refuse it, exit 2' '
	for c in show recent prompt; do
		fails_with 2 convctl -s /dev/null $c &&
		stderr_has "'\''/dev/null'\'' is a character device, not a store file" ||
		{ echo "in $c"; return 1; }
	done
'

test_as_root 'a device as the store: writers refuse it, no lock, the device kept' '
	mknod "$T/null" c 1 3 && chmod 666 "$T/null" &&
	for c in "add hi" "end" "prune --max 1" "migrate $top/tests/fixtures/migrate/messages.json"; do
		fails_with 2 convctl -s "$T/null" $c &&
		stderr_has "'\''$T/null'\'' is a character device, not a store file" &&
		test -c "$T/null" && test ! -e "$T/null.lock" || { echo "in $c"; return 1; }
	done &&
	none_like "$T" .null. &&
	had= && { [ ! -e /dev/null.lock ] || had=yes; } &&
	fails_with 2 convctl -s /dev/null add hi && test -c /dev/null &&
	{ [ -n "$had" ] || test ! -e /dev/null.lock; }
'

test_expect '-s - and -s /dev/stdin: refused, exit 2, standard input untouched' '
	fails_with 2 convctl -s - add hi </dev/null &&
	stderr_has "'\''-'\'' is standard input here (a file named '\''-'\'' is ./-), not a store file" &&
	echo "{}" | fails_with 2 convctl -s /dev/stdin show &&
	stderr_has "'\''/dev/stdin'\'' is an open file descriptor, not a store file" &&
	echo "{}" | fails_with 2 convctl -s /dev/stdin add hi &&
	test ! -e ./-
'

# --- the temporary files swept are convctl's own

test_expect 'a file of the user named like a temporary survives a write' '
	convctl add first >/dev/null &&
	echo mine >"$T/.store.json.abcdef" && echo mine >"$T/.store.json.ABC123" &&
	ln -s "$T/victim" "$T/.store.json.convctl-tmp.LnK123" &&
	mkdir "$T/.store.json.convctl-tmp.Dir123" &&
	echo torn >"$T/.store.json.convctl-tmp.Old123" &&
	echo mine >"$T/.store.json.convctl-tmp.toolong" &&
	convctl add second >/dev/null &&
	file_is mine "$T/.store.json.abcdef" &&
	file_is mine "$T/.store.json.ABC123" &&
	test -L "$T/.store.json.convctl-tmp.LnK123" &&
	test -d "$T/.store.json.convctl-tmp.Dir123" &&
	test -e "$T/.store.json.convctl-tmp.toolong" &&
	test ! -e "$T/.store.json.convctl-tmp.Old123" &&
	rm -r "$T"/.store.json.*
'

test_as_root 'a temporary of another user is left alone' '
	echo theirs >"$T/.store.json.convctl-tmp.Thr123" &&
	chown "$NOBODY" "$T/.store.json.convctl-tmp.Thr123" &&
	convctl add third >/dev/null &&
	file_is theirs "$T/.store.json.convctl-tmp.Thr123" &&
	rm "$T/.store.json.convctl-tmp.Thr123"
'

# --- owner and mode kept; a store the caller may not write is refused

test_as_root 'root rewriting a user'\''s store keeps its owner, group and mode' '
	mkdir "$T/own" && chown "$NOBODY" "$T/own" &&
	cp "$S" "$T/own/store.json" && chmod 640 "$T/own/store.json" &&
	chown "$NOBODY" "$T/own/store.json" &&
	convctl -s "$T/own/store.json" add "from cron" >/dev/null &&
	stat_is %u:%g:%a "$T/own/store.json" "$NOBODY:640" &&
	asnobody -s "$T/own/store.json" add "the user again" >/dev/null &&
	jq -e ".conversations[0].messages[-1].content == \"the user again\"" \
	    "$T/own/store.json" >/dev/null
'

test_as_root 'a 0444 store is refused, not replaced: the permission named' '
	chmod 444 "$T/own/store.json" && keep_store "$T/own/store.json" &&
	fails_with 1 asnobody -s "$T/own/store.json" add "not written" &&
	stderr_has "cannot write store '\''$T/own/store.json'\'' (mode 0444, owner uid $nobody_uid): Permission denied" &&
	store_kept "$T/own/store.json" &&
	stat_is %a "$T/own/store.json" 444 &&
	none_like "$T/own" .store
'

# a store its mode lets everyone write, but an ACL entry keeps nobody from
test_as_root_acl() {
	if [ -n "$root" ] && ! command -v setfacl >/dev/null 2>&1; then
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: needs setfacl (Debian's acl)"
	else
		test_as_root "$1" "$2"
	fi
}
test_as_root_acl 'a store read-only by ACL is refused, not replaced: the permission named' '
	cp "$S" "$T/own/acl.json" && chmod 666 "$T/own/acl.json" &&
	: >"$T/own/acl.json.lock" && chmod 666 "$T/own/acl.json.lock" &&
	setfacl -m "u:$nobody_uid:r" "$T/own/acl.json" &&
	keep_store "$T/own/acl.json" &&
	fails_with 1 asnobody -s "$T/own/acl.json" add "not written" &&
	stderr_has "cannot write store '\''$T/own/acl.json'\'' (mode 0666, owner uid 0): Permission denied" &&
	store_kept "$T/own/acl.json" &&
	none_like "$T/own" .acl
'

test_as_root 'a writable store of another user: its owner cannot be kept, refused' '
	cp "$S" "$T/own/theirs.json" && chmod 666 "$T/own/theirs.json" &&
	keep_store "$T/own/theirs.json" &&
	fails_with 1 asnobody -s "$T/own/theirs.json" add "not written" &&
	stderr_has "cannot keep the owner of store" &&
	stderr_has "Operation not permitted" &&
	store_kept "$T/own/theirs.json" && stat_is %u "$T/own/theirs.json" 0
'

# --- symlinks in a sticky world-writable directory

test_as_root 'a symlink of another user in a sticky /tmp-like directory is not followed' '
	mkdir "$T/tmp" && chmod 1777 "$T/tmp" &&
	cp "$S" "$T/victim.json" && keep_store "$T/victim.json" &&
	ln -s "$T/victim.json" "$T/tmp/store.json" && chown -h "$NOBODY" "$T/tmp/store.json" &&
	fails_with 1 convctl -s "$T/tmp/store.json" add planted &&
	stderr_has "symlink '\''$T/tmp/store.json'\'' is owned by uid $nobody_uid in the sticky world-writable directory" &&
	store_kept "$T/victim.json" && test ! -e "$T/victim.json.lock" &&
	fails_with 1 convctl -s "$T/tmp/store.json" show &&
	chown -h 0:0 "$T/tmp/store.json" &&
	convctl -s "$T/tmp/store.json" add mine >/dev/null &&
	test -L "$T/tmp/store.json" &&
	jq -e ".conversations[0].messages[-1].content == \"mine\"" "$T/victim.json" >/dev/null
'

test_as_root 'nor is one on the way to it; no directory is made through it' '
	mkdir "$T/elsewhere" &&
	ln -s "$T/elsewhere" "$T/tmp/dir" && chown -h "$NOBODY" "$T/tmp/dir" &&
	fails_with 1 convctl -s "$T/tmp/dir/new/store.json" add planted &&
	stderr_has "symlink '\''$T/tmp/dir'\'' is owned by uid" &&
	empty_dir "$T/elsewhere"
'

test_as_root 'the directory owner'\''s link is followed, as the kernel does' '
	mkdir "$T/theirtmp" && chmod 1777 "$T/theirtmp" && chown "$NOBODY" "$T/theirtmp" &&
	ln -s "$T/victim.json" "$T/theirtmp/store.json" &&
	chown -h "$NOBODY" "$T/theirtmp/store.json" &&
	convctl -s "$T/theirtmp/store.json" show >/dev/null
'

# --- a store truncated in place under a reader

# truncating FILE REOPEN: in the background, python writes FILE's bytes over
# it and truncates it to a third, again and again (REOPEN 1: opening it anew
# for each write and truncating it by its name), until $T/stop exists (ten
# minutes at most), and leaves it whole; its pid in $truncater
truncating() {
	rm -f "$T/stop"
	python3 -c '
import os, sys, time
path, reopen, stop = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
data = open(path, "rb").read()
fd = os.open(path, os.O_WRONLY)
end = time.monotonic() + 600
while not os.path.exists(stop) and time.monotonic() < end:
    if reopen:
        os.close(fd)
        fd = os.open(path, os.O_WRONLY)
    os.pwrite(fd, data, 0)
    time.sleep(0.002)
    os.truncate(path, len(data) // 3)
    time.sleep(0.002)
os.pwrite(fd, data, 0)
' "$1" "$2" "$T/stop" &
	truncater=$!
}

# readers run this many times against the truncating file: 12, 30 at full
# counts (TEST_FULL=1), 10 under a wrapper (valgrind), whose runs are slower
reads=$(counts 12 30)
[ -z "$CONVCTL_WRAPPER" ] || reads=10

# --- a store truncated in place under a reader

# big_store FILE: FILE is a valid store of 6000 ended conversations (16 MB:
# a read takes long enough for the truncater to meet it), a copy of the one
# tests/helpers/bigstore.py writes once for both cases below (writing it
# takes python seconds on a busy machine); the last conversation's id in
# $last (read from the bytes: bigstore.py writes no other "conv-" string)
big_store() {
	if [ ! -s "$T/big.orig" ]; then
		python3 "$top/tests/helpers/bigstore.py" 6000 0 >"$T/big.orig" &&
		grep -o '"conv-[0-9]*"' "$T/big.orig" >"$T/big.ids" || return 1
		big_last=
		while IFS= read -r l; do big_last=$l; done <"$T/big.ids"
		big_last=${big_last#\"} big_last=${big_last%\"}
	fi
	cp "$T/big.orig" "$1" &&
	last=$big_last &&
	[ -n "$last" ]
}

# show reads the last conversation of a store rewritten in place and
# truncated under it: every run ends with its output or an error, never
# killed by SIGBUS (128 + 7)
test_expect 'a store truncated under a reader: an error, never SIGBUS' '
	big_store "$T/big.json" || return 1
	truncating "$T/big.json" 0 &&
	runs=0 && bad= &&
	while [ $runs -lt $reads ]; do
		convctl -s "$T/big.json" show "$last" >/dev/null 2>"$T/err"
		rc=$? && runs=$((runs + 1))
		case $rc in
		0) ;;
		1) line_starts "convctl: show: " "$T/err" || bad="$bad $rc:$(cat "$T/err")" ;;
		*) bad="$bad $rc" ;;
		esac
	done &&
	: >"$T/stop" && wait $truncater &&
	{ [ -z "$bad" ] || { echo "statuses:$bad"; return 1; }; }
'

# the same with search, which maps the store, and a writer that opens the
# file anew for each write and truncates it by its name: the mapping is
# made only under a read lease, so each open to write and each truncate
# waits for the reader; every search ends with its output or an error
test_expect 'a store truncated under a search that maps it: never SIGBUS' '
	big_store "$T/big2.json" || return 1
	truncating "$T/big2.json" 1 &&
	runs=0 && found=0 && bad= &&
	while [ $runs -lt $reads ]; do
		CONVCTL_NO_INDEX=1 convctl -s "$T/big2.json" search -n 1 conversation \
		    >"$T/out" 2>"$T/err"
		rc=$? && runs=$((runs + 1))
		case $rc in
		0) [ -s "$T/out" ] && found=$((found + 1)) ;;
		1) line_starts "convctl: search: " "$T/err" || bad="$bad $rc:$(cat "$T/err")" ;;
		*) bad="$bad $rc" ;;
		esac
	done &&
	: >"$T/stop" && wait $truncater && echo "# $runs runs, $found found" >&3 &&
	{ [ -z "$bad" ] || { echo "statuses:$bad"; return 1; }; }
' 3>&1

# --- bounded reads

test_expect 'a message past max_message_bytes is refused, naming the setting' '
	cp "$S" "$T/keep.json" && keep_store "$S" &&
	x10=xxxxxxxxxx && x100=$x10$x10$x10$x10$x10$x10$x10$x10$x10$x10 &&
	x1001=$x100$x100$x100$x100$x100$x100$x100$x100$x100${x100}x &&
	printf %s "$x1001" >"$T/1001" &&
	y10=yyyyyyyyyy && y100=$y10$y10$y10$y10$y10$y10$y10$y10$y10$y10 &&
	y1000=$y100$y100$y100$y100$y100$y100$y100$y100$y100$y100 &&
	printf %s "$y1000" >"$T/1000" &&
	CONVCTL_MAX_MESSAGE_BYTES=1000 fails_with 1 convctl add <"$T/1001" &&
	stderr_has "'\''standard input'\'' is larger than the limit of 1000 bytes (the max_message_bytes setting)" &&
	store_kept "$S" &&
	CONVCTL_MAX_MESSAGE_BYTES=1000 fails_with 1 convctl add "$x1001" &&
	stderr_has "TEXT is larger than the limit of 1000 bytes (the max_message_bytes setting)" &&
	store_kept "$S" &&
	cat "$T/1001" | CONVCTL_MAX_MESSAGE_BYTES=1000 fails_with 1 convctl add &&
	store_kept "$S" &&
	CONVCTL_MAX_MESSAGE_BYTES=1000 convctl add <"$T/1000" >/dev/null &&
	convctl show --format json >shown &&
	jq_is shown -c ".messages[-1].content | length" 1000 &&
	mkdir -p "$XDG_CONFIG_HOME/convctl" &&
	echo "max_message_bytes = 10" >"$XDG_CONFIG_HOME/convctl/config" &&
	fails_with 1 convctl add "eleven byte" && stderr_has "max_message_bytes" &&
	CONVCTL_MAX_MESSAGE_BYTES=0 fails_with 1 convctl add x &&
	stderr_has "CONVCTL_MAX_MESSAGE_BYTES expects a whole number from 1 to 9223372036854775807, not '\''0'\''" &&
	rm "$XDG_CONFIG_HOME/convctl/config"
'

test_expect 'a store past max_input_bytes is refused by readers and writers' '
	keep_store "$S" && stat -c %s "$S" >size && read -r size <size &&
	for c in "add hi" "end" "show" "recent" "prompt"; do
		CONVCTL_MAX_INPUT_BYTES=1000 fails_with 1 convctl $c &&
		stderr_has "store '\''$S'\'' is $size bytes, larger than the limit of 1000 bytes (the max_input_bytes setting)" &&
		store_kept "$S" || { echo "in $c"; return 1; }
	done &&
	CONVCTL_MAX_INPUT_BYTES=$size convctl show >/dev/null
'

test_expect 'a migrate source past max_input_bytes: refused, the store unchanged' '
	keep_store "$S" && src=$top/tests/fixtures/migrate/data.json &&
	CONVCTL_MAX_INPUT_BYTES=1000 fails_with 1 convctl migrate "$src" &&
	stderr_has "larger than the limit of 1000 bytes (the max_input_bytes setting)" &&
	store_kept "$S" &&
	CONVCTL_MAX_INPUT_BYTES=1000 fails_with 1 timeout 20 \
	    $CONVCTL_WRAPPER "$CONVCTL_BIN" migrate /dev/zero &&
	stderr_has "'\''/dev/zero'\'' is larger than the limit of 1000 bytes" &&
	store_kept "$S" &&
	head -c 2000 "$src" | CONVCTL_MAX_INPUT_BYTES=1000 fails_with 1 \
	    convctl migrate /dev/stdin && stderr_has "max_input_bytes" && store_kept "$S"
'

# reading PID: PID is blocked reading a pipe or FIFO (the kernel's wait
# channel says so: pipe_read, anon_pipe_read, pipe_wait, fifo_open...)
reading() {
	rd_wchan=
	{ read -r rd_wchan </proc/"$1"/wchan; } 2>/dev/null	# (no newline)
	case $rd_wchan in
	*pipe_read* | pipe_wait* | *fifo*) return 0 ;;
	esac
	return 1
}
# convctl, its process the one $! names (not a subshell's)
convctl_exec() { exec $CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"; }

# a pipe held open, its writer waiting for $T/go, until convctl is seen
# blocked reading it: the lock is free meanwhile
test_expect 'add reads standard input before it takes the lock' '
	{ wait_until "test -e go" >/dev/null; echo late; } |
	    (convctl_exec add) >"$T/late.out" 2>&1 &
	pid=$! && wait_until "reading $pid" &&
	CONVCTL_WAIT=0 convctl add "while the pipe is open" >/dev/null &&
	: >go && wait $pid && rm go && convctl show --format json >shown &&
	jq_is shown -c "[.messages[-2:][].content]" "[\"while the pipe is open\",\"late\"]"
'

test_expect 'migrate reads a pipe before it takes the lock' '
	mkfifo "$T/src.fifo" || return 1
	{ wait_until "test -e go" >/dev/null
	  cat "$top/tests/fixtures/migrate/messages.json"; } >"$T/src.fifo" &
	feeder=$! &&
	(convctl_exec migrate "$T/src.fifo") >"$T/mig.out" 2>&1 &
	pid=$! && wait_until "reading $pid" &&
	CONVCTL_WAIT=0 convctl add "while migrate waits" >/dev/null && : >go &&
	{ wait $pid || { cat "$T/mig.out"; return 1; }; } && wait $feeder &&
	jq -e ".imports | length == 1" "$S" >/dev/null
'

test_done
