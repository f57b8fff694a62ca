#!/bin/sh
# progress on stderr: only when stderr is a terminal
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

i=0
while [ $i -lt 5 ]; do
	CONVCTL_NOW=2026-02-0$((i + 1))T10:00:00Z convctl add "m $i" >/dev/null
	i=$((i + 1))
done

test_expect 'prune shows its progress when stderr is a terminal' '
	store_json "$CONVCTL_STORE" >keep.json &&
	on_tty --stdout "$T/stdout" "$CONVCTL_BIN" prune --max 1 >tty &&
	holds "convctl: prune: removing 3/3" tty &&
	lines_are 3 "$T/stdout"
'

test_expect 'and not a byte of it when stderr is a file or a pipe' '
	store_seed "$CONVCTL_STORE" <keep.json &&
	convctl prune --max 1 >out 2>err &&
	lines_are 3 out && test ! -s err
'

test_expect 'one conversation is no progress worth showing' '
	on_tty --stdout "$T/stdout" "$CONVCTL_BIN" prune --max 0 >tty &&
	lines_are 1 "$T/stdout" && lacks removing tty
'
test_done
