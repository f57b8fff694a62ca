#!/bin/sh
# The portable build (make PORTABLE=1, README "Where it runs"): the binary
# under test calls none of Linux's own functions when it is the portable
# one, and keeps every fast path when it is not; scripts/configure finds a
# facility by compiling it, not by the system's name
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the build, no store"

# what macOS or FreeBSD lack, as functions a binary calls
LINUX_ONLY="splice copy_file_range pipe2 getrandom mallopt malloc_trim memfd_create
ppoll sigtimedwait explicit_bzero"

# undefined FILE: the functions FILE takes from its libraries, by nm -u,
# in $undefined (" NAME NAME ... ", a version "@..." taken off each), read
# by the shell
undefined() {
	nm -u "$1" >"$T/.nm" || return 1
	undefined=" "
	while read -r u name; do
		undefined="$undefined${name%%@*} "
	done <"$T/.nm"
}

if grep -q -- --portable "$top/build/config.flags" 2>/dev/null; then
	test_expect 'the portable binary calls none of the functions macOS or FreeBSD lack' '
		undefined "$top/convctl" && for f in $LINUX_ONLY; do
			case $undefined in *" $f "*) echo "calls $f"; return 1 ;; esac
		done
	'
else
	# os.o's own references: a sanitizer's runtime, linked in, defines
	# some of these functions itself (its interceptors)
	test_expect 'the Linux build keeps its fast paths (splice, copy_file_range, O_TMPFILE, ...)' '
		undefined "$top/lib/base/os.o" &&
		for f in splice copy_file_range pipe2 getrandom ppoll; do
			case $undefined in
			*" $f "*) ;;
			*) echo "does not call $f"; return 1 ;;
			esac
		done &&
		has_line "#define HAVE_O_TMPFILE 1" "$top/build/config.h"
	'
fi

test_expect 'scripts/configure --portable looks for none of them' '
	"$top/scripts/configure" --portable cc >config.h &&
	has_line "#define HAVE_GETENTROPY 1" config.h &&
	for f in PIPE2 SPLICE COPY_FILE_RANGE GETRANDOM MALLOPT PPOLL \
	    SIGTIMEDWAIT EXPLICIT_BZERO O_TMPFILE; do
		has_line "#define HAVE_$f 0" config.h || return 1
	done
'

# a compiler that knows no copy_file_range, as an older libc: a source
# that names it fails (the shell reads it: no grep a probe), the others go
# to the real cc
command -v cc >"$T/cc.path" && read -r real_cc <"$T/cc.path"
printf '%s\n' '#!/bin/sh' 'for a; do' '	case $a in *.c)' \
    '		while IFS= read -r l; do case $l in *copy_file_range*) exit 1 ;; esac; done <"$a" ;;' \
    '	esac' 'done' "exec \"$real_cc\" \"\$@\"" >"$T/oldcc"
chmod +x "$T/oldcc"

test_expect 'a facility the compiler cannot build is off, the others on' '
	"$top/scripts/configure" "$T/oldcc" >config.h &&
	has_line "#define HAVE_COPY_FILE_RANGE 0" config.h &&
	has_line "#define HAVE_SPLICE 1" config.h &&
	has_line "#define HAVE_PIPE2 1" config.h
'

# the names scripts/configure defines, from the config.h it made for the
# binary under test (every build defines them all, 0 or 1); the files that
# name one, or include config.h, found by grep, told by the shell
test_expect 'only lib/base/os.c reads what scripts/configure found' '
	n=0 && while IFS= read -r l; do
		case $l in
		"#define HAVE_"*" "*) l=${l#"#define "} && echo "${l%% *}" &&
			n=$((n + 1)) ;;
		esac
	done <"$top/build/config.h" >names &&
	{ test "$n" -ge 10 || { echo "config.h names $n, want 10 or more"; return 1; }; } &&
	t=$top && { grep -lwf names "$t"/lib/*.c "$t"/lib/*/*.c "$t"/lib/*.h \
	    "$t"/lib/*/*.h "$t"/cmd/*.c "$t"/cmd/*.h >got || :; } &&
	{ grep -l "config\.h\"" "$t"/lib/*.c "$t"/lib/*/*.c "$t"/cmd/*.c >>got || :; } &&
	os= && while IFS= read -r f; do
		case ${f#"$t"/} in
		lib/base/os.c) os=1 ;;
		*) echo "${f#"$t"/} reads it"; return 1 ;;
		esac
	done <got &&
	test -n "$os" || { echo "lib/base/os.c reads none of it"; return 1; }
'

test_done
