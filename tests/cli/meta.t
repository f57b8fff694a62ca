#!/bin/sh
# every command in the table: -h, help CMD, and a man page whose SYNOPSIS is
# the usage line
# check: plain-only (the help texts and man pages: no lib/ line that another file does not run)
. "$(dirname "$0")/../lib.sh"
file_store_only "the commands, their help and pages, no store"

man=$top/man

# the commands convctl --help lists
convctl --help | sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' >"$T/commands"

# usage C: the usage line of convctl C -h (read from meta/C.h), less
# "usage: ", its spaces squeezed
usage() {
	awk 'NR == 1 { sub(/^usage: /, ""); gsub(/ +/, " "); sub(/^ /, "")
		sub(/ $/, ""); print; exit }' "$T/meta/$1.h"
}

# synopsis PAGE: the SYNOPSIS of PAGE as mandoc renders it (its lines up to
# the next heading, overstrikes dropped), on one line, spaces squeezed
synopsis() {
	mandoc -Tascii -O width=1000 "$1" | awk '{ gsub(/.\010/, "") }
	    on && /^[A-Z]/ { exit }
	    on { s = s " " $0 }
	    /^SYNOPSIS$/ { on = 1 }
	    END { gsub(/ +/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); print s }'
}

# page_options PAGE, help_options C: the options PAGE describes (each "Fl
# -x" of its .It Fl lines) and those C -h lists (each "  -x, --long" at
# the start of a line of its options: section), one a line, sorted
page_options() {
	awk '/^\.It Fl/ { s = $0
		while (match(s, /Fl -?[a-zA-Z][a-z-]*/)) {
			print "-" substr(s, RSTART + 3, RLENGTH - 3)
			s = substr(s, RSTART + RLENGTH)
		} }' "$1" | sort -u
}
help_options() {
	awk '/^options:$/ { on = 1; next }
	    on && /^$/ { exit }
	    on && match($0, /^  ( ? ? ? ?)(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*/) {
		o = substr($0, RSTART, RLENGTH); gsub(/ /, "", o)
		n = split(o, a, ","); for (i = 1; i <= n; i++) print a[i] }' \
	    "$T/meta/$1.h" | sort -u
}

test_expect 'the command list is not empty and has the known commands' '
	for c in add end show recent prompt migrate prune summarize search \
	    delete title resume edit fork tag pin mcp config; do
		grep -qx "$c" commands || { echo "no $c"; exit 1; }
	done
'

# each command's -h and help output and exit status (help's stderr too),
# asked once for all the cases that read them: meta/C.h, C.hrc, C.help,
# C.helprc, C.helperr
mkdir "$T/meta"
for c in $(cat "$T/commands"); do
	convctl "$c" -h >"$T/meta/$c.h"
	echo $? >"$T/meta/$c.hrc"
	convctl help "$c" >"$T/meta/$c.help" 2>"$T/meta/$c.helperr"
	echo $? >"$T/meta/$c.helprc"
done

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
		test -f "$man/convctl-'"$c"'.1" &&
		mandoc -Tlint -W warning "$man/convctl-'"$c"'.1" >lint 2>&1 &&
		test ! -s lint || { cat lint; exit 1; }
	'
	test_expect "the SYNOPSIS of convctl-$c(1) is its usage line" '
		usage '"$c"' >want && synopsis "$man/convctl-'"$c"'.1" >got &&
		test_cmp want got
	'
	test_expect "convctl-$c(1) describes exactly the options $c -h lists" '
		page_options "$man/convctl-'"$c"'.1" >want &&
		help_options '"$c"' >got && test_cmp want got
	'
	test_expect "man -l renders convctl-$c(1) without a complaint" '
		MANPAGER=cat MANWIDTH=80 man -l "$man/convctl-'"$c"'.1" >page 2>err &&
		test ! -s err || { cat err; exit 1; }
		grep -q "^SYNOPSIS" page && grep -q "^EXIT STATUS" page
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
	find "$top/lib" "$top/cmd" "$top/tests/unit" "$top/tests/tool" "$top/fuzz" -name "*.[ch]" >files &&
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
