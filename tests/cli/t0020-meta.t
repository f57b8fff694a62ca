#!/bin/sh
# every command in the table: -h, help CMD, and a man page whose SYNOPSIS is
# the usage line
# check: plain-only (the help texts and man pages: no lib/ line that another file does not run)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the commands, their help and pages, no store"

man=$top/man

# the commands convctl --help lists: the first word of each line of its
# commands: section ("  NAME  what it does"), read by the shell
convctl --help >"$T/help"
command_list= in_commands=
while IFS= read -r l; do
	case $l in
	commands:) in_commands=1; continue ;;
	"") in_commands= ;;
	esac
	[ -n "$in_commands" ] || continue
	case $l in
	"  "[a-z]*" "*) ;;
	*) continue ;;
	esac
	c=${l#  } c=${c%% *}
	case $c in *[!a-z-]*) continue ;; esac
	command_list="$command_list${command_list:+
}$c"
done <"$T/help"
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
# in one call and by man in one (the pages one after the other, as one
# text: man-db's pipeline, preconv, tbl, nroff, groff, troff, grotty and
# col, eleven processes, runs once, not once a page)
# and split back into a file a page by split.awk; mandoc -Tlint once; the
# options and sections of every page and every -h by one awk. A page's
# cases then read their own part, in the shell.
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
mkdir "$T/asc" "$T/man" "$T/opt"
# shellcheck disable=SC2086
mandoc -Tascii -O width=1000 $pages </dev/null |
    awk -v dir="$T/asc" -v names="$names" -f "$T/split.awk"
# man -l on the pages' text, one page after the other: groff renders each
# from its header on (a page's complaint is the same as when it is alone;
# any complaint and each page is rendered again alone, below, to tell whose)
# shellcheck disable=SC2086
cat $pages >"$T/pages.1" </dev/null
MANPAGER=cat MANWIDTH=80 man -l "$T/pages.1" 2>"$T/man.err" |
    awk -v dir="$T/man" -v names="$names" -f "$T/split.awk"
# shellcheck disable=SC2086
mandoc -Tlint -W warning $pages >"$T/lint" 2>&1 </dev/null

