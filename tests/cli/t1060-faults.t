#!/bin/sh
# I/O faults during a write: each is a clear error, exit 1, the store byte
# for byte unchanged and no temporary file left.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "I/O faults of file writes"

export CONVCTL_NOW=2026-06-01T00:00:00Z
python3 "$top/tests/helpers/bigstore.py" 60 1 >"$T/before.json"

# no_temp DIR: no temporary file of store.json is left in DIR (as
# ls -A DIR | grep "^\.store\.json\." finds none; the shell's glob, no
# process); one left is named
no_temp() {
	nt_left=
	for nt_f in "$1"/.store.json.*; do
		[ ! -e "$nt_f" ] && [ ! -L "$nt_f" ] || nt_left="$nt_left ${nt_f##*/}"
	done
	[ -z "$nt_left" ] || { echo "left in $1:$nt_left"; return 1; }
}
# as_before FILE: FILE, copied from before.json, is byte for byte it still
# (unchanged, without snapshot's cat: before.json is the snapshot)
as_before() {
	cmp "$T/before.json" "$1"
}
# size_of FILE: size, FILE's size in bytes (one stat, no $(...))
size_of() {
	stat -c %s "$1" >"$T/.size" && read -r size <"$T/.size"
}


# a source migrate imports, readable by the unprivileged user below
cp "$top/tests/fixtures/migrate/messages.json" "$T/source.json"
chmod 644 "$T/source.json"

# every writer; a new one is one more word here. end makes its summary too
# (offline), and summarize titles every ended conversation of before.json
WRITERS='add end prune migrate summarize'
# writer NAME: runs the writer NAME with arguments that change the store
writer() {
	case $1 in
	add) convctl add "a message" ;;
	end) convctl end --summarizer offline ;;
	prune) convctl prune --max 5 ;;
	migrate) convctl migrate "$T/source.json" ;;
	summarize) convctl summarize --pending --summarizer offline ;;
	esac
}

test_expect 'file size limit hit mid-write (EFBIG): clear error, nothing changed' '
	cp "$T/before.json" "$CONVCTL_STORE" &&
	for w in $WRITERS; do
		# a limit of one 512-byte block: every rewrite is larger
		(ulimit -f 1 &&
		    fails_with 1 writer $w) || { echo "$w: status"; return 1; }
		stderr_has "File too large" && stderr_has "convctl: $w: " &&
		as_before "$CONVCTL_STORE" && no_temp "$T" || { echo "in $w"; return 1; }
	done
'

# a large write goes out as it is made, a megabyte at a time
# (lib/store/file-save.c): a limit past the first megabyte fails a later
# part of it, with the store's index and without, and leaves the same
python3 "$top/bench/gen-chatgpt.py" 3 5 "$T/export.json"
test_expect 'a 3 MB import failing past its first megabyte written (EFBIG): clear error, nothing changed' '
	for how in index no-index; do
		cp "$T/before.json" "$CONVCTL_STORE" &&
		if [ $how = index ]; then convctl recent >/dev/null; fi &&
		(ulimit -f 3000 &&
		    fails_with 1 convctl migrate "$T/export.json") || { echo "$how: status"; return 1; }
		stderr_has "convctl: migrate: cannot write " &&
		stderr_has "File too large" &&
		as_before "$CONVCTL_STORE" && no_temp "$T" || { echo "$how"; return 1; }
	done &&
	convctl migrate "$T/export.json" >/dev/null &&
	size_of "$CONVCTL_STORE" && test "$size" -gt 3000000
'

# end writes the end with its offline summary, in one write: a limit that
# the end alone fits and the end with the summary does not leaves the
# conversation ended, exactly as end --no-summary leaves it, with status 3
# and the way to finish
test_expect 'end: the write with the summary fails (EFBIG): status 3, ended, summary pending' '
	n=1 && limit= &&
	while [ $n -le 40 ] && [ -z "$limit" ]; do
		python3 "$top/tests/helpers/bigstore.py" $n 1 >"$T/end0.json" &&
		cp "$T/end0.json" "$CONVCTL_STORE" &&
		convctl end --no-summary >/dev/null && cp "$CONVCTL_STORE" "$T/ended.json" &&
		cp "$T/end0.json" "$CONVCTL_STORE" &&
		convctl end --summarizer offline >/dev/null &&
		size_of "$T/ended.json" && a=$(( (size + 511) / 512 )) &&
		size_of "$CONVCTL_STORE" && b=$(( (size + 511) / 512 )) &&
		{ [ $b -le $a ] || limit=$a; } && n=$((n + 1)) || return 1
	done &&
	test -n "$limit" &&
	cp "$T/end0.json" "$CONVCTL_STORE" &&
	(ulimit -f $limit && fails_with 3 convctl end --summarizer offline) &&
	stderr_has "File too large" &&
	stderr_has "its summary is pending (convctl summarize --pending)" &&
	test_cmp "$T/ended.json" "$CONVCTL_STORE" && no_temp "$T"
