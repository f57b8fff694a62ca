#!/bin/sh
# The Debian package: `make deb` builds convctl_VERSION_ARCH.deb outside the
# tree; it holds the command, its pages, the completions where each shell
# looks and the README, depends on what the binary links, lintian finds
# nothing to say, and the files it installs work
# check: all-only (it builds the whole program again under dpkg-buildpackage, and runs lintian: a minute)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the Debian package, no store"

version=$(sed -n 's/^VERSION = //p' "$top/Makefile")
arch=$(dpkg --print-architecture)
deb=$T/out/convctl_${version}_$arch.deb
root=$T/root
mkdir -p "$T/out"

test_expect 'one version: the Makefile, debian/changelog and convctl --version' '
	test -n "$version" &&
	dpkg-parsechangelog -l "$top/debian/changelog" -S Version >got &&
	echo "$version" >want && test_cmp want got &&
	convctl --version >got && echo "convctl $version" >want && test_cmp want got
'

# what dpkg-buildpackage leaves where it builds, which must not be the tree
leftovers() {
	for f in "$top"/convctl_*.deb "$top"/debian/files "$top"/debian/*.substvars \
	    "$top"/debian/*.debhelper.log "$top"/debian/debhelper-build-stamp \
	    "$top"/debian/convctl "$top"/debian/.debhelper; do
		[ -e "$f" ] && echo "$f"
	done
	find "$top/.." -maxdepth 1 -name "convctl_${version}_*" -newer "$T/stamp"
}

# with a compiler and flags that cannot build (as make check-asan passes
# clang's): they must not reach the package's build, which is debian/rules'
# (nor the tree's build stamp: a make of the tree after it would build the
# tree's convctl again, under the test files running it at the time)
test_expect 'make deb builds the package in a copy, leaving the tree alone' '
	touch "$T/stamp" &&
	cp "$top/build/config.flags" "$T/flags" &&
	make -s -C "$top" deb DEB_BUILD="$T/build" DEB_OUT="$T/out" \
	    CC=false CFLAGS=--no-such-flag LDFLAGS=--no-such-flag >log 2>&1 ||
	    { tail -n 40 log; return 1; }
	test -f "$deb" &&
	leftovers >left && test_cmp /dev/null left &&
	test_cmp "$T/flags" "$top/build/config.flags"
'

test_expect 'make clean removes every file the package build left in its copy' '
	copy=$T/build/convctl-$version &&
	test -d "$copy/debian/convctl" &&
	make -s -C "$copy" clean >log 2>&1 || { cat log; return 1; }
	(cd "$copy" && find . -newer "$T/stamp" ! -type d) >left &&
	test_cmp /dev/null left &&
	test ! -e "$copy/debian/convctl" && test ! -e "$copy/debian/.debhelper"
'

test_expect 'the package holds the command, each page compressed, completions, README' '
	dpkg-deb -c "$deb" | awk "{ print \$6 }" | sed "s|^\./|/|; /\/$/d" |
	    sort >contents &&
	{
		echo /usr/bin/convctl
		for f in "$top"/man/*.1; do echo "/usr/share/man/man1/${f##*/}.gz"; done
		for f in "$top"/man/*.5; do echo "/usr/share/man/man5/${f##*/}.gz"; done
		echo /usr/share/bash-completion/completions/convctl
		echo /usr/share/zsh/vendor-completions/_convctl
		echo /usr/share/fish/vendor_completions.d/convctl.fish
		echo /usr/share/doc/convctl/README.md.gz
		echo /usr/share/doc/convctl/changelog.gz
		echo /usr/share/doc/convctl/copyright
	} | sort >want &&
	test_cmp want contents
'

test_expect 'each completion is in a directory its shell searches' '
	dir=$(pkg-config --variable=completionsdir bash-completion) &&
	grep -qx "$dir/convctl" contents &&
	dir=$(pkg-config --variable=completionsdir fish) &&
	grep -qx "$dir/convctl.fish" contents &&
	zsh -fc "print -l \$fpath" >fpath &&
	has_line /usr/share/zsh/vendor-completions fpath
