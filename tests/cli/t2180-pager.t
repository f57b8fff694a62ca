#!/bin/sh
# the pager: a reader's output at a terminal goes through one, as git's does
# check: plain-only (the pager is cmd/'s: no lib/ line that another file does not run)
. "$(dirname "$0")/../lib.sh"
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
mkdir -p "$XDG_CONFIG_HOME/convctl"
# the escape character, for a colour's escape sequence (no $(printf) fork)
printf '\033\n' >"$T/esc" && IFS= read -r esc <"$T/esc"
big=conv-1770112800000	# the 300 KB one

test_expect 'at a terminal recent goes through the pager, LESS=FRX set' '
	CONVCTL_PAGER="$mark" on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts "paged: conv-1770026400000	" tty &&
	line_starts "paged: conv-1769940000000	" tty &&
	CONVCTL_PAGER="echo \"LESS=\$LESS LV=\$LV\"; cat >/dev/null" \
	    on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts "LESS=FRX LV=-c" tty &&
	LESS=SM CONVCTL_PAGER="echo \"LESS=\$LESS\"; cat >/dev/null" \
	    on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts LESS=SM tty
'

test_expect 'not when standard output is a pipe or a file' '
	CONVCTL_PAGER="$mark" on_tty sh -c "\"\$1\" recent | cat" sh \
	    "$CONVCTL_BIN" >tty &&
	line_starts "conv-1770026400000	" tty && lacks paged tty &&
	CONVCTL_PAGER="$mark" on_tty --stdout out "$CONVCTL_BIN" recent >tty &&
	line_starts "conv-1770026400000	" out && lacks paged out tty
'

test_expect 'CONVCTL_PAGER over the pager setting over PAGER' '
	PAGER="sed s/^/pager:/" CONVCTL_PAGER="$mark" \
	    on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts "paged: conv-" tty && lacks pager: tty &&
	echo "pager = sed s/^/setting:/" >"$XDG_CONFIG_HOME/convctl/config" &&
	PAGER="sed s/^/pager:/" on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts setting:conv- tty &&
	: >"$XDG_CONFIG_HOME/convctl/config" &&
	PAGER="sed s/^/pager:/" on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts pager:conv- tty
'

test_expect '--no-pager, a pager of cat or empty, and a writer: no pager' '
	CONVCTL_PAGER="$mark" on_tty "$CONVCTL_BIN" --no-pager recent >tty &&
	line_starts "conv-1770026400000	" tty && lacks paged tty &&
	echo "pager = cat" >"$XDG_CONFIG_HOME/convctl/config" &&
	PAGER="$mark" on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts "conv-1770026400000	" tty && lacks paged tty &&
	echo "pager =" >"$XDG_CONFIG_HOME/convctl/config" &&
	PAGER="$mark" on_tty "$CONVCTL_BIN" recent >tty &&
	line_starts "conv-1770026400000	" tty && lacks paged tty &&
	: >"$XDG_CONFIG_HOME/convctl/config" &&
	PAGER="$mark" on_tty "$CONVCTL_BIN" --no-pager config >tty &&
	line_starts "pager " tty &&
	! line_starts paged tty >/dev/null &&
	PAGER="$mark" on_tty "$CONVCTL_BIN" prune --dry-run --max 0 >tty &&
	line_starts conv- tty && lacks paged tty
'

test_expect '-p pages any command, but run, mcp and one reading a terminal' '
	PAGER="$mark" on_tty "$CONVCTL_BIN" -p prune --dry-run --max 0 >tty &&
	line_starts "paged: conv-" tty &&
	PAGER="$mark" on_tty "$CONVCTL_BIN" -p run --prompt hi -- echo there >tty &&
	line_starts there tty && lacks paged tty &&
	PAGER="$mark" on_tty "$CONVCTL_BIN" -p add --role assistant note >tty &&
	line_starts conv- tty && lacks paged tty
'

test_expect 'through the pager output is written as for the terminal' '
	TERM=xterm PAGER="$mark" on_tty "$CONVCTL_BIN" search first >tty &&
	has_match "paged: *$esc[[]*" tty
'

test_expect 'a pager quit early is no failure, and convctl waits for it' '
	CONVCTL_PAGER="head -c 10" on_tty "$CONVCTL_BIN" show $big >tty &&
	file_is "conversati" tty &&
	CONVCTL_PAGER="head -c 10" on_tty "$CONVCTL_BIN" prompt $big >tty &&
	file_is "## Current" tty &&
	test ! -e done &&
	CONVCTL_PAGER="cat >/dev/null; sleep 1; echo done >done" \
	    on_tty sh -c "\"\$1\" show $big; echo \"exit \$?\"; cat done" sh \
	    "$CONVCTL_BIN" >tty &&
	line_starts "exit 0" tty && line_starts done tty
'

test_done
