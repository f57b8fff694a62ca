#!/bin/sh
# shell completion: bash driven for real; zsh and fish loaded by their shells
# check: plain-only (the completion scripts: no lib/ line that another file does not run)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "shell completion, no store"

comp=$top/completions
PATH=$T/bin:$PATH

# Every answer of every shell is asked for first, one session a shell (a
# bash, a zsh, a fish: not a shell a question), then sorted and split into
# a file a question by one awk, one sort and one awk; the cases below
# compare those files. The store the ids come from is made first: the
# questions about options, roles and formats are asked with ids to offer,
# where none must show.

# the commands convctl --help lists (as sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p'
# prints them), read by the shell
convctl --help >"$T/help"
commands= cm_in=
while IFS= read -r l; do
	if [ -z "$cm_in" ]; then
		[ "$l" != "commands:" ] || cm_in=1
		continue
	fi
	[ -n "$l" ] || break
	case $l in
	"  "[a-z-]*" "*)
		l=${l#"  "}
		l=${l%%" "*}
		case $l in *[!a-z-]*) ;; *) commands="$commands $l" ;; esac ;;
	esac
done <"$T/help"
commands=${commands# }

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add one >/dev/null
CONVCTL_NOW=2026-02-04T12:00:00Z convctl add two >/dev/null
CONVCTL_NOW=2026-02-04T12:05:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-05T08:00:00Z convctl --store "$T/other.json" add x >/dev/null
CONVCTL_NOW=2026-02-05T08:01:00Z convctl --store "$T/other.json" end >/dev/null

# every command's -h: help.CMD, whose options the collecting awk below
# puts in options.CMD (sorted, once each); bash, zsh and fish each compare
# with them
for c in $commands; do
	convctl "$c" -h >"$T/help.$c"
done

# the convctl the shells find in PATH, in $T/bin (lib.sh makes it), with
# grep and sed: alone, a PATH without jq for bash's ids (through grep and
# sed); one ln where the tree's convctl is named convctl (command -v is the
# shell's: no process)
command -v grep >"$T/nojq.paths" && command -v sed >>"$T/nojq.paths" &&
    { read -r nj_grep && read -r nj_sed; } <"$T/nojq.paths" &&
    case $CONVCTL_BIN in
    */convctl) ln -s "$CONVCTL_BIN" "$nj_grep" "$nj_sed" "$T/bin/" ;;
    *) ln -s "$CONVCTL_BIN" "$T/bin/convctl" && ln -s "$nj_grep" "$nj_sed" "$T/bin/" ;;
    esac

# bash: complete.bash, sourced after convctl.bash: q NAME WORD... prints
# "== b.NAME", then COMPREPLY, a word a line, for the words typed, the
# cursor in the last one, _convctl called as bash calls it; questions.bash
# is every question, one bash answers them all into b.all
printf '%s\n' 'q() {
	local q_name=$1
	shift
	unset COMPREPLY
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	_convctl
	printf "== b.%s\n" "$q_name"
	((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}"
}' >"$T/complete.bash"
{
	echo 'q first convctl ""'
	echo 'q se convctl se'
	for c in $commands; do echo "q opt.$c convctl $c -"; done
	printf '%s\n' 'q global1 convctl -s "$q_dir/x.json" --wait 3 add --r
q global2 convctl --store = "$q_dir/x.json" show --f
q roles convctl add --role ""
q role-a convctl search -r a
q role-eq convctl add --role = s
q fmt-show convctl show -f ""
q fmt-prompt convctl prompt --format ""
q fmt-migrate convctl migrate --format ""
q run-context convctl run --context = ""
q run-cmd convctl run --prompt "why?" -- sor
q run-context-cmd convctl run --context sor
q run-cmd-opt convctl run sort -
q ids-show convctl show ""
q ids-prompt convctl prompt --last 2 ""
q ids-summarize convctl summarize conv
q ids-delete convctl delete --force conv-17702064
q ids-expect convctl add --expect-conversation ""
q ids-other convctl --store "$q_dir/other.json" show ""
q_path=$PATH
PATH="$q_dir/bin"
q ids-nojq convctl show ""
PATH=$q_path
q none-recent convctl recent ""
q help-pr convctl help pr
q first-edit convctl edit conv-1770199200000 ""
q first-tag convctl tag --remove conv-1770199200000 ""
q first-fork convctl -s "$q_dir/other.json" fork --at 2 ""
q first-pin convctl pin conv-1770199200000 ""'
	for c in title edit fork tag resume pin; do echo "q first.$c convctl $c \"\""; done
} >"$T/questions.bash"
# The completion's `command convctl` runs the convctl of
# tests/serve-client.sh in this bash (the file's server, where there is one:
# not a process an id question; else the PATH's convctl, as a user's bash)
cv_serve=$cv_serve CONVCTL_BIN=$CONVCTL_BIN CONVCTL_WRAPPER=$CONVCTL_WRAPPER \
    bash -c 'q_dir=$4 &&
	if [ -n "$cv_serve" ]; then
		. "$5" && command() {
			if [ "$1" = convctl ]; then shift && convctl "$@"
			else builtin command "$@"; fi
		}
	fi && . "$1" && . "$2" && . "$3"' sh "$comp/convctl.bash" \
    "$T/complete.bash" "$T/questions.bash" "$T" "$top/tests/serve-client.sh" >"$T/b.all"
