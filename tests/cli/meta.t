#!/bin/sh
# every command in the table: -h, help CMD, and a man page whose SYNOPSIS is
# the usage line
# check: plain-only (the help texts and man pages: no lib/ line that another file does not run)
. "$(dirname "$0")/../lib.sh"
file_store_only "the commands, their help and pages, no store"

man=$top/man

# the commands convctl --help lists
convctl --help | sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' >"$T/commands"

# standard input on one line, spaces squeezed and trimmed
one_line() {
	tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
	echo
}

# the SYNOPSIS of page $1 as mandoc renders it, on one line
synopsis() {
	mandoc -Tascii -O width=1000 "$1" | sed 's/.\x08//g' |
	    sed -n '/^SYNOPSIS$/,/^[A-Z]/{/^[A-Z]/d;p;}' | one_line
}

test_expect 'the command list is not empty and has the known commands' '
	for c in add end show recent prompt migrate prune summarize search \
	    delete title resume edit fork tag pin mcp config; do
		grep -qx "$c" commands || { echo "no $c"; exit 1; }
	done
'

# What the per-command cases below read, made once for all the commands (a
# process costs milliseconds on a busy machine: asking each command again
# in each case, and running mandoc and man once per page and case, was most
# of this file's time). Each case still checks its own command; where a
# batch cannot answer for one page (it complained, or its output did not
# split by page, or it differs), the case runs its check on that page
# alone, as it always did, which then says what is wrong:
#   meta/C.h, C.hrc, C.help, C.helprc, C.helperr   convctl C -h and
#       convctl help C: output and exit status (help's stderr too)
#   $lint_clean   one mandoc -Tlint -W warning over every page said nothing
#   meta/syn-got.C   the SYNOPSIS of convctl-C(1) (what synopsis prints),
#       from one mandoc -Tascii over every page, split at each page's
#       header line; meta/syn-want.C, the usage line of C -h, one_line'd
#   meta/opt-want.C, opt-got.C   the options convctl-C(1) describes and
#       those C -h lists, found by the case's own expressions over all the
#       pages, all the -h; $opts_ok when both found some
#   $man_clean, meta/man.C   one man -l over every page exited 0 and said
#       nothing on stderr; what it rendered, split at each header line
mkdir "$T/meta"
paged=
for c in $(cat "$T/commands"); do
	convctl "$c" -h >"$T/meta/$c.h"
	echo $? >"$T/meta/$c.hrc"
	convctl help "$c" >"$T/meta/$c.help" 2>"$T/meta/$c.helperr"
	echo $? >"$T/meta/$c.helprc"
	: >"$T/meta/opt-want.$c"
	: >"$T/meta/opt-got.$c"
	[ ! -f "$man/convctl-$c.1" ] || paged="$paged $c"
done
pages=$(for c in $paged; do echo "$man/convctl-$c.1"; done)

lint_clean=
# shellcheck disable=SC2086
mandoc -Tlint -W warning $pages >"$T/meta/lint" 2>&1 &&
    [ ! -s "$T/meta/lint" ] && lint_clean=1

# split.awk: standard input, the pages of the commands $names (in that
# order) rendered one after the other, into DIR/PREFIX.C, each page from
# its header line "CONVCTL-C(1) ... CONVCTL-C(1)" on; a header naming
# another page than the next one ends the split (the cases of the pages
# left then render theirs alone)
cat >"$T/split.awk" <<'EOF'
BEGIN { n = split(names, name, " "); k = 0; out = "" }
$1 ~ /^[A-Z][A-Z-]*\([0-9]\)$/ && $1 == $NF && NF > 1 {
	if (out != "")
		close(out)
	out = ""
	if (++k > n || $1 != toupper("convctl-" name[k]) "(1)")
		exit
	out = dir "/" prefix "." name[k]
}
out != "" { print > out }
EOF
# synopsis.awk: what synopsis does after mandoc and sed (sed's range
# /^SYNOPSIS$/,/^[A-Z]/ less its lines starting [A-Z], then one_line), on
# each file DIR/ascii.C, into DIR/syn-got.C
cat >"$T/synopsis.awk" <<'EOF'
function done() {
	if (out == "")
		return
	gsub(/ +/, " ", acc); sub(/^ /, "", acc); sub(/ $/, "", acc)
	print acc > out
	close(out)
}
FNR == 1 {
	done(); out = FILENAME; sub(/.*\/ascii\./, dir "/syn-got.", out)
	inr = 0; acc = ""
}
inr { if ($0 ~ /^[A-Z]/) inr = 0; else acc = acc $0 " "; next }
/^SYNOPSIS$/ { inr = 1 }
END { done() }
EOF
# shellcheck disable=SC2086
mandoc -Tascii -O width=1000 $pages | sed 's/.\x08//g' |
    awk -v names="$paged" -v dir="$T/meta" -v prefix=ascii -f "$T/split.awk"
