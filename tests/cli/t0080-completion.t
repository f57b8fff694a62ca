#!/bin/sh
# shell completion: bash driven for real; zsh and fish loaded by their shells
# check: plain-only (the completion scripts: no lib/ line that another file does not run)
. "$(dirname "$0")/../lib.sh"
file_store_only "shell completion, no store"

comp=$top/completions
mkdir -p "$T/bin"
ln -s "$CONVCTL_BIN" "$T/bin/convctl"
PATH=$T/bin:$PATH

# complete.bash, for bash to source after convctl.bash: complete_words
# WORD... prints COMPREPLY, a word a line, for the words typed, the cursor
# in the last one, _convctl called as bash calls it
cat >"$T/complete.bash" <<'EOF'
complete_words() {
	unset COMPREPLY
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	_convctl
	printf "%s\n" "${COMPREPLY[@]}"
}
EOF

# complete_bash WORD...: what complete_words prints, sorted, no empty line
complete_bash() {
	bash -c '. "$1" && . "$2" || exit 1; shift 2; complete_words "$@"' sh \
	    "$comp/convctl.bash" "$T/complete.bash" "$@" | sed '/^$/d' | sort
}

# the options convctl CMD -h names, in its usage line and its option lines,
# sorted, once each, are options.CMD, made for every command at once below
# (one awk and one sort for all); bash, zsh and fish each compare with them

# by_name.awk (-v dir=D -v p=PREFIX): "NAME<TAB>LINE" lines into D/PREFIXNAME
cat >"$T/by_name.awk" <<'EOF'
{ out = dir "/" p $1; if (out != last) { if (last != "") close(last); last = out }
  sub(/^[^\t]*\t/, ""); print > out }
EOF

test_expect 'bash: the first word completes to every command and help' '
	complete_bash convctl "" >got &&
	{ convctl --help | sed -n "/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p";
	  echo help; } | sort >want &&
	test_cmp want got &&
	complete_bash convctl se >got && file_is search got
'

commands=$(convctl --help | sed -n '/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p')

# every command's -h (help.CMD), then options.CMD for all: one awk, one sort
for c in $commands; do
	convctl "$c" -h >"$T/help.$c"
	: >"$T/options.$c"
done
# shellcheck disable=SC2046
awk 'FNR == 1 { f = FILENAME; sub(/.*\/help\./, "", f); s = $0
		while (match(s, /(\[| )--?[a-zA-Z][a-z-]*/)) {
			print f "\t" substr(s, RSTART + 1, RLENGTH - 1)
			s = substr(s, RSTART + RLENGTH)
		} }
    match($0, /^  ( ? ? ? ?)(-[a-zA-Z], )?--?[a-zA-Z][a-z-]*/) {
	o = substr($0, RSTART, RLENGTH); gsub(/ /, "", o)
	n = split(o, a, ","); for (i = 1; i <= n; i++) print f "\t" a[i]
    }' $(for c in $commands; do echo "$T/help.$c"; done) | sort -u |
    awk -v dir="$T" -v p=options. -f "$T/by_name.awk"

# what bash offers for "convctl C -", for every command, from one bash:
# bopt.C; then each without its empty lines, sorted, as bgot.C (one awk,
# one sort for all)
bash -c '
	. "$1" && . "$2" || exit 1
	dir=$3
	shift 3
	for c; do complete_words convctl "$c" - >"$dir/bopt.$c"; done
' sh "$comp/convctl.bash" "$T/complete.bash" "$T" $commands
for c in $commands; do : >"$T/bgot.$c"; done
# shellcheck disable=SC2046
awk 'FNR == 1 { f = FILENAME; sub(/.*\/bopt\./, "", f) } !/^$/ { print f "\t" $0 }' \
    $(for c in $commands; do [ ! -f "$T/bopt.$c" ] || echo "$T/bopt.$c"; done) |
    sort | awk -v dir="$T" -v p=bgot. -f "$T/by_name.awk"

for c in $commands; do
	test_expect "bash: the options of $c are those $c -h lists" '
		{ test -f "bopt.'"$c"'" || { echo "bash did not complete it"; exit 1; }; } &&
		same_file "options.'"$c"'" "bgot.'"$c"'"
	'
done

test_expect 'bash: global options before the command do not hide it' '
	complete_bash convctl -s "$T/x.json" --wait 3 add --r >got &&
	file_is --role got &&
	complete_bash convctl --store = "$T/x.json" show --f >got &&
	file_is --format got