bash_rc=$?

# zsh: one session (tests/helpers/zsh-complete.zsh: zsh with compinit
# takes about half a second to start here): line I of the first $ncommands
# is "convctl CMD -" for the I-th command (its answer in zopt.I), then the
# lines of the ids case; zsh.names names each answer: zgot.CMD, zid.J
set --
ncommands=0
for c in $commands; do
	set -- "$@" "convctl $c -"
	ncommands=$((ncommands + 1))
done
zsh_rc=0
# (the completion's convctl the file's server's, as in bash's session)
cv_serve=$cv_serve CONVCTL_BIN=$CONVCTL_BIN CONVCTL_WRAPPER=$CONVCTL_WRAPPER \
    zc_client=$top/tests/serve-client.sh \
    timeout 120 zsh -f "$top/tests/helpers/zsh-complete.zsh" "$comp" "$T/zopt" \
    "$@" "convctl -s $T/other.json show " "convctl --store=$T/other.json show " \
    "convctl resume " "export CONVCTL_STORE=$T/other.json" "convctl fork " \
    >"$T/zsh.err" 2>&1 || zsh_rc=$?
set --
i=0 zopts=
for c in $commands x1 x2 x3 x4 x5; do
	i=$((i + 1))
	[ -f "$T/zopt.$i" ] || continue
	case $c in x*) echo "$i zid.${c#x}" ;; *) echo "$i zgot.$c" ;; esac
	zopts="$zopts $T/zopt.$i"
done >"$T/zsh.names"

# fish: one session, each answer after a line "== NAME" in f.all: fgot.CMD
# for "convctl CMD -", f.NAME for the others
fish -c "source $comp/convctl.fish
    for c in $commands
	    echo == fgot.\$c; complete -C \"convctl \$c -\"
    end
    echo == f.sea; complete -C 'convctl sea'
    echo == f.rol; complete -C 'convctl add --rol'
    echo == f.roles; complete -C 'convctl add --role '
    echo == f.ids; complete -C 'convctl show '
    echo == f.title; complete -C 'convctl title '
    echo == f.resume; complete -C 'convctl -s $T/other.json resume '
    echo == f.edit; complete -C 'convctl edit conv-1770199200000 '" >"$T/f.all"
fish_rc=$?