# pages.awk (-v dir=D): for each page (convctl-NAME.1) and each -h text
# (meta/NAME.h) given, D/NAME.opts: the options only one of them has,
# "only in the page: -x" or "only in NAME -h: -x" (none when they agree):
# the page's, each "Fl -x" of its .It Fl lines; -h's, each "  -x, --long"
# at the start of a line of its options: section; and for a page
# D/NAME.sect: "no SECTION" for the first section it lacks (a line ".Sh
# SECTION"), else nothing
cat >"$T/pages.awk" <<'EOF'
BEGIN { ns = split("NAME,SYNOPSIS,DESCRIPTION,OPTIONS,EXIT STATUS,EXAMPLES,SEE ALSO", sec, ",") }
FNR == 1 { f = FILENAME; help = f ~ /\.h$/; sub(/.*\//, "", f)
	sub(/^convctl-/, "", f); sub(/\.[1h]$/, "", f); seen[f] = 1; on = 0
	if (!help) page[f] = 1 }
!help && /^\.Sh / { have[f, substr($0, 5)] = 1 }
!help && /^\.It Fl/ { s = $0
	while (match(s, /Fl -?[a-zA-Z][a-z-]*/)) {
		popt[f, "-" substr(s, RSTART + 3, RLENGTH - 3)] = 1
		s = substr(s, RSTART + RLENGTH)
	} }
help && /^options:$/ { on = 1; next }
help && on && /^$/ { on = 0 }
help && on && match($0, /^  ( ? ? ? ?)(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*/) {
	o = substr($0, RSTART, RLENGTH); gsub(/ /, "", o)
	n = split(o, a, ","); for (i = 1; i <= n; i++) hopt[f, a[i]] = 1 }
END {
	for (f in seen) {
		out = dir "/" f ".opts"; printf "" > out
		for (k in popt) { split(k, p, SUBSEP)
			if (p[1] == f && !(k in hopt)) print "only in the page: " p[2] > out }
		for (k in hopt) { split(k, p, SUBSEP)
			if (p[1] == f && !(k in popt)) print "only in " f " -h: " p[2] > out }
		close(out)
		if (!(f in page)) continue
		out = dir "/" f ".sect"; printf "" > out
		for (i = 1; i <= ns; i++)
			if (!((f, sec[i]) in have)) { print "no " sec[i] > out; break }
		close(out)
	}
}
EOF
# shellcheck disable=SC2086
awk -v dir="$T/opt" -f "$T/pages.awk" $pages "$T"/meta/*.h

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

# each case reads what was made above, in the shell, and so runs in the
# file's shell (return, not exit: tests/lib.sh, case_inline)
for c in $command_list; do
	test_expect "$c -h exits 0 and starts with its usage line" '
		read -r rc <"meta/'"$c"'.hrc" &&
		{ test "$rc" -eq 0 || { echo "-h gave status $rc"; return 1; }; } &&
		{ IFS= read -r first <"meta/'"$c"'.h" || test -n "$first"; } &&
		case $first in
		"usage: convctl '"$c"'"*) ;;
		*) echo "first line: $first"; return 1 ;;
		esac
	'
	test_expect "help $c is $c -h" '
		read -r rc <"meta/'"$c"'.hrc" && read -r hrc <"meta/'"$c"'.helprc" &&
		{ test "$rc" -eq 0 && test "$hrc" -eq 0 || {
			echo "status $rc, help: $hrc"
			cat "meta/'"$c"'.helperr"; return 1; }; } &&
		same_file "meta/'"$c"'.h" "meta/'"$c"'.help"
	'
	test_expect "$c has a man page that mandoc -Tlint passes" '
		test -f "$man/convctl-'"$c"'.1" &&
		lines_about lint "/convctl-'"$c"'.1:" >lint.'"$c"' &&
		test ! -s lint.'"$c"' || { cat lint.'"$c"'; return 1; }
	'
	test_expect "the SYNOPSIS of convctl-$c(1) is its usage line" '
		usage '"$c"' >want && same_file want "asc/'"$c"'.syn"
	'
	test_expect "convctl-$c(1) describes exactly the options $c -h lists" '
		test -f "$man/convctl-'"$c"'.1" && test -f "opt/'"$c"'.opts" &&
		test ! -s "opt/'"$c"'.opts" || { cat "opt/'"$c"'.opts"; return 1; }
	'
	# man -l ran on every page at once: when it complained, the page is
	# rendered again alone, to tell whose complaint it was
	test_expect "man -l renders convctl-$c(1) without a complaint" '
		if [ -s man.err ]; then
			MANPAGER=cat MANWIDTH=80 man -l "$man/convctl-'"$c"'.1" \
			    >"man/'"$c"'" 2>err &&
			test ! -s err || { cat err; return 1; }
		fi
		has_line "man/'"$c"'" SYNOPSIS && has_line "man/'"$c"'" "EXIT STATUS"
	'
	test_expect "convctl-$c(1) has the sections a page needs" '
		test -f "$man/convctl-'"$c"'.1" && test -f "opt/'"$c"'.sect" &&
		test ! -s "opt/'"$c"'.sect" || { cat "opt/'"$c"'.sect"; return 1; }
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

# (the arguments' newlines and tabs are in the text itself, their other
# bytes written by printf to a file and read back: no $(...) a process)
test_expect 'a diagnostic quoting an argument is still one printable line' '
	printf "\033\n" >esc && IFS= read -r esc <esc &&
	fails_with 2 convctl "fro
b${esc}[31m" &&
	file_is "convctl: unknown command '\''fro\\nb\\x1b[31m'\''; see '\''convctl --help'\''" "$T/err" &&
	fails_with 2 convctl help "x	y" &&
	lines_are 1 "$T/err" && stderr_has "help: unknown command" &&
	fails_with 1 convctl show "a
b" && lines_are 1 "$T/err"
'

test_expect 'bytes that are not UTF-8, and C1 controls, are quoted as \\xHH' '
	printf "a\377\303b\302\233\342\202\254\n" >arg && IFS= read -r arg <arg &&
	fails_with 1 convctl show "$arg" &&
	printf "no conversation '\''a\\\\xff\\\\xc3b\\\\xc2\\\\x9b\342\202\254'\''\n" >want &&
	IFS= read -r want <want &&
	stderr_has "$want" && iconv -f UTF-8 -t UTF-8 "$T/err" >/dev/null
'

# opens.awk FILE: each file FILE names (a line each) whose first two
# lines, joined, are not "/* NAME.c - ...", read by one awk; and fails
# when they are fewer than 70 or one is empty (it opens with nothing)
cat >"$T/opens.awk" <<'EOF'
{
	m++; file = $0; head = ""
	if ((getline l < file) <= 0) { print file " is empty"; bad = 1; next }
	head = l
	if ((getline l < file) > 0) head = head " " l
	close(file)
	name = file; sub(/.*\//, "", name); gsub(/\./, "\\.", name)
	if (head !~ ("^/\\*( +\\*)? +" name " - [^ ]")) {
		print file " does not open with /* NAME - what it is for"; bad = 1
	}
}
END { if (m < 70) { print m " files, want 70 or more"; bad = 1 }; exit bad }
EOF
test_expect 'every C file opens by saying what it is for: /* NAME.c - ...' '
	find "$top/lib" "$top/cmd" "$top/tests/unit" "$top/tests/tool" "$top/fuzz" -name "*.[ch]" >files &&
	awk -f "$T/opens.awk" files
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

# make demo's transcript: t0010-build.t, which runs make demo
test_done