'

test_expect 'bash: roles complete after --role and -r' '
	complete_bash convctl add --role "" >got &&
	printf "%s\n" assistant system tool user >want && test_cmp want got &&
	complete_bash convctl search -r a >got && file_is assistant got &&
	complete_bash convctl add --role = s >got && file_is system got
'

test_expect 'bash: formats complete for show, prompt and migrate' '
	complete_bash convctl show -f "" >got &&
	printf "%s\n" json markdown text >want && test_cmp want got &&
	complete_bash convctl prompt --format "" >got &&
	printf "%s\n" jsonl markdown openai text >want && test_cmp want got &&
	complete_bash convctl migrate --format "" >got &&
	printf "%s\n" aider aiwhisperer chatgpt chatsidian claude claudeai codex convctl gemini jsonl llm markdown messages smarthole >want &&
	test_cmp want got
'

test_expect 'bash: run completes formats after --context=, then CMD'\''s line' '
	complete_bash convctl run --context = "" >got &&
	printf "%s\n" jsonl markdown openai text >want && test_cmp want got &&
	complete_bash convctl run --prompt "why?" -- sor >got && has_line sort got &&
	complete_bash convctl run --context sor >got && has_line sort got &&
	complete_bash convctl run sort - >got && test ! -s got
'

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add one >/dev/null
CONVCTL_NOW=2026-02-04T12:00:00Z convctl add two >/dev/null
CONVCTL_NOW=2026-02-04T12:05:00Z convctl end >/dev/null
CONVCTL_NOW=2026-02-05T08:00:00Z convctl --store "$T/other.json" add x >/dev/null
CONVCTL_NOW=2026-02-05T08:01:00Z convctl --store "$T/other.json" end >/dev/null

test_expect 'bash: conversation ids for show, prompt, summarize, delete' '
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	complete_bash convctl show "" >got && test_cmp want got &&
	complete_bash convctl prompt --last 2 "" >got && test_cmp want got &&
	complete_bash convctl summarize conv >got && test_cmp want got &&
	complete_bash convctl delete --force conv-17702064 >got &&
	file_is conv-1770206400000 got &&
	complete_bash convctl add --expect-conversation "" >got && test_cmp want got
'

test_expect 'bash: ids come from the store --store names' '
	complete_bash convctl --store "$T/other.json" show "" >got &&
	file_is conv-1770278400000 got
'

test_expect 'bash: ids without jq, through grep and sed' '
	mkdir nojq && ln -s "$CONVCTL_BIN" nojq/convctl &&
	for p in bash grep sed sort diff cat; do
		ln -s "$(command -v $p)" nojq/$p
	done &&
	PATH=$T/nojq && export PATH &&
	complete_bash convctl show "" >got &&
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	test_cmp want got
'

test_expect 'bash: no ids where none belong, and help completes commands' '
	complete_bash convctl recent "" >got && test ! -s got &&
	complete_bash convctl help pr >got &&
	printf "%s\n" prompt prune >want && test_cmp want got
'

test_expect 'zsh: the completion function loads and names every command' '
	zsh -n "$comp/_convctl" &&
	for c in $(convctl --help | sed -n "/^commands:$/,/^$/s/^  \([a-z-]*\) .*/\1/p"); do
		grep -q "^[[:space:]]*$c:" "$comp/_convctl" || { echo "zsh: no $c"; return 1; }
	done
'

# one zsh session (tests/helpers/zsh-complete.zsh: zsh with compinit takes
# about half a second to start here) answers every zsh case below: line I
# of the first $ncommands is "convctl CMD -" for the I-th command (its
# answer in zopt.I), then the lines of the ids case
ncommands=$(echo $commands | wc -w)
set --
for c in $commands; do set -- "$@" "convctl $c -"; done
zsh_rc=0
timeout 120 zsh -f "$top/tests/helpers/zsh-complete.zsh" "$comp" "$T/zopt" \
    "$@" "convctl -s $T/other.json show " "convctl --store=$T/other.json show " \
    "convctl resume " "export CONVCTL_STORE=$T/other.json" "convctl fork " \
    >"$T/zsh.err" 2>&1 || zsh_rc=$?
set --
# zsh_answered I: what zsh offered for line I, sorted, once each; fails
# saying how when the session did not end well
zsh_answered() {
	[ "$zsh_rc" -eq 0 ] ||
	    { echo "zsh-complete.zsh: exit status $zsh_rc"; cat "$T/zsh.err"; return 1; }
	sort -u "$T/zopt.$1" | sed '/^$/d'
}

