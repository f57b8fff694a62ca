#!/bin/sh
# make install / uninstall into a DESTDIR: the command, its pages and
# completions, and nothing of lib/ (convctl's own, not an installed API)
# check: plain-only (make install's files)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "make install, no store"

dest=$T/dest
prefix=/opt/convctl-test
root=$dest$prefix
# what make install must put there, from the tree itself (in any order:
# same_set compares)
{
	echo bin/convctl
	echo share/bash-completion/completions/convctl
	echo share/fish/vendor_completions.d/convctl.fish
	echo share/zsh/site-functions/_convctl
	for f in "$top"/man/*.1; do echo "share/man/man1/${f##*/}"; done
	for f in "$top"/man/*.5; do [ ! -e "$f" ] || echo "share/man/man5/${f##*/}"; done
} >"$T/expected"

# under DIR FILE: the lines of FILE (find's), "DIR/" taken off each
under() {
	while IFS= read -r l; do echo "${l#"$1"/}"; done <"$2"
}

test_expect 'make install puts the binary, pages and completions there, no library' '
	make -s -C "$top" install PREFIX=$prefix DESTDIR="$dest" >log 2>&1 ||
	    { cat log; return 1; }
	find "$root" -type f >found && under "$root" found >got &&
	same_set expected got &&
	test -x "$root/bin/convctl" &&
	test ! -e "$root/include" && test ! -e "$root/lib"
'

test_expect 'the installed binary runs' '
	"$root/bin/convctl" --version >version &&
	while IFS= read -r l; do
		case $l in "convctl "[0-9]*) return 0 ;; esac
	done <version
	echo "no line convctl VERSION:" && cat version && return 1
'

test_expect 'make uninstall removes what it installed, and nothing else' '
	mkdir -p "$root/bin" "$root/lib" &&
	echo keep >"$root/bin/other-tool" && echo keep >"$root/lib/libother.a" &&
	make -s -C "$top" uninstall PREFIX=$prefix DESTDIR="$dest" >log 2>&1 ||
	    { cat log; return 1; }
	find "$dest" -type f -o -type l >found && under "$dest" found >left &&
	printf "%s\n" opt/convctl-test/bin/other-tool opt/convctl-test/lib/libother.a >want &&
	same_set want left
'
test_done
