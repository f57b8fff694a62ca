#!/bin/sh
# search's fast path on a file store (lib/store/file-search.c) looks at the bytes
# first: it skips, unparsed, the conversations and messages whose bytes
# cannot hold a match, decodes only the others, and matches a plain query
# without the regular expression matcher (character by character, as
# glibc's compares them). It must never change what search prints (but
# where glibc's matcher loses its place after a character whose upper case
# is longer, such as U+023F, which the random texts do not hold: t3000-search.t). Random stores and queries (tests/helpers/searchprop.py),
# with random filters, searched by it (with the index and without) and with
# every conversation parsed (CONVCTL_SEARCH_NO_PREFILTER=1);
# SEARCHPROP_STORES=N sets how many stores (5 in make check, 30 at
# full counts, TEST_FULL=1; 12 queries each). On PostgreSQL the search is
# SQL (the same text condition, over a trigram index): as many random
# stores of another seed (fewer make the random filters miss code of the
# engine: tags, for one), copied into a
# cluster of this file's own, answer every query, with filters, as the file
# does with every conversation parsed (at full counts the file's fast path
# is compared on those too; make check leaves that to the case before).
# On SQLite the search goes through an FTS5 trigram index: random stores
# of a third seed, each copied into a database, answer every query as the
# file does.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "this file compares the file engine with PostgreSQL and SQLite itself"
pg_share=yes	# a database of the file's own on make check's cluster
. "$top/tests/pg.sh"

S=$CONVCTL_STORE
N=${SEARCHPROP_STORES:-$(counts 5 30)}
[ -n "${CONVCTL_WRAPPER:-}" ] && N=4
export T CONVCTL_BIN CONVCTL_WRAPPER

# both ways, the same output and status; the lines found in out
both() {
	convctl "$@" >out 2>err; a=$?
	CONVCTL_SEARCH_NO_PREFILTER=1 convctl "$@" >out.off 2>err.off; b=$?
	test "$a" = "$b" && same_file out.off out && same_file err.off err
}
TAB='	'

# what a query finds through escapes, wherever in the text they are
printf '%s' '{"conversations":[
{"id":"c-esc","startedAt":"2026-02-04T10:00:00.000Z","endedAt":"2026-02-04T10:01:00.000Z","title":null,"summary":null,"messages":[
 {"id":"m1","timestamp":"2026-02-04T10:00:00.000Z","role":"user","content":"buy \u006D\u0049LK now"},
 {"id":"m2","timestamp":"2026-02-04T10:00:01.000Z","role":"user","content":"path a\/b and \"quoted\"\ttab"},
 {"id":"m3","timestamp":"2026-02-04T10:00:02.000Z","role":"user","content":"caf\u00e9 \ud83d\ude80 line\nnext"}]},
{"id":"c-fold","startedAt":"2026-02-04T11:00:00.000Z","endedAt":"2026-02-04T11:01:00.000Z","title":null,"summary":null,"messages":[
 {"id":"m4","timestamp":"2026-02-04T11:00:00.000Z","role":"user","content":"ſeſſion dıff"},
 {"id":"m5","timestamp":"2026-02-04T11:00:01.000Z","role":"user","content":"\u212Aelvin İstanbul"}]}]}' >"$S"

test_expect 'a match spelled with JSON escapes in the file is found' '
	both search milk && cut_is 1,4 out "c-esc${TAB}buy mILK now" &&
	both search "a/b" && cut_is 1 out c-esc &&
	both search "\"quoted\"" && cut_is 1 out c-esc &&
	both search "quoted\"${TAB}tab" && cut_is 1 out c-esc &&
	printf "caf\303\251 \360\237\232\200 line\n" >want && read -r want <want &&
	both search "CAFÉ" && cut_is 4 out "$want" &&
	both search -E "^next" && cut_is 4 out next
'

test_expect 'an alternation needs none of its branches: each is found alone' '
	printf "%s" "{\"conversations\":[{\"id\":\"c-ru\",\"startedAt\":\"2026-02-04T10:00:00.000Z\",\"endedAt\":\"2026-02-04T10:01:00.000Z\",\"title\":null,\"summary\":null,\"messages\":[{\"id\":\"m1\",\"timestamp\":\"2026-02-04T10:00:00.000Z\",\"role\":\"user\",\"content\":\"Привет\"}]}]}" >alt.json &&
	convctl -s alt.json search -E "milk|Привет" >out && cut_is 4 out Привет &&
	convctl -s alt.json search -E "Привет|milk" >out && cut_is 4 out Привет
'

# glibc folds case by towupper(): long s and dotless i are s and i, while
# the Kelvin sign and dotted capital I (whose towlower() is k and i) are not
test_expect 'case folds beyond ASCII as the matcher does: long s, dotless i' '
	both search session && cut_is 4 out "ſeſſion dıff" &&
	both search DIFF && cut_is 4 out "ſeſſion dıff" &&
	both search kelvin && test ! -s out &&
	printf "\342\204\252elvin \304\260stanbul\n" >want && read -r want <want &&
	both search stanbul && cut_is 4 out "$want" &&
	both search istanbul && test ! -s out
'