# every command's options, as bash's above: what "convctl CMD -" offers is
# what CMD -h lists, in zsh (one shell for all) and in fish (one shell for
# all); the answers sorted, once each, without empty lines and zsh's "--"
# (run offers -- too, before CMD), by one awk and one sort a shell: zgot.C,
# fgot.C
i=0
for c in $commands; do
	i=$((i + 1))
	: >"$T/zgot.$c"
	[ ! -f "$T/zopt.$i" ] || echo "$i $c"
done >"$T/zsh.names"
# shellcheck disable=SC2046
[ ! -s "$T/zsh.names" ] || awk 'NR == FNR { name[$1] = $2; next }
    FNR == 1 { f = FILENAME; sub(/.*\/zopt\./, "", f); f = name[f] }
    !/^-*$/ { print f "\t" $0 }' "$T/zsh.names" \
    $(while read -r i c; do echo "$T/zopt.$i"; done <"$T/zsh.names") |
    sort -u | awk -v dir="$T" -v p=zgot. -f "$T/by_name.awk"
fish -c "source $comp/convctl.fish
    for c in $(echo $commands)
	    echo == \$c; complete -C \"convctl \$c -\"
    end" >"$T/fish.all"
fish_rc=$?
for c in $commands; do : >"$T/fgot.$c"; done
awk -F '\t' '/^== / { c = substr($0, 4); next } /^-/ { print c "\t" $1 }' "$T/fish.all" |
    sort -u | awk -v dir="$T" -v p=fgot. -f "$T/by_name.awk"

test_expect 'zsh: the options of every command are those it -h lists' '
	[ "$zsh_rc" -eq 0 ] ||
	    { echo "zsh-complete.zsh: exit status $zsh_rc"; cat "$T/zsh.err"; return 1; }
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
	fish -n "$comp/convctl.fish" &&
	fish -c "source $comp/convctl.fish; complete -C \"convctl sea\"" >got &&
	grep -q "^search" got &&
	fish -c "source $comp/convctl.fish; complete -C \"convctl add --rol\"" >got &&
	grep -q "^--role" got &&
	fish -c "source $comp/convctl.fish; complete -C \"convctl add --role \"" |
	    cut -f1 | sort >got &&
	printf "%s\n" assistant system tool user >want && test_cmp want got &&
	fish -c "source $comp/convctl.fish; complete -C \"convctl show \"" |
	    cut -f1 | sort >got &&
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	test_cmp want got
'
# issue 15: ids of the store the line names, for the new commands too
# (lines $ncommands + 1 to + 5 of the zsh session above)
test_expect 'zsh: ids from the store -s names, else CONVCTL_STORE' '
	zsh_answered $((ncommands + 1)) >got &&
	file_is conv-1770278400000 got &&
	zsh_answered $((ncommands + 2)) >got &&
	file_is conv-1770278400000 got &&
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	zsh_answered $((ncommands + 3)) >got && test_cmp want got &&
	zsh_answered $((ncommands + 5)) >got &&
	file_is conv-1770278400000 got
'

test_expect 'bash: ids for the first operand of title, edit, fork, tag, resume, pin' '
	printf "%s\n" conv-1770199200000 conv-1770206400000 >want &&
	for c in title edit fork tag resume pin; do
		complete_bash convctl $c "" >got && test_cmp want got || return 1
	done &&
	complete_bash convctl edit conv-1770199200000 "" >got && test ! -s got &&
	complete_bash convctl tag --remove conv-1770199200000 "" >got && test ! -s got &&
	complete_bash convctl -s "$T/other.json" fork --at 2 "" >got &&
	file_is conv-1770278400000 got &&
	complete_bash convctl pin conv-1770199200000 "" >got && test_cmp want got
'

test_expect 'fish: ids with their titles, from the store -s names' '
	fish -c "source $comp/convctl.fish; complete -C \"convctl title \"" >got &&
	grep -q "^conv-1770206400000	" got && test "$(wc -l <got)" = 2 &&
	fish -c "source $comp/convctl.fish; complete -C \"convctl -s $T/other.json resume \"" |
	    cut -f1 >got && file_is conv-1770278400000 got &&
	fish -c "source $comp/convctl.fish; complete -C \"convctl edit conv-1770199200000 \"" >got &&
	! grep -q "^conv-" got
'
test_done
