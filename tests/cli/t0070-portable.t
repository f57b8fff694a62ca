#!/bin/sh
# The portable build (make PORTABLE=1, README "Where it runs"): the binary
# under test calls none of Linux's own functions when it is the portable
# one, and keeps every fast path when it is not; scripts/configure finds a
# facility by compiling it, not by the system's name
. "$(dirname "$0")/../lib.sh"
file_store_only "the build, no store"

# what macOS or FreeBSD lack, as functions a binary calls
LINUX_ONLY="splice copy_file_range pipe2 getrandom mallopt malloc_trim memfd_create
ppoll sigtimedwait explicit_bzero"

# calls: the functions $top/convctl takes from its libraries, one a line
calls() {
	nm -u "$top/convctl" | awk '{ sub(/@.*/, "", $2); print $2 }' | sort -u
}

if grep -q -- --portable "$top/build/config.flags" 2>/dev/null; then
	test_expect 'the portable binary calls none of the functions macOS or FreeBSD lack' '
		calls >got && for f in $LINUX_ONLY; do
			! grep -qx "$f" got || { echo "calls $f"; exit 1; }
		done
	'
else
	# os.o's own references: a sanitizer's runtime, linked in, defines
	# some of these functions itself (its interceptors)
	test_expect 'the Linux build keeps its fast paths (splice, copy_file_range, O_TMPFILE, ...)' '
		nm -u "$top/lib/base/os.o" | awk "{ print \$2 }" >got &&
		for f in splice copy_file_range pipe2 getrandom ppoll; do
			grep -qx "$f" got || { echo "does not call $f"; exit 1; }
		done &&
		has_line "#define HAVE_O_TMPFILE 1" "$top/build/config.h"
	'
fi

test_expect 'scripts/configure --portable looks for none of them' '
	"$top/scripts/configure" --portable cc >config.h &&
	has_line "#define HAVE_GETENTROPY 1" config.h &&
	for f in PIPE2 SPLICE COPY_FILE_RANGE GETRANDOM MALLOPT PPOLL \
	    SIGTIMEDWAIT EXPLICIT_BZERO O_TMPFILE; do
		grep -qx "#define HAVE_$f 0" config.h || return 1
	done
'

test_expect 'a facility the compiler cannot build is off, the others on' '
	# a compiler that knows no copy_file_range, as an older libc
	real=$(command -v cc) && cat >oldcc <<-EOS &&
	#!/bin/sh
	for a; do case \$a in *.c) grep -q copy_file_range "\$a" && exit 1 ;; esac; done
	exec "$real" "\$@"
	EOS
	chmod +x oldcc && "$top/scripts/configure" "$T/oldcc" >config.h &&
	has_line "#define HAVE_COPY_FILE_RANGE 0" config.h &&
	has_line "#define HAVE_SPLICE 1" config.h &&
	has_line "#define HAVE_PIPE2 1" config.h
'

# the names scripts/configure defines, from the config.h it made for the
# binary under test (every build defines them all, 0 or 1)
test_expect 'only lib/base/os.c reads what scripts/configure found' '
	sed -n "s/^#define \(HAVE_[A-Z0-9_]*\) .*/\1/p" "$top/build/config.h" \
	    >names && test "$(wc -l <names)" -ge 10 &&
	(cd "$top" && grep -lwf "$T/names" lib/*.c lib/*/*.c lib/*.h lib/*/*.h \
	    cmd/*.c cmd/*.h; grep -l "config\.h\"" lib/*.c lib/*/*.c cmd/*.c) |
	    sort -u >got &&
	echo lib/base/os.c >want && test_cmp want got
'

test_done
