#!/bin/sh
# the pager: a reader's output at a terminal goes through one, as git's does
# check: plain-only (the pager is cmd/'s: no lib/ line that another file does not run)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the pager is about the terminal, not the store"

# a store with two ended conversations, and an active one whose one message
# is longer than a pipe holds (300 KB): a pager that quits early finds
# convctl still writing
CONVCTL_NOW=2026-02-01T10:00:00Z convctl add "first" >/dev/null &&
CONVCTL_NOW=2026-02-01T10:01:00Z convctl end --no-summary >/dev/null &&
CONVCTL_NOW=2026-02-02T10:00:00Z convctl add "second" >/dev/null &&
CONVCTL_NOW=2026-02-02T10:01:00Z convctl end --no-summary >/dev/null &&
head -c 300000 /dev/zero | tr '\0' a |
    CONVCTL_NOW=2026-02-03T10:00:00Z convctl add >/dev/null || exit 1

mark='sed "s/^/paged: /"'
cfg=$XDG_CONFIG_HOME/convctl/config
mkdir -p "$XDG_CONFIG_HOME/convctl"
# the escape character, for a colour's escape sequence (no $(printf) fork)
printf '\033\n' >"$T/esc" && IFS= read -r esc <"$T/esc"

# Every command the cases read runs first, each on a terminal of its own,
# in their order (the cases' order), by one tests/helpers/on-ttys.py, not
# an on-tty.py a command: what the terminal of command NAME saw is
# $T/NAME.tty, its exit status $T/NAME.status.
# tty NAME [--stdout FILE] [VAR=VALUE]... CMD ARG...: the request for
# command NAME (on_tty [--stdout FILE] CMD ARG... with VAR=VALUE set); a
# line "write $cfg TEXT" between them: the config file holds TEXT (only a
# newline: no setting) from the next command on
tty() {
	echo "run $1"
	shift
	if [ "$1" = --stdout ]; then
		echo "stdout $2"
		shift 2
	fi
	while :; do
		case $1 in
		[A-Z]*=*) echo "env $1"; shift ;;
		*) break ;;
		esac
	done
	for a; do echo "arg $a"; done
}
{
	# at a terminal recent goes through the pager, LESS=FRX set
	tty mark CONVCTL_PAGER="$mark" "$CONVCTL_BIN" recent
	tty less CONVCTL_PAGER="echo \"LESS=\$LESS LV=\$LV\"; cat >/dev/null" \
	    "$CONVCTL_BIN" recent
	tty less-kept LESS=SM CONVCTL_PAGER="echo \"LESS=\$LESS\"; cat >/dev/null" \
	    "$CONVCTL_BIN" recent
	# not when standard output is a pipe or a file
	tty pipe CONVCTL_PAGER="$mark" sh -c "\"\$1\" recent | cat" sh "$CONVCTL_BIN"
	tty file --stdout "$T/out" CONVCTL_PAGER="$mark" "$CONVCTL_BIN" recent
	# CONVCTL_PAGER over the pager setting over PAGER
	tty over-all PAGER="sed s/^/pager:/" CONVCTL_PAGER="$mark" "$CONVCTL_BIN" recent
	echo "write $cfg pager = sed s/^/setting:/"
	tty setting PAGER="sed s/^/pager:/" "$CONVCTL_BIN" recent
	echo "write $cfg"
	tty pager PAGER="sed s/^/pager:/" "$CONVCTL_BIN" recent
	# --no-pager, a pager of cat or empty, and a writer: no pager
	tty no-pager CONVCTL_PAGER="$mark" "$CONVCTL_BIN" --no-pager recent
	echo "write $cfg pager = cat"
	tty cat PAGER="$mark" "$CONVCTL_BIN" recent
	echo "write $cfg pager ="
	tty empty PAGER="$mark" "$CONVCTL_BIN" recent
	echo "write $cfg"
	tty config PAGER="$mark" "$CONVCTL_BIN" --no-pager config
	tty writer PAGER="$mark" "$CONVCTL_BIN" prune --dry-run --max 0
	# -p pages any command, but run, mcp and one reading a terminal
	tty p-prune PAGER="$mark" "$CONVCTL_BIN" -p prune --dry-run --max 0
	tty p-run PAGER="$mark" "$CONVCTL_BIN" -p run --prompt hi -- echo there
	tty p-add PAGER="$mark" "$CONVCTL_BIN" -p add --role assistant note
	# through the pager output is written as for the terminal
	tty colour TERM=xterm PAGER="$mark" "$CONVCTL_BIN" search first
	# a pager quit early is no failure, and convctl waits for it (done is
	# made by the pager only)
	tty quit-show CONVCTL_PAGER="head -c 10" "$CONVCTL_BIN" show $big
	tty quit-prompt CONVCTL_PAGER="head -c 10" "$CONVCTL_BIN" prompt $big
	tty wait CONVCTL_PAGER="cat >/dev/null; sleep 1; echo done >done" \
	    sh -c "test ! -e done && \"\$1\" show $big; echo \"exit \$?\"; cat done" \
	    sh "$CONVCTL_BIN"
} >"$T/ttys"
python3 "$top/tests/helpers/on-ttys.py" "$T" <"$T/ttys" ||
    echo "# on-ttys.py: exit status $?"