'

# a directory is not a store file: a usage error (2), found before the lock
test_expect 'store replaced by a directory: clear error for writers and readers' '
	rm -f "$CONVCTL_STORE" "$CONVCTL_STORE.lock" && mkdir "$CONVCTL_STORE" &&
	: >"$CONVCTL_STORE/keep" &&
	for w in $WRITERS; do
		fails_with 2 writer $w && stderr_has "is a directory, not a store file" &&
		test -e "$CONVCTL_STORE/keep" && no_temp "$T" &&
		test ! -e "$CONVCTL_STORE.lock" || { echo "in $w"; return 1; }
	done &&
	fails_with 2 convctl show && stderr_has "is a directory" &&
	fails_with 2 convctl recent && stderr_has "is a directory" &&
	fails_with 2 convctl prompt && stderr_has "is a directory" &&
	rm -r "$CONVCTL_STORE"
'

# permissions do not bite root: those cases run as nobody when the tests
# run as root and setpriv is there, and nobody can reach convctl (a checkout
# under a 0700 directory is closed to it), else they are skipped saying why
as=
why="running as root without setpriv or user nobody"
# who runs the tests, and nobody's uid and gid: an id each, read once
id -u >"$T/.id" && read -r my_uid <"$T/.id"
if [ "$my_uid" -eq 0 ] && id nobody >"$T/.id" 2>/dev/null; then
	read -r nobody_ids <"$T/.id"	# uid=65534(nobody) gid=65534(nogroup) ...
	nobody_uid=${nobody_ids#uid=} nobody_uid=${nobody_uid%%[!0-9]*}
	nobody_gid=${nobody_ids#* gid=} nobody_gid=${nobody_gid%%[!0-9]*}
else
	nobody_ids=
fi
if [ "$my_uid" -ne 0 ]; then
	as=
elif command -v setpriv >/dev/null 2>&1 && [ -n "$nobody_ids" ]; then
	as="setpriv --reuid=$nobody_uid --regid=$nobody_gid --clear-groups --"
	if ! $as test -x "$CONVCTL_BIN"; then
		as=skip
		why="the user nobody cannot run $CONVCTL_BIN (a directory above it is closed)"
	fi
else
	as=skip
fi
U=$T/u
mkdir "$U" && chmod 755 "$T" "$U"
[ -n "$as" ] && [ "$as" != skip ] && chown "$nobody_uid:$nobody_gid" "$U"
# the user's command, as the unprivileged user when root runs the tests
asuser() {
	$as env CONVCTL_STORE="$U/store.json" $CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"
}
uwriter() {
	case $1 in
	add) asuser add "a message" ;;
	end) asuser end --summarizer offline ;;
	prune) asuser prune --max 5 ;;
	migrate) asuser migrate "$T/source.json" ;;
	summarize) asuser summarize --pending --summarizer offline ;;
	esac
}
# test_as_user 'name' 'commands': test_expect, or a skip that says why
test_as_user() {
	if [ "$as" = skip ]; then
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: $why"
	else
		test_expect "$1" "$2"
	fi
}
ufresh() {
	cp "$T/before.json" "$U/store.json" && : >"$U/store.json.lock" &&
	chmod 600 "$U/store.json" "$U/store.json.lock" &&
	{ [ -z "$as" ] || chown "$nobody_uid:$nobody_gid" "$U/store.json" "$U/store.json.lock"; }
}

test_as_user 'read-only directory: writers fail clearly, readers still read' '
	ufresh && chmod 555 "$U" &&
	for w in $WRITERS; do
		fails_with 1 uwriter $w && stderr_has "cannot create a temporary file" &&
		stderr_has "Permission denied" && as_before "$U/store.json" &&
		no_temp "$U" || { chmod 755 "$U"; echo "in $w"; return 1; }
	done
	chmod 755 "$U" && asuser recent >/dev/null && asuser prompt >/dev/null
'