# collect.awk: every answer as "NAME<TAB>LINE", NAME alone once (so that a
# question answered with nothing has its file, empty), for one sort:
#   help.CMD: the options its usage line and its option lines name, once
#     each: options.CMD
#   zsh: what each line offered, once each, without empty lines; for
#     "convctl CMD -" without zsh's "--" (run offers -- too, before CMD)
#   b.all: bash's answers, without empty lines (each as often as given)
#   f.all: fish's; for "convctl CMD -", each option once (its first field,
#     not its description), the lines as they are for the others
printf '%s\n' 'function named(n) { name = n; print n }
function once(line) { if (!((name, line) in seen)) { seen[name, line]; print name "\t" line } }
FILENAME ~ /\/zsh\.names$/ { zname[$1] = $2; next }
FILENAME ~ /\/help\.[a-z-]+$/ {
	if (FNR == 1) {
		f = FILENAME; sub(/.*\/help\./, "", f); named("options." f); s = $0
		while (match(s, /(\[| )--?[a-zA-Z][a-z-]*/)) {
			once(substr(s, RSTART + 1, RLENGTH - 1))
			s = substr(s, RSTART + RLENGTH)
		}
	}
	if (match($0, /^  ( ? ? ? ?)(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*/)) {
		o = substr($0, RSTART, RLENGTH); gsub(/ /, "", o)
		n = split(o, a, ","); for (i = 1; i <= n; i++) once(a[i])
	}
	next
}
FILENAME ~ /\/zopt\.[0-9]+$/ {
	if (FNR == 1) { f = FILENAME; sub(/.*\/zopt\./, "", f); named(zname[f]) }
	if ($0 != "" && !(name ~ /^zgot\./ && $0 ~ /^-*$/)) once($0)
	next
}
/^== / { named(substr($0, 4)); next }
FILENAME ~ /\/b\.all$/ { if ($0 != "") print name "\t" $0; next }
name ~ /^fgot\./ { if ($0 ~ /^-/) { split($0, a, "\t"); once(a[1]) }; next }
{ print name "\t" $0 }' >"$T/collect.awk"
help_files=
for c in $commands; do help_files="$help_files $T/help.$c"; done
# want.all: what the first word completes to, every command and help,
# sorted with the answers into want.first
{ echo "== want.first" && printf "%s\n" $commands help; } >"$T/want.all"
# shellcheck disable=SC2086
awk -f "$T/collect.awk" "$T/zsh.names" $help_files $zopts "$T/b.all" "$T/f.all" \
    "$T/want.all" | sort >"$T/answers"
# the sorted lines into a file a NAME, by the shell (not an awk more):
# "NAME<TAB>LINE" a line of $T/NAME; a NAME alone makes $T/NAME, empty (it
# sorts before NAME's lines)
an_last=
while IFS= read -r l; do
	an_name=${l%%"	"*}
	[ "$an_name" = "$an_last" ] || { : >"$T/$an_name" && an_last=$an_name; }
	[ "$an_name" = "$l" ] || printf '%s\n' "${l#*"	"}" >>"$T/$an_name"
done <"$T/answers"

# first_fields FILE: FILE's lines to their first tab (as cut -f1)
first_fields() {
	while IFS= read -r l || [ -n "$l" ]; do printf "%s\n" "${l%%	*}"; done <"$1"
}
# bash_answered: the bash session ended well, else says how
bash_answered() {
	[ "$bash_rc" -eq 0 ] || { echo "bash: exit status $bash_rc"; return 1; }
}

test_expect 'bash: the first word completes to every command and help' '
	bash_answered &&
	same_file want.first b.first && file_is search b.se
'

for c in $commands; do
	test_expect "bash: the options of $c are those $c -h lists" '
		{ test -f "b.opt.'"$c"'" || { echo "bash did not complete it"; return 1; }; } &&
		same_file "options.'"$c"'" "b.opt.'"$c"'"
	'
done

test_expect 'bash: global options before the command do not hide it' '
	file_is --role b.global1 && file_is --format b.global2
'

test_expect 'bash: roles complete after --role and -r' '
	printf "%s\n" assistant system tool user >want && same_file want b.roles &&
	file_is assistant b.role-a && file_is system b.role-eq
'

test_expect 'bash: formats complete for show, prompt and migrate' '
	printf "%s\n" json markdown text >want && same_file want b.fmt-show &&
	printf "%s\n" jsonl markdown openai text >want && same_file want b.fmt-prompt &&
	printf "%s\n" aider aiwhisperer chatgpt chatsidian claude claudeai codex convctl gemini jsonl llm markdown messages smarthole >want &&
	same_file want b.fmt-migrate
'

test_expect 'bash: run completes formats after --context=, then CMD'\''s line' '
	printf "%s\n" jsonl markdown openai text >want && same_file want b.run-context &&
	has_line sort b.run-cmd && has_line sort b.run-context-cmd &&
	test -f b.run-cmd-opt && test ! -s b.run-cmd-opt
'

test_expect 'bash: conversation ids for show, prompt, summarize, delete' '
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	same_file want b.ids-show && same_file want b.ids-prompt &&
	same_file want b.ids-summarize &&
	file_is conv-1770206400000 b.ids-delete &&
	same_file want b.ids-expect
'

test_expect 'bash: ids come from the store --store names' '
	file_is conv-1770278400000 b.ids-other
'

test_expect 'bash: ids without jq, through grep and sed' '
	test -x bin/grep && test -x bin/sed && test ! -e bin/jq &&
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	same_file want b.ids-nojq
'

test_expect 'bash: no ids where none belong, and help completes commands' '
	test -f b.none-recent && test ! -s b.none-recent &&
	printf "%s\n" prompt prune >want && same_file want b.help-pr
'

# the lines of _convctl that name a command, "CMD:" after blanks (as grep
# -q "^[[:space:]]*CMD:" finds them), read by the shell
test_expect 'zsh: the completion function loads and names every command' '
	zsh -n "$comp/_convctl" &&
	zc_names=" " &&
	while IFS= read -r l; do
		l=${l#"${l%%[![:space:]]*}"}
		case $l in *:*) zc_names="$zc_names${l%%:*} " ;; esac
	done <"$comp/_convctl" &&
	for c in $commands; do
		case $zc_names in *" $c "*) ;; *) echo "zsh: no $c"; return 1 ;; esac
	done