# ran NAME: command NAME ran to exit 0 (as on_tty's status), else says so,
# with what its terminal saw
ran() {
	ran_status=
	[ ! -f "$T/$1.status" ] || read -r ran_status <"$T/$1.status"
	[ "$ran_status" = 0 ] || {
		echo "$1: exit ${ran_status:-(not run)}:"
		cat "$T/$1.tty"
		return 1
	}
}

test_expect 'at a terminal recent goes through the pager, LESS=FRX set' '
	ran mark && line_starts "paged: conv-1770026400000	" mark.tty &&
	line_starts "paged: conv-1769940000000	" mark.tty &&
	ran less && line_starts "LESS=FRX LV=-c" less.tty &&
	ran less-kept && line_starts LESS=SM less-kept.tty
'

test_expect 'not when standard output is a pipe or a file' '
	ran pipe && line_starts "conv-1770026400000	" pipe.tty && lacks paged pipe.tty &&
	ran file && line_starts "conv-1770026400000	" out && lacks paged out file.tty
'

test_expect 'CONVCTL_PAGER over the pager setting over PAGER' '
	ran over-all && line_starts "paged: conv-" over-all.tty && lacks pager: over-all.tty &&
	ran setting && line_starts setting:conv- setting.tty &&
	ran pager && line_starts pager:conv- pager.tty
'

test_expect '--no-pager, a pager of cat or empty, and a writer: no pager' '
	ran no-pager && line_starts "conv-1770026400000	" no-pager.tty &&
	lacks paged no-pager.tty &&
	ran cat && line_starts "conv-1770026400000	" cat.tty && lacks paged cat.tty &&
	ran empty && line_starts "conv-1770026400000	" empty.tty && lacks paged empty.tty &&
	ran config && line_starts "pager " config.tty &&
	! line_starts paged config.tty >/dev/null &&
	ran writer && line_starts conv- writer.tty && lacks paged writer.tty
'

test_expect '-p pages any command, but run, mcp and one reading a terminal' '
	ran p-prune && line_starts "paged: conv-" p-prune.tty &&
	ran p-run && line_starts there p-run.tty && lacks paged p-run.tty &&
	ran p-add && line_starts conv- p-add.tty && lacks paged p-add.tty
'

test_expect 'through the pager output is written as for the terminal' '
	ran colour && line_like "paged: *$esc[[]*" colour.tty
'

test_expect 'a pager quit early is no failure, and convctl waits for it' '
	ran quit-show && file_is "conversati" quit-show.tty &&
	ran quit-prompt && file_is "## Current" quit-prompt.tty &&
	ran wait && line_starts "exit 0" wait.tty && line_starts done wait.tty
'

test_done