'

test_expect 'Depends: the libraries convctl links; libcurl recommended, libpq suggested' '
	dpkg-deb -f "$deb" Depends >depends &&
	holds "libjansson4" depends && holds "libc6" depends &&
	holds "libsqlite3-0" depends &&
	! grep -q "curl\|libpq" depends &&
	test "$(dpkg-deb -f "$deb" Recommends)" = libcurl4 &&
	test "$(dpkg-deb -f "$deb" Suggests)" = "libpq5, postgresql-client"
'

test_expect 'lintian: no error, no warning' '
	lintian --fail-on error,warning "$deb" >lint 2>&1 || { cat lint; return 1; }
	! grep "^[EW]: " lint
'

# owner PATH: the package that holds library PATH, which dpkg may know
# under /usr or not (merged /usr: /lib is /usr/lib)
owner() {
	for p in "$1" "/usr$1" "${1#/usr}"; do
		dpkg -S "$p" 2>/dev/null | sed -n "1s/[:,].*//p" | grep . && return
	done
}

test_expect 'dpkg -x into a root: its convctl runs and links only what Depends names' '
	dpkg -x "$deb" "$root" &&
	"$root/usr/bin/convctl" --version >got &&
	echo "convctl $version" >want && test_cmp want got &&
	objdump -p "$root/usr/bin/convctl" | awk "/NEEDED/ { print \$2 }" >needed &&
	grep -qx "libjansson.so.4" needed && grep -qx "libsqlite3.so.0" needed &&
	! grep "curl\|libpq" needed &&
	ldd "$root/usr/bin/convctl" >ldd && ! grep "not found" ldd &&
	awk "\$3 ~ /^\// { print \$3 }" ldd >paths &&
	test "$(wc -l <paths)" -ge "$(wc -l <needed)" &&
	for lib in $(cat paths); do
		pkg=$(owner "$lib") && test -n "$pkg" &&
		grep -q "\\<$pkg\\>" depends || { echo "$lib ($pkg) not in Depends"; return 1; }
	done
'

# the hardening debian/rules asks of dpkg-buildflags, which the Makefile
# must pass on (CFLAGS, CPPFLAGS, LDFLAGS)
test_expect 'the binary is hardened: PIE, relro, bind now, stack protector, fortify' '
	readelf -hdlW "$root/usr/bin/convctl" >elf &&
	grep -q "Type: *DYN" elf && grep -q "FLAGS_1.*PIE" elf &&
	holds "GNU_RELRO" elf && holds "BIND_NOW" elf &&
	readelf -W --dyn-syms "$root/usr/bin/convctl" >syms &&
	holds "__stack_chk_fail" syms && holds "__snprintf_chk" syms
'

test_expect 'man -l renders the installed pages without a complaint' '
	for page in man1/convctl.1.gz man1/convctl-add.1.gz man5/convctl.5.gz; do
		MANPAGER=cat MANWIDTH=80 man -l "$root/usr/share/man/$page" >page 2>err &&
		test ! -s err && grep -q "^NAME" page && grep -q "^SEE ALSO" page ||
		    { echo "$page:"; cat err; return 1; }
	done
'

CONVCTL_BIN=$root/usr/bin/convctl
test_expect 'a session with the installed convctl: add, prompt, end, recent' '
	id=$(convctl add "Add milk to my grocery list") &&
	echo "Added milk." | convctl add -r assistant >next &&
	echo "$id" | test_cmp - next &&
	convctl prompt >prompt &&
	grep -q "^User: Add milk to my grocery list" prompt &&
	grep -q "^Assistant: Added milk\.$" prompt &&
	convctl end >ended && echo "$id" | test_cmp - ended &&
	convctl prompt >prompt && test_cmp /dev/null prompt &&
	convctl recent >recent &&
	grep -q "^$id	.*	2	" recent &&
	test "$(jq -r ".conversations[0].endedAt | type" "$CONVCTL_STORE")" = string
'

test_done