test_expect 'random stores, queries and filters: the same output by the fast path and parsed' '
	python3 "$top/tests/helpers/searchprop.py" "$N" 1 >"$T/summary"
'
# comment FILE: FILE's lines as TAP comments, by the shell (nothing when
# there is no FILE)
comment() {
	while IFS= read -r l; do echo "# $l"; done <"$1"
}
comment "$T/summary"

test_pg 'random stores and queries with filters: the same output on a file and on PostgreSQL' '
	python3 "$top/tests/helpers/searchprop.py" $(counts --db-only "") \
	    "$N" 2 "$PG_URI" >"$T/summary.pg"
'
comment "$T/summary.pg" 2>/dev/null

test_expect 'random stores and queries with filters: the same output on a file and on SQLite' '
	mkdir -p "$T/sq" &&
	python3 "$top/tests/helpers/searchprop.py" --db-only "$N" 3 \
	    "sqlite:$T/sq" >"$T/summary.sqlite"
'
comment "$T/summary.sqlite" 2>/dev/null

# the SQLite engine's index (FTS5, trigrams) sends only the messages that
# may match: a damaged one is never read by a search it cannot answer
test_expect 'SQLite searches through its index: a message that cannot match is never read' '
	convctl copy "$S" "sqlite:$T/where.db" 2>/dev/null &&
	python3 -c "import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute(\"update messages set doc = replace(doc, \x272026-02-04T10:00:01.000Z\x27, \x27noon\x27) where id = \x27m2\x27\")
c.commit()" "$T/where.db" &&
	convctl -s "sqlite:$T/where.db" search milk >out &&
	cut_is 1,4 out "c-esc${TAB}buy mILK now" &&
	fails_with 1 convctl -s "sqlite:$T/where.db" search quoted &&
	stderr_has "conversation '"'c-esc'"': message 1: bad timestamp"
'

# what would differ if the expression were PostgreSQL's: a backslash in
# brackets is itself in POSIX, an escape there; \b is a word boundary in
# glibc, a backspace there. The database only narrows by the text every
# match holds; the expression is always matched as POSIX says
# the database sends only the messages that may match: one whose row is
# damaged (a time that is no time), which loading every conversation stops
# at, is never read by a search it cannot answer, and a search that can
# reach it says where it is
test_pg 'PostgreSQL searches in the database: a message that cannot match is never read' '
	D="$PG_URI&schema=where" &&
	convctl copy "$S" "$D" 2>/dev/null &&
	psql_as "update \"where\".messages set doc = replace(doc::text,
	    '"'2026-02-04T10:00:01.000Z'"', '"'noon'"')::json where id = '"'m2'"'" &&
	convctl -s "$D" search milk >out && cut_is 1,4 out "c-esc${TAB}buy mILK now" &&
	fails_with 1 convctl -s "$D" search quoted &&
	stderr_has "conversation '"'c-esc'"': message 1: bad timestamp"
'

test_pg 'POSIX ERE where PostgreSQL reads otherwise: answered as POSIX, on both' '
	D="$PG_URI&schema=ere" &&
	convctl copy "$S" "$D" 2>/dev/null &&
	for q in "a[\\/]b" "quoted\\b" "C[:\\d]" "(a)\\1" "m[\\w]"; do
		convctl search -E --json "$q" >f.out 2>f.err; a=$?
		convctl -s "$D" search -E --json "$q" >d.out 2>d.err; b=$?
		test "$a" = "$b" && same_file f.out d.out || exit 1
	done &&
	convctl search -E "a[\\/]b" >f.out && cut_is 1 f.out c-esc &&
	convctl -s "$D" search -E "quoted\\b" >d.out && cut_is 1 d.out c-esc
'

# what skipping shows from outside: a conversation skipped is never parsed
# into jansson's objects, which take more memory than its bytes. A query
# found nowhere in a 10 MB store: the peak RSS with the prefilter is less
# than without by more than half the store's size (not under a wrapper,
# whose own memory blurs it)
if [ -z "${CONVCTL_WRAPPER:-}" ]; then
	test_expect 'a conversation that cannot match is not parsed' '
		python3 "$top/bench/gen.py" 400 7 big.json >/dev/null &&
		wc -c <big.json >size && read -r size <size && test "$size" -gt 8000000 &&
		python3 -c "import os, subprocess, sys
# each run its own peak (wait4: that child alone), the prefilter on, then off
for off in (False, True):
    env = dict(os.environ)
    if off: env[\"CONVCTL_SEARCH_NO_PREFILTER\"] = \"1\"
    p = subprocess.Popen(sys.argv[1:], env=env)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = 0	# reaped here, not by Popen
    print(usage.ru_maxrss if status == 0 else -1)" \
		    "$CONVCTL_BIN" -s big.json search kubernetes >rss &&
		{ read -r rss0 && read -r rss1; } <rss &&
		echo "peak RSS $rss0 KB with the prefilter, $rss1 KB without, store $size bytes" &&
		test "$rss0" -gt 0 && test "$rss1" -gt 0 &&
		test $(( (rss1 - rss0) * 1024 )) -gt $((size / 2))
	'
else
	test_n=$((test_n + 1))
	echo "ok $test_n # SKIP peak memory: not measured under a wrapper"
fi

test_done
