#!/bin/sh
# search: lines of messages across every conversation
# check: pg sqlite valgrind (search runs as SQL there)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
printf "\033\n" >"$T/esc" && read -r ESC <"$T/esc"	# the cases look for it with holds and lacks
TAB='	' NL='
'

# two conversations: the first ended by the idle timeout
CONVCTL_NOW=2026-02-04T10:00:00Z convctl add 'Buy MILK and eggs' >/dev/null
CONVCTL_NOW=2026-02-04T10:00:05Z convctl add -r assistant 'Added.
Milk is on Lists/Groceries.md
nothing else' >/dev/null
CONVCTL_NOW=2026-02-05T09:00:00Z convctl add 'Is the milk bought?' >/dev/null
CONVCTL_NOW=2026-02-05T09:00:02Z convctl add -r tool --tool grep 'grep: m.lk' >/dev/null

test_expect 'a plain query ignores case and finds every conversation' '
	convctl search milk >out &&
	printf "%s\t%s\t%s\t%s\n" \
	    conv-1770199200000 2026-02-04T10:00:00.000Z user "Buy MILK and eggs" \
	    conv-1770199200000 2026-02-04T10:00:05.000Z assistant "Milk is on Lists/Groceries.md" \
	    conv-1770282000000 2026-02-05T09:00:00.000Z user "Is the milk bought?" >want &&
	same_file want out
'

test_expect 'a plain query is literal, not a pattern' '
	convctl search m.lk >out &&
	cut_is 3,4 out "tool${TAB}grep: m.lk"
'

test_expect '--regex takes a POSIX extended regular expression' '
	convctl search --regex "^(buy|is) " >out &&
	cut_is 4 out "Buy MILK and eggs${NL}Is the milk bought?"
'

test_expect '--case-sensitive tells MILK from milk' '
	convctl search --case-sensitive MILK >out &&
	cut_is 4 out "Buy MILK and eggs"
'

test_expect '--role, --since and --until narrow it' '
	convctl search -r assistant milk >out &&
	cut_is 3 out assistant &&
	convctl search --since 2026-02-05 milk >out &&
	cut_is 1 out conv-1770282000000 &&
	convctl search --until 2026-02-04T10:00:05Z milk >out &&
	cut_is 2 out 2026-02-04T10:00:00.000Z
'

test_expect '-n N keeps the newest N matching lines, oldest first' '
	convctl search -n 2 milk >out &&
	cut_is 2 out "2026-02-04T10:00:05.000Z${NL}2026-02-05T09:00:00.000Z"
'