'

# zsh_answered: the zsh session ended well, else says how
zsh_answered() {
	[ "$zsh_rc" -eq 0 ] ||
	    { echo "zsh-complete.zsh: exit status $zsh_rc"; cat "$T/zsh.err"; return 1; }
}

test_expect 'zsh: the options of every command are those it -h lists' '
	zsh_answered &&
	i=0 &&
	for c in $commands; do
		i=$((i + 1)) &&
		{ test -f "zopt.$i" || { echo "zsh: no answer for convctl $c -"; return 1; }; } &&
		same_file "options.$c" "zgot.$c" || { echo "zsh: convctl $c -"; return 1; }
	done
'

test_expect 'fish: the options of every command are those it -h lists' '
	test "$fish_rc" -eq 0 &&
	for c in $commands; do
		same_file "options.$c" "fgot.$c" || { echo "fish: convctl $c -"; return 1; }
	done
'

test_expect 'fish: completes commands, options, roles and ids' '
	fish -n "$comp/convctl.fish" && test "$fish_rc" -eq 0 &&
	line_starts search f.sea &&
	line_starts --role f.rol &&
	first_fields f.roles >got &&
	printf "%s\n" assistant system tool user >want && same_file want got &&
	first_fields f.ids >got &&
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	same_file want got
'
# issue 15: ids of the store the line names, for the new commands too
# (lines $ncommands + 1 to + 5 of the zsh session above)
test_expect 'zsh: ids from the store -s names, else CONVCTL_STORE' '
	zsh_answered &&
	file_is conv-1770278400000 zid.1 &&
	file_is conv-1770278400000 zid.2 &&
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	same_file want zid.3 &&
	file_is conv-1770278400000 zid.5
'

test_expect 'bash: ids for the first operand of title, edit, fork, tag, resume, pin' '
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	for c in title edit fork tag resume pin; do
		same_file want "b.first.$c" || return 1
	done &&
	test -f b.first-edit && test ! -s b.first-edit &&
	test -f b.first-tag && test ! -s b.first-tag &&
	file_is conv-1770278400000 b.first-fork &&
	same_file want b.first-pin
'

test_expect 'fish: ids with their titles, from the store -s names' '
	line_starts "conv-1770206400000	" f.title && lines_are 2 f.title &&
	first_fields f.resume >got && file_is conv-1770278400000 got &&
	test -f f.edit &&
	{ ! line_starts conv- f.edit >/dev/null || { echo "fish offers ids after the id"; return 1; }; }
'
test_done