test_as_user 'end on a read-only directory: the one true line, exit 1, nothing changed' '
	ufresh && chmod 555 "$U" &&
	for how in "" "--summarizer offline" "--no-summary"; do
		fails_with 1 asuser end $how &&
		lines_are 1 "$T/err" &&
		stderr_has "convctl: end: cannot create a temporary file in '\''$U'\'': Permission denied" &&
		! stderr_has "summary" && test ! -s "$T/stdout" &&
		as_before "$U/store.json" && no_temp "$U" ||
		{ chmod 755 "$U"; echo "end $how:"; cat "$T/err"; return 1; }
	done
	chmod 755 "$U"
'

test_as_user 'no permission on the store: clear error, nothing changed' '
	ufresh && chmod 000 "$U/store.json" &&
	for w in $WRITERS; do
		fails_with 1 uwriter $w && stderr_has "cannot open store" &&
		stderr_has "Permission denied" && as_before "$U/store.json" &&
		no_temp "$U" || { echo "in $w"; return 1; }
	done &&
	fails_with 1 asuser show && stderr_has "Permission denied" &&
	chmod 600 "$U/store.json"
'

test_as_user 'no permission on the lock file: clear error, nothing changed' '
	ufresh && chmod 000 "$U/store.json.lock" &&
	fails_with 1 uwriter add && stderr_has "cannot open lock" &&
	as_before "$U/store.json" && no_temp "$U"
'

# the directory's fsync after the rename failing: the store is replaced
# already, so it is a warning and exit 0. No filesystem fails that on
# demand; a preloaded fsync() does, for directories only
if command -v "${CC:-cc}" >/dev/null 2>&1 && cat >"$T/dirsync.c" <<'EOC' &&
#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
int fsync(int fd)
{
	struct stat sb;

	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}
EOC
    "${CC:-cc}" -shared -fPIC -o "$T/dirsync.so" "$T/dirsync.c" 2>/dev/null; then
	test_expect 'the directory flush failing after the rename: a warning, exit 0, written' '
		mkdir "$T/flush" && export CONVCTL_STORE=$T/flush/store.json &&
		cp "$T/before.json" "$CONVCTL_STORE" &&
		for w in $WRITERS; do
			LD_PRELOAD=$T/dirsync.so writer $w >/dev/null 2>"$T/err" ||
			    { echo "$w: status $?"; cat "$T/err"; return 1; }
			stderr_has "convctl: $w: warning: store '\''$CONVCTL_STORE'\'' is written, but its directory '\''$T/flush'\'' was not flushed to disk" &&
			stderr_has "Input/output error" && no_temp "$T/flush" ||
			    { echo "in $w"; return 1; }
		done &&
		jq -e "[.conversations[].messages[].content] | index(\"a message\")" \
		    "$CONVCTL_STORE" >/dev/null
	'
else
	test_n=$((test_n + 1))
	echo "ok $test_n # SKIP directory flush failing: no C compiler to build the preloaded fsync"
fi

# a small filesystem: tmpfs, mountable only with CAP_SYS_ADMIN
small=$T/small
mkdir "$small"
if [ "$my_uid" -eq 0 ] && mount -t tmpfs -o size=256k tmpfs "$small" 2>/dev/null; then
	trap 'umount "$small" 2>/dev/null; rm -rf "$T"' EXIT
	test_expect 'disk full mid-write (ENOSPC): clear error, nothing changed' '
		export CONVCTL_STORE="$small/store.json" &&
		python3 "$top/tests/helpers/bigstore.py" 20 1 >"$CONVCTL_STORE" &&
		: >"$CONVCTL_STORE.lock" &&
		# fill what is left but a little, less than a rewrite needs
		{ dd if=/dev/zero of="$small/fill" bs=4k 2>/dev/null; true; } &&
		rm -f "$small/fill" &&
		# the KB free (Available, as df -k says): blocks free times their size
		stat -f -c "%a %S" "$small" >"$T/.free" && read -r free bsize <"$T/.free" &&
		dd if=/dev/zero of="$small/fill" bs=1k \
		    count=$(( free * bsize / 1024 - 8 )) 2>/dev/null &&
		snapshot "$CONVCTL_STORE" &&
		for w in $WRITERS; do
			fails_with 1 writer $w && stderr_has "No space left on device" &&
			unchanged "$CONVCTL_STORE" && no_temp "$small" || { echo "in $w"; return 1; }
		done
	'
else
	test_n=$((test_n + 1))
	echo "ok $test_n # SKIP disk full: cannot mount a small tmpfs here (needs root with CAP_SYS_ADMIN)"
fi

test_done