test_expect '--json gives id, message id, time, role, line and the matches' '
	convctl search --json milk >out && jq -e "length == 3 and
	    .[1].id == \"conv-1770199200000\" and .[1].role == \"assistant\" and
	    .[1].lineNumber == 2 and .[1].match == \"Milk\" and
	    .[1].matches == [[0, 4]] and (.[1].messageId | startswith(\"m-\")) and
	    .[2].timestamp == \"2026-02-05T09:00:00.000Z\"" out >/dev/null
'

test_expect 'no colour when stdout is not a terminal' '
	convctl search milk >out &&
	lacks "$ESC" out
'

test_expect 'the match is coloured on a terminal' '
	TERM=xterm on_tty "$CONVCTL_BIN" search --case-sensitive MILK >out &&
	holds "Buy $ESC[1;31mMILK$ESC[m and eggs" out
'

test_expect 'NO_COLOR turns the colour off even on a terminal' '
	NO_COLOR=1 TERM=xterm on_tty "$CONVCTL_BIN" search --case-sensitive MILK >out &&
	holds "Buy MILK and eggs" out &&
	lacks "$ESC" out
'

test_expect 'TERM=dumb, or no TERM, gets no colour on a terminal' '
	TERM=dumb on_tty "$CONVCTL_BIN" search --case-sensitive MILK >out &&
	holds "Buy MILK and eggs" out && lacks "$ESC" out &&
	(unset TERM && on_tty "$CONVCTL_BIN" search --case-sensitive MILK) >out &&
	holds "Buy MILK and eggs" out && lacks "$ESC" out
'

test_expect '--color=always colours a pipe, --color=never a terminal' '
	convctl search --color=always --case-sensitive MILK >out &&
	holds "Buy $ESC[1;31mMILK$ESC[m and eggs" out &&
	NO_COLOR=1 TERM=dumb convctl search --color always --case-sensitive MILK >out2 &&
	same_file out out2 &&
	TERM=xterm on_tty "$CONVCTL_BIN" search --color=never --case-sensitive MILK >out &&
	holds "Buy MILK and eggs" out && lacks "$ESC" out &&
	TERM=xterm on_tty "$CONVCTL_BIN" search --color=auto --case-sensitive MILK >out &&
	holds "$ESC" out &&
	fails_with 2 convctl search --color=sometimes MILK &&
	stderr_has "search: --color expects auto, always or never, not '\''sometimes'\''"
'

test_expect 'case folds beyond ASCII, whatever the locale' '
	CONVCTL_NOW=2026-02-05T09:00:03Z convctl add "Grüße: ÄPFEL und Öl" >/dev/null &&
	LC_ALL=C convctl search äpfel >out &&
	cut_is 4 out "Grüße: ÄPFEL und Öl" &&
	convctl search --json -E "gr.ße" >out && jq_is out -r ".[0].match" Grüße
'

test_expect 'a pattern that matches the empty string ends, one line a hit' '
	convctl search --json -E "z*" >out &&
	jq_is out -c length 7 -c ".[0].matches[:2]" "[[0,0],[1,1]]"
'

test_expect 'nothing found: empty output, exit 0' '
	convctl search zebra >out && test ! -s out
'

test_expect 'a bad pattern, role or time is a usage error' '
	fails_with 2 convctl search --regex "(" &&
	stderr_has "invalid regular expression" &&
	fails_with 2 convctl search -r robot x &&
	stderr_has "unknown role '\''robot'\'' (expected user, assistant, system or tool)" &&
	fails_with 2 convctl search --since yesterday x && stderr_has "--since" &&
	fails_with 2 convctl search "" && stderr_has "empty query"
'
# issue 40: a query is bounded, in characters, the same for the CLI and MCP
# (t7000-mcp.t); a plain ASCII one is found without the regular expression matcher
test_expect 'a query of 4096 characters is taken, one of 4097 refused naming the limit' '
	a4096=a e4096=é i=0 &&
	while [ $i -lt 12 ]; do a4096=$a4096$a4096 e4096=$e4096$e4096 i=$((i + 1)); done &&
	CONVCTL_NOW=2026-02-05T09:00:04Z convctl add "x${a4096}y
é${e4096}" >/dev/null &&
	convctl search --json "$a4096" >a.out && convctl search --json -E "$a4096" >ae.out &&
	convctl search --json "$e4096" >e.out &&
	jq -ne "(input | length == 1 and .[0].matches == [[1, 4097]]) and
	    (input | length == 1 and .[0].matches == [[1, 4097]]) and
	    (input | length == 1 and .[0].matches == [[0, 8192]])" a.out ae.out e.out >/dev/null &&
	fails_with 2 convctl search "${a4096}a" &&
	stderr_has "convctl: search: query is 4097 characters long; at most 4096 are taken" &&
	fails_with 2 convctl search -E "é${e4096}" &&
	stderr_has "convctl: search: query is 4097 characters long; at most 4096 are taken"
'

# a plain query is matched without regcomp(), so without its tree's memory,
# character by character as glibc's matcher compares them; unlike it, not
# losing its place after a character whose upper case is longer in UTF-8
test_expect 'a plain query beyond ASCII finds every match, also after U+023F' '
	CONVCTL_NOW=2026-02-05T09:00:05Z convctl add "ȿé ɐÉ ⱥé ſé" >/dev/null &&
	convctl search --json "é" >e.out && convctl search --json "sé" >se.out &&
	convctl search --json --case-sensitive "É" >E.out &&
	jq -cn "input, input, input | .[-1].matches" e.out se.out E.out >got &&
	printf "%s\n" "[[2,4],[7,9],[13,15],[18,20]]" "[[16,20]]" "[[7,9]]" >want && same_file want got
'

# issue 15: Chatsidian's "filter by tools used"
test_expect '--tool keeps only messages whose toolsUsed names that tool' '
	use_store tools &&
	CONVCTL_NOW=2026-03-01T10:00:00Z convctl add -r assistant --tool read_file --tool edit_file "edited the list" >/dev/null &&
	CONVCTL_NOW=2026-03-01T10:00:01Z convctl add -r assistant --tool read_file "read the list" >/dev/null &&
	CONVCTL_NOW=2026-03-01T10:00:02Z convctl add "the list, again" >/dev/null &&
	convctl search --tool edit_file list >out && cut_is 4 out "edited the list" &&
	convctl search --tool read_file --json list >out &&
	jq_is out -r ".[].line" "edited the list${NL}read the list" &&
	convctl search --tool read list >got && test ! -s got &&
	convctl search list >out && lines_are 3 out
'
test_done
