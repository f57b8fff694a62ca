#!/bin/sh
# every command in the table: -h, help CMD, and a man page whose SYNOPSIS is
# the usage line
# check: plain-only (the help texts and man pages: no lib/ line that another file does not run)
. "$(dirname "$0")/../lib.sh"
file_store_only "the commands, their help and pages, no store"

man=$top/man

# the commands convctl --help lists
convctl --help | sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' >"$T/commands"
command_list=$(cat "$T/commands")
# listed C: C is one of the commands (the shell looks: no grep a command)
listed() {
	case "
$command_list
" in *"
$1
"*) return 0 ;; esac
	return 1
}

# usage C: the usage line of convctl C -h (read from meta/C.h), less
# "usage: ", its spaces squeezed (by the shell's word splitting: no process)
usage() {
	IFS= read -r sh_usage <"$T/meta/$1.h"
	sh_usage=${sh_usage#usage: }
	set -f
	# shellcheck disable=SC2086
	set -- $sh_usage
	set +f
	echo "$*"
}

# has_line FILE LINE: FILE has the line LINE (the shell reads it)
has_line() {
	while IFS= read -r l || [ -n "$l" ]; do
		[ "$l" != "$2" ] || return 0
	done <"$1"
	echo "no line '$2' in $1"
	return 1
}

test_expect 'the command list is not empty and has the known commands' '
	for c in add end show recent prompt migrate prune summarize search \
	    delete title resume edit fork tag pin mcp config; do
		listed "$c" || { echo "no $c"; return 1; }
	done
'

# each command's -h and help output and exit status (help's stderr too),
# asked once for all the cases that read them: meta/C.h, C.hrc, C.help,
# C.helprc, C.helperr
mkdir "$T/meta"
for c in $command_list; do
	convctl "$c" -h >"$T/meta/$c.h"
	echo $? >"$T/meta/$c.hrc"
	convctl help "$c" >"$T/meta/$c.help" 2>"$T/meta/$c.helperr"
	echo $? >"$T/meta/$c.helprc"
done

# Each tool runs once on all the pages, not once a page: the pages of the
# commands in the table, in its order ($pages, $names), rendered by mandoc
# and by man in one call each and split back into a file a page by
# split.awk; mandoc -Tlint once; the options of every page and of every -h
# by one awk each. A page's cases then read their own part, in the shell.
pages= names=
for c in $command_list; do
	[ ! -f "$man/convctl-$c.1" ] || {
		pages="$pages $man/convctl-$c.1" names="$names $c"
	}
done

# split.awk (-v dir=D -v names="A B ..."): a rendering of the pages, one
# after the other, into D/A, D/B ... (a page starts at its header line, "X(1)
# ... X(1)"), overstrikes dropped; and each page's SYNOPSIS (its lines up to
# the next heading) on one line, spaces squeezed, into D/A.syn ...
cat >"$T/split.awk" <<'EOF'
function flush() {
	if (out == "") return
	gsub(/ +/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
	print s > (out ".syn"); close(out ".syn"); close(out)
}
BEGIN { n = split(names, name, " "); i = 0; out = "" }
{ gsub(/.\010/, "") }
/^[A-Z][A-Z0-9-]*\([0-9]\) .*[A-Z][A-Z0-9-]*\([0-9]\)$/ {
	flush(); i++; out = dir "/" (i <= n ? name[i] : "extra" i); s = ""; on = 0
}
out != "" { print > out }
on && /^[A-Z]/ { on = 0 }
on { s = s " " $0 }
/^SYNOPSIS$/ { on = 1 }
END { flush() }
EOF
mkdir "$T/asc" "$T/man"
# shellcheck disable=SC2086
mandoc -Tascii -O width=1000 $pages |
    awk -v dir="$T/asc" -v names="$names" -f "$T/split.awk"
# shellcheck disable=SC2086
MANPAGER=cat MANWIDTH=80 man -l $pages 2>"$T/man.err" |
    awk -v dir="$T/man" -v names="$names" -f "$T/split.awk"
# shellcheck disable=SC2086
mandoc -Tlint -W warning $pages >"$T/lint" 2>&1

# options.awk: "NAME<TAB>-x" for each option of each file, NAME from its
# name (convctl-NAME.1, meta/NAME.h); with -v help=1 the options C -h lists
# (each "  -x, --long" at the start of a line of its options: section),
# else those the page describes (each "Fl -x" of its .It Fl lines)
cat >"$T/options.awk" <<'EOF'
FNR == 1 { f = FILENAME; sub(/.*\//, "", f); sub(/^convctl-/, "", f)
	sub(/\.[1h]$/, "", f); on = 0 }
!help && /^\.It Fl/ { s = $0
	while (match(s, /Fl -?[a-zA-Z][a-z-]*/)) {
		print f "\t-" substr(s, RSTART + 3, RLENGTH - 3)
		s = substr(s, RSTART + RLENGTH)
	} }
help && /^options:$/ { on = 1; next }
help && on && /^$/ { on = 0 }
help && on && match($0, /^  ( ? ? ? ?)(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*/) {
	o = substr($0, RSTART, RLENGTH); gsub(/ /, "", o)
	n = split(o, a, ","); for (i = 1; i <= n; i++) print f "\t" a[i] }
EOF
# unsplit.awk (-v dir=D): "NAME<TAB>LINE" lines into D/NAME
cat >"$T/unsplit.awk" <<'EOF'
{ out = dir "/" $1; if (out != last) { if (last != "") close(last); last = out }
  print $2 > out }
EOF
mkdir "$T/popt" "$T/hopt"
for c in $names; do : >"$T/popt/$c"; : >"$T/hopt/$c"; done
# shellcheck disable=SC2086
awk -v help=0 -f "$T/options.awk" $pages | sort -u |
    awk -v dir="$T/popt" -f "$T/unsplit.awk"
awk -v help=1 -f "$T/options.awk" "$T"/meta/*.h | sort -u |
    awk -v dir="$T/hopt" -f "$T/unsplit.awk"

# sections.awk: "NAME: no SECTION" for the first section each page lacks
# (a line ".Sh SECTION")
cat >"$T/sections.awk" <<'EOF'
BEGIN {
	n = split("NAME,SYNOPSIS,DESCRIPTION,OPTIONS,EXIT STATUS,EXAMPLES,SEE ALSO", s, ",")
	for (i = 1; i <= n; i++)
		want[".Sh " s[i]] = 1
}
function check(  i) {
	for (i = 1; i <= n; i++)
		if (!((".Sh " s[i]) in have)) {
			print f ": no " s[i]
			break
		}
	split("", have)
}
FNR == 1 { if (f != "") check(); f = FILENAME; sub(/.*\/convctl-/, "", f)
	sub(/\.1$/, "", f) }
$0 in want { have[$0] = 1 }
END { if (f != "") check() }
EOF
# shellcheck disable=SC2086
awk -f "$T/sections.awk" $pages >"$T/sections"

# lines_about FILE TEXT: FILE's lines that hold TEXT (a page's name), or
# that name no page at all: what a page's case must find none of
lines_about() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in
		*"$2"*) echo "$l" ;;
		*/convctl-*.1:*) ;;
		*) echo "$l" ;;
		esac
	done <"$1"
}

for c in $command_list; do
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
		lines_about lint "/convctl-'"$c"'.1:" >lint.'"$c"' &&
		test ! -s lint.'"$c"' || { cat lint.'"$c"'; exit 1; }
	'
	test_expect "the SYNOPSIS of convctl-$c(1) is its usage line" '
		usage '"$c"' >want && same_file want "asc/'"$c"'.syn"
	'
	test_expect "convctl-$c(1) describes exactly the options $c -h lists" '
		same_file "popt/'"$c"'" "hopt/'"$c"'"
	'
	# man -l ran on every page at once: when it complained, the page is
	# rendered again alone, to tell whose complaint it was
	test_expect "man -l renders convctl-$c(1) without a complaint" '
		if [ -s man.err ]; then
			MANPAGER=cat MANWIDTH=80 man -l "$man/convctl-'"$c"'.1" \
			    >"man/'"$c"'" 2>err &&
			test ! -s err || { cat err; exit 1; }
		fi
		has_line "man/'"$c"'" SYNOPSIS && has_line "man/'"$c"'" "EXIT STATUS"
	'
	test_expect "convctl-$c(1) has the sections a page needs" '
		test -f "$man/convctl-'"$c"'.1" &&
		while IFS= read -r l; do
			case $l in "'"$c"': "*) echo "$l"; exit 1 ;; esac
		done <sections
	'