set --
for c in $paged; do
	[ ! -f "$T/meta/ascii.$c" ] || set -- "$@" "$T/meta/ascii.$c"
done
[ $# -eq 0 ] || awk -v dir="$T/meta" -f "$T/synopsis.awk" "$@"
# the first line of C -h less "usage: ", one_line'd
set --
for c in $paged; do set -- "$@" "$T/meta/$c.h"; done
[ $# -eq 0 ] || awk -v dir="$T/meta" 'FNR == 1 {
	out = FILENAME; sub(/.*\//, "", out); sub(/\.h$/, "", out)
	out = dir "/syn-want." out
	line = $0; sub(/^usage: /, "", line)
	gsub(/ +/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
	print line > out; close(out)
}' "$@"

# the options: "C:OPTION" lines, found by the case's own expressions (each
# match of "Fl ..." in a .It Fl line; each of "  -x, --long" at the start
# of a line of C -h's options: section), sorted (C holds no ":", so each
# command's lines keep sort -u's order), then written to each command's file
opts_ok=
# shellcheck disable=SC2086
{ [ $# -gt 0 ] &&
awk 'FNR == 1 { c = FILENAME; sub(/.*\/convctl-/, "", c); sub(/\.1$/, "", c) }
/^\.It Fl/ { s = $0
	while (match(s, /Fl -?[a-zA-Z][a-z-]*/)) {
		print c ":-" substr(s, RSTART + 3, RLENGTH - 3)
		s = substr(s, RSTART + RLENGTH)
	} }' $pages | sort -u >"$T/meta/opt-want" &&
awk 'FNR == 1 { inr = 0; c = FILENAME; sub(/.*\//, "", c); sub(/\.h$/, "", c) }
inr { print c ":" $0; if ($0 == "") inr = 0; next }
/^options:$/ { inr = 1; print c ":" $0 }' "$@" |
    grep -oE "^[a-z-]*: {2,6}(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*" | tr -d " " |
    awk -F: '{ n = split($2, o, ","); for (i = 1; i <= n; i++) print $1 ":" o[i] }' |
    sort -u >"$T/meta/opt-got" &&
[ -s "$T/meta/opt-want" ] && [ -s "$T/meta/opt-got" ] &&
awk -F: -v dir="$T/meta" '{ f = FILENAME; sub(/.*\//, "", f)
	print $2 > (dir "/" f "." $1) }' "$T/meta/opt-want" "$T/meta/opt-got"; } &&
    opts_ok=1
set --

man_clean=
# shellcheck disable=SC2086
MANPAGER=cat MANWIDTH=80 man -l $pages >"$T/meta/man" 2>"$T/meta/man.err" &&
    [ ! -s "$T/meta/man.err" ] && man_clean=1 &&
    awk -v names="$paged" -v dir="$T/meta" -v prefix=man -f "$T/split.awk" \
    "$T/meta/man"

# sections.awk: "no SECTION" for the first section a page lacks (a line
# ".Sh SECTION"), and exit 1
cat >"$T/sections.awk" <<'EOF'
BEGIN {
	n = split("NAME,SYNOPSIS,DESCRIPTION,OPTIONS,EXIT STATUS,EXAMPLES,SEE ALSO", s, ",")
	for (i = 1; i <= n; i++)
		want[".Sh " s[i]] = 1
}
$0 in want { have[$0] = 1 }
END {
	for (i = 1; i <= n; i++)
		if (!((".Sh " s[i]) in have)) {
			print "no " s[i]
			exit 1
		}
}
EOF

for c in $(cat "$T/commands"); do
	test_expect "$c -h exits 0 and starts with its usage line" '
		read -r rc <"meta/'"$c"'.hrc" &&
		{ test "$rc" -eq 0 || { echo "exit status $rc"; exit 1; }; } &&
		{ IFS= read -r first <"meta/'"$c"'.h" || test -n "$first"; } &&
		case $first in
		"usage: convctl '"$c"'"*) ;;
		*) echo "first line: $first"; exit 1 ;;
		esac
	'
	test_expect "help $c is $c -h" '
		read -r rc <"meta/'"$c"'.hrc" && read -r hrc <"meta/'"$c"'.helprc" &&
		{ test "$rc" -eq 0 && test "$hrc" -eq 0 || {
			echo "exit status $rc, help: $hrc"
			cat "meta/'"$c"'.helperr"; exit 1; }; } &&
		test_cmp "meta/'"$c"'.h" "meta/'"$c"'.help"
	'
	test_expect "$c has a man page that mandoc -Tlint passes" '
		test -f "$man/convctl-'"$c"'.1" && { test -n "$lint_clean" || {
		mandoc -Tlint -W warning "$man/convctl-'"$c"'.1" >lint 2>&1 &&
		test ! -s lint; }; } || { cat lint; exit 1; }
	'
	test_expect "the SYNOPSIS of convctl-$c(1) is its usage line" '
		{ test -s "meta/syn-want.'"$c"'" &&
		  cmp -s "meta/syn-want.'"$c"'" "meta/syn-got.'"$c"'"; } || {
		convctl '"$c"' -h | head -n 1 | sed "s/^usage: //" |
		    one_line >want &&
		synopsis "$man/convctl-'"$c"'.1" >got &&
		test_cmp want got; }
	'
	test_expect "convctl-$c(1) describes exactly the options $c -h lists" '
		if test -n "$opts_ok"; then
			test_cmp "meta/opt-want.'"$c"'" "meta/opt-got.'"$c"'"
		else
			grep "^\.It Fl" "$man/convctl-'"$c"'.1" |
			    grep -oE "Fl -?[a-zA-Z][a-z-]*" | sed "s/^Fl /-/" |
			    sort -u >want &&
			convctl '"$c"' -h | sed -n "/^options:\$/,/^\$/p" |
			    grep -oE "^ {2,6}(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*" |
			    tr -d " " | tr "," "\n" | sort -u >got &&
			test_cmp want got
		fi
	'
	test_expect "man -l renders convctl-$c(1) without a complaint" '
		test -n "$man_clean" && test -f "meta/man.'"$c"'" &&
		grep -q "^SYNOPSIS" "meta/man.'"$c"'" &&
		grep -q "^EXIT STATUS" "meta/man.'"$c"'" || {
		MANPAGER=cat MANWIDTH=80 man -l "$man/convctl-'"$c"'.1" >page 2>err &&
		test ! -s err || { cat err; exit 1; }
		grep -q "^SYNOPSIS" page && grep -q "^EXIT STATUS" page; }
	'
	test_expect "convctl-$c(1) has the sections a page needs" '
		awk -f "$T/sections.awk" "$man/convctl-'"$c"'.1"
	'
done

test_expect 'no page for a command that is not in the table' '
	for f in "$man"/convctl-*.1; do
		c=${f##*/convctl-}; c=${c%.1}
		grep -qx "$c" commands || { echo "stray page $f"; exit 1; }
	done
'

test_expect 'help for an unknown command is a usage error' '
	fails_with 2 convctl help frobnicate && stderr_has "unknown command"
'

test_expect 'a diagnostic quoting an argument is still one printable line' '
	fails_with 2 convctl "$(printf "fro\nb\033[31m")" &&
	test "$(cat "$T/err")" = "convctl: unknown command '\''fro\\nb\\x1b[31m'\''; see '\''convctl --help'\''" &&
	fails_with 2 convctl help "$(printf "x\ty")" &&
	test "$(wc -l <"$T/err")" -eq 1 && stderr_has "help: unknown command" &&
	fails_with 1 convctl show "$(printf "a\nb")" && test "$(wc -l <"$T/err")" -eq 1
'

test_expect 'bytes that are not UTF-8, and C1 controls, are quoted as \\xHH' '
	fails_with 1 convctl show "$(printf "a\377\303b\302\233\342\202\254")" &&
	want=$(printf "no conversation '\''a\\\\xff\\\\xc3b\\\\xc2\\\\x9b\342\202\254'\''") &&
	stderr_has "$want" && iconv -f UTF-8 -t UTF-8 "$T/err" >/dev/null
'

# opens.awk: each file whose first two lines, joined, are not
# "/* NAME.c - ...", and then "N files" (an empty file is not one)
cat >"$T/opens.awk" <<'EOF'
function check(  name) {
	n++
	name = file; sub(/.*\//, "", name); gsub(/\./, "\\.", name)
	if (head !~ ("^/\\*( +\\*)? +" name " - [^ ]"))
		print file " does not open with /* NAME - what it is for"
}
FNR == 1 { if (file != "") check(); file = FILENAME; head = $0 }
FNR == 2 { head = head " " $0 }
END { if (file != "") check(); print n " files" }
EOF
test_expect 'every C file opens by saying what it is for: /* NAME.c - ...' '
	find "$top/lib" "$top/cmd" "$top/tests/unit" "$top/fuzz" -name "*.[ch]" >files &&
	test "$(wc -l <files)" -ge 70 &&
	awk -f "$T/opens.awk" $(cat files) >out &&
	! grep "does not open" out &&
	test "$(cat out)" = "$(wc -l <files | tr -d " ") files"
'

test_expect 'make demo runs to the end on its own scratch store' '
	"$top/scripts/demo" "$CONVCTL_BIN" >demo.out 2>demo.err &&
	test ! -s demo.err && test ! -e "$CONVCTL_STORE" &&
	grep -q "^conv-[0-9]*	2026-02-04T17:28:02.000Z	4	Add milk to my grocery list$" demo.out &&
	grep -q "^Assistant: Added eggs. \[used: edit_file\]$" demo.out
'
test_done