done

test_expect 'no page for a command that is not in the table' '
	for f in "$man"/convctl-*.1; do
		c=${f##*/convctl-}; c=${c%.1}
		listed "$c" || { echo "stray page $f"; return 1; }
	done
'

test_expect 'help for an unknown command is a usage error' '
	fails_with 2 convctl help frobnicate && stderr_has "unknown command"
'

test_expect 'a diagnostic quoting an argument is still one printable line' '
	fails_with 2 convctl "$(printf "fro\nb\033[31m")" &&
	test "$(cat "$T/err")" = "convctl: unknown command '\''fro\\nb\\x1b[31m'\''; see '\''convctl --help'\''" &&
	fails_with 2 convctl help "$(printf "x\ty")" &&
	lines_are 1 "$T/err" && stderr_has "help: unknown command" &&
	fails_with 1 convctl show "$(printf "a\nb")" && lines_are 1 "$T/err"
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

# the commands one operation of lib/ops runs for (issue 41): their files
# in cmd/ parse and print; beginning or committing a write, asking a
# summarizer and reading a limit are lib/ops's
test_expect 'add, end, run, resume, fork, title, tag, delete, pin and prune leave their rules to lib/ops' '
	c=$top/cmd &&
	! grep -nwE "(lifecycle_begin|lifecycle_commit[a-z_]*|ending_run|cmd_ending|summary_config_resolve|cmd_summary_setup|settings_long|cmd_limit|lifecycle_message_size|lifecycle_idle_timeout|label_check|label_count_check)" \
	    "$c/add.c" "$c/end.c" "$c/run.c" "$c/resume.c" "$c/fork.c" \
	    "$c/switch.c" "$c/title.c" "$c/tag.c" "$c/delete.c" "$c/pin.c" \
	    "$c/prune.c"
'

# issue 41: a tool's structured content and a prompt's messages are built
# as values from the result; the only JSON convctl mcp parses is what a
# client sends (server.c)
test_expect 'convctl mcp parses back none of the text it renders' '
	m=$top/lib/mcp &&
	! grep -nwE "(json_loadb|json_loads|lex_json)" "$m/tools.c" \
	    "$m/resources.c" "$m/args.c"
'

test_expect 'make demo runs to the end on its own scratch store' '
	"$top/scripts/demo" "$CONVCTL_BIN" >demo.out 2>demo.err &&
	test ! -s demo.err && test ! -e "$CONVCTL_STORE" &&
	grep -q "^conv-[0-9]*	2026-02-04T17:28:02.000Z	4	Add milk to my grocery list$" demo.out &&
	grep -q "^Assistant: Added eggs. \[used: edit_file\]$" demo.out
'
test_done
