#!/bin/sh
# The SQLite store (sqlite:PATH): the same commands give the same output as
# on a file; its schema as convctl(5) tells it, and what it refuses; copy
# keeps every byte; one writer at a time, --wait, writers killed.
# check: pg (an engine of its own)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t8100-sqlite.t compares both engines itself"
. "$top/tests/engines.sh"

F=$T/store.json D=sqlite:$T/parity.db
counts_to kills 12 40

# sql DB STATEMENT...: each statement's rows on DB (a file), through
# Python's sqlite3 (the same libsqlite3), one line a row, "|" between
# columns, committed at the end; exits 1 with the error (on standard error)
# when one fails, nothing of that call committed. One python serves the
# whole file's calls, through two FIFOs (fd 7 its requests, fd 8 its
# answers), not a python a call: a request is the database's line, each
# statement's lines and a line ".;." after each, then ".end."; the answer
# is the rows' lines, "@@err MESSAGE" on an error, then "@@rc STATUS"
mkfifo "$T/sql.in" "$T/sql.out" || exit 1
# started apart ( & in a subshell), so that no case's wait waits for it;
# it ends when the file's shell does, closing fd 7
( python3 -c 'import sqlite3, sys
inp, out = sys.stdin, sys.stdout
while True:
    db = inp.readline()
    if not db:
        break
    qs, q = [], []
    while True:
        line = inp.readline()
        if line in ("", ".end.\n"):
            break
        if line == ".;.\n":
            qs.append("".join(q))
            q = []
        else:
            q.append(line)
    rc = 0
    try:
        c = sqlite3.connect(db[:-1])
        try:
            for sql in qs:
                for row in c.execute(sql):
                    out.write("|".join("" if v is None else str(v) for v in row) + "\n")
            c.commit()
        finally:
            c.close()
    except Exception as e:
        out.write("@@err %s: %s\n" % (type(e).__name__, str(e).replace("\n", " ")))
        rc = 1
    out.write("@@rc %d\n" % rc)
    out.flush()' <"$T/sql.in" >"$T/sql.out" & )
exec 7>"$T/sql.in" 8<"$T/sql.out"
sql() {
	printf "%s\n" "$1" >&7
	shift
	for sq_q; do printf "%s\n.;.\n" "$sq_q" >&7; done
	printf ".end.\n" >&7
	sq_rc=1	# when the python is gone: no answer
	while IFS= read -r sq_l <&8; do
		case $sq_l in
		"@@rc "*) sq_rc=${sq_l#"@@rc "}; break ;;
		"@@err "*) printf "%s\n" "${sq_l#"@@err "}" >&2 ;;
		*) printf "%s\n" "$sq_l" ;;
		esac
	done
	return "$sq_rc"
}

test_expect 'a scripted session prints the same on SQLite as on a file' '
	session "$F" >file.out &&
	session "$D" >db.out &&
	has_line "== exit 4" file.out && has_line "== exit 0" file.out &&
	test_cmp file.out db.out
'

test_expect 'the database holds a row per conversation and per message; its views read them, its search index is whole' '
	convctl copy "$D" - >parity.json &&
	jq "(.conversations | length),
	    ([.conversations[].messages[]] | length)" parity.json >want &&
	lines_are 2 want && { read -r c && read -r m; } <want &&
	# the rows; the schema version, the journal, the views; the first
	# message of "Groceries"; the search index checked: one python
	sql "$T/parity.db" "select count(*) from conversations" \
	    "select count(*) from messages" \
	    "pragma user_version" "pragma journal_mode" \
	    "select count(*) from conversation_list" \
	    "select count(*) from message_list" \
	    "select content from message_list where
	    conversation = (select id from conversation_list where title =
	    \"Groceries\") order by seq limit 1" \
	    "insert into messages_text (messages_text) values
	    ('"'integrity-check'"')" "pragma integrity_check" >rows &&
	file_is "$c
$m
2
wal
$c
$m
Added milk.
ok" rows
'

# counted: (a query for sql) the ended conversations as the schema counts
# them, and as their rows do, on one line
counted="select (select ended from counts), (select count(*) from
    conversations where ended_at is not null)"

test_expect 'the schema counts the ended conversations through add, end, delete and prune; a version 1 store is upgraded by a writer' '
	C=sqlite:$T/counted.db &&
	for i in 1 2 3 4 5; do
		convctl -s "$C" add "c$i" >/dev/null && convctl -s "$C" end >/dev/null ||
		    return 1
	done &&
	convctl -s "$C" add "open" >/dev/null &&
	sql "$T/counted.db" "$counted" >n && file_is "5|5" n &&
	convctl -s "$C" recent -n 1 --json >latest.json &&
	jq -r ".[0].id" latest.json >latest && read -r id <latest &&
	convctl -s "$C" delete --force "$id" >/dev/null &&
	sql "$T/counted.db" "$counted" >n && file_is "4|4" n &&
	convctl -s "$C" prune --max 2 >/dev/null &&
	# counted, then the schema made version 1 again, in one python
	sql "$T/counted.db" "$counted" \
	    "drop trigger conversations_count_insert" \
	    "drop trigger conversations_count_delete" \
	    "drop trigger conversations_count_update" "drop table counts" \
	    "pragma user_version = 1" >n && file_is "2|2" n &&
	convctl -s "$C" recent >recent.out &&
	k=0 && while IFS= read -r l; do [ -z "$l" ] || k=$((k + 1)); done <recent.out &&
	test "$k" -ge 2 &&
	sql "$T/counted.db" "pragma user_version" >n && file_is 1 n &&
	convctl -s "$C" end >/dev/null &&
	sql "$T/counted.db" "pragma user_version" "$counted" >n &&
	file_is "2
3|3" n
'

test_expect 'the database refuses a second active conversation and a bad role' '
	! sql "$T/parity.db" "insert into conversations (id, started_at,
	    message_count, doc) values (\"x1\", 0, 0, \"{}\")" \
	    "insert into conversations (id, started_at, message_count, doc)
	    values (\"x2\", 0, 0, \"{}\")" 2>err &&
	holds conversations_one_active err &&
	! sql "$T/parity.db" "insert into messages (conversation, seq, role, at,
	    doc) values ((select id from conversations limit 1), 999, \"wizard\",
	    0, \"{}\")" 2>err && holds CHECK err
'

test_expect 'copy to SQLite and back keeps every byte, unknown fields and number texts' '
	R=sqlite:$T/roundtrip.db &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	holds "copied 2 conversations" err &&
	convctl copy "$R" "$T/back.json" &&
	convctl copy "$T/odd.json" - >want &&
	same_file want "$T/back.json" &&
	convctl copy "$R" - >again && same_file want again
'

test_expect 'copying again adds nothing; a conversation that differs is refused' '
	R=sqlite:$T/roundtrip.db &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	line_like "*copied 0 conversations*; 2 there already*" err &&
	read -r l <"$T/odd.json" && t="\"title\":\"t\"" &&
	case $l in *"$t"*) ;; *) echo "odd.json: no $t"; return 1 ;; esac &&
	printf "%s\n" "${l%%"$t"*}\"title\":\"other\"${l#*"$t"}" >"$T/odd2.json" &&
	fails_with 1 convctl copy "$T/odd2.json" "$R" &&
	stderr_has "conversation '"'c1'"' is in both" &&
	convctl copy "$R" - >now && convctl copy "$T/odd.json" - >want &&
	same_file want now
'

test_expect 'copy of many conversations with escapes, \u0000 and non-ASCII comes back byte for byte, indexed whole for search' '
	R=sqlite:$T/bulk.db &&
	# the stores of this case and the next one: one python
	bulk_store 400 "$T/bulk.json" 2100 "$T/many.json" &&
	convctl copy "$T/bulk.json" "$R" 2>err &&
	holds "copied 400 conversations" err &&
	convctl copy "$T/bulk.json" - >want &&
	convctl copy "$R" - >back && test_cmp want back &&
	sql "$T/bulk.db" "select count(*) from messages" \
	    "insert into messages_text (messages_text) values
	    ('"'integrity-check'"')" "pragma integrity_check" \
	    "select count(*) from messages_text where messages_text match
	    '"'timestamp'"'" \
	    "select count(*) from sqlite_master where type = '"'trigger'"'
	    and name = '"'messages_text_insert'"'" >check &&
	file_is "800
ok
800
1" check &&
	convctl -s "$R" show --json >active &&
	CONVCTL_NOW=2026-01-01T00:10:00Z convctl -s "$R" add "after the copy" &&
	convctl -s "$R" show --json >shown &&
	convctl -s "$R" search --json "after the copy" >found &&
	convctl -s "$R" end && convctl -s "$R" copy "$R" - >after &&
	# the active conversation before the add, after it, what search
	# found and the store after end, read by one jq
	jq -s . active shown found after >all.json &&
	jq_is all.json -r ".[0].id" "c	400" -c ".[1].messages | length" 3 \
	    -c ".[2] | length" 1 \
	    -c "[.[3].conversations[].endedAt | select(. == null)] | length" 0
'

# more messages may match than search sorts (2000): -n walks them by time
test_expect 'search -n through many matches prints what the file prints' '
	convctl copy "$T/many.json" "sqlite:$T/many.db" 2>/dev/null &&
	# the output and status of each search, on the file in f/, on SQLite
	# in d/: one diff for them all
	mkdir f d && i=0 &&
	for q in "-n 3 slash" "-n 1 --json CAF" "-n 5 -r assistant xxx" \
	    "-n 2 --case-sensitive back" "-n 4 2026" "slash"; do
		i=$((i + 1))
		convctl -s "$T/many.json" search $q >f/$i 2>&1
		echo "$q: exit $?" >>f/status
		convctl -s "sqlite:$T/many.db" search $q >d/$i 2>&1
		echo "$q: exit $?" >>d/status
	done &&
	diff -ru f d && wc -l <f/$i >n && read -r n <n && test "$n" -gt 2000
'

# every process that opens the database first reads the WAL again: a
# commit that leaves it long (a prune of hundreds) empties it
test_expect 'the WAL is kept short: a prune of hundreds of conversations leaves it short' '
	convctl copy "$T/bulk.json" "sqlite:$T/wal.db" 2>/dev/null &&	# 400
	convctl -s "sqlite:$T/wal.db" add first >/dev/null &&
	CONVCTL_MAX_CONVERSATIONS=10 convctl -s "sqlite:$T/wal.db" end 2>err &&
	holds "removed 391 oldest" err &&
	stat -c %s "$T/wal.db-wal" >size && read -r size <size &&
	test "$size" -lt 1048576 &&
	convctl -s "sqlite:$T/wal.db" recent -n 100 >out && lines_are 10 out
'

test_expect 'made on the first write, 0600 in directories made 0700; a write of nothing leaves it empty' '
	umask 022 &&
	convctl -s "sqlite:$T/new/dir/s.db" recent >out && test ! -s out &&
	test ! -e "$T/new" &&
	convctl -s "sqlite:$T/new/dir/s.db" end 2>err &&
	test ! -s "$T/new/dir/s.db" &&
	convctl -s "sqlite:$T/new/dir/s.db" add hi >/dev/null &&
	stat -c "%a %n" "$T/new" "$T/new/dir" "$T"/new/dir/s.db* >modes &&
	k=0 && while read -r mode f; do
		case $f in "$T/new" | "$T/new/dir") want=700 ;; *) want=600 ;; esac
		test "$mode" = "$want" || { echo "$f: $mode, want $want"; return 1; }
		k=$((k + 1))
	done <modes && test "$k" -ge 3 &&
	convctl -s "sqlite:$T/new/dir/s.db" show --json >shown &&
	jq_is shown -r ".messages[0].content" hi
'

test_expect 'a database convctl did not make, a newer schema, and no file name are refused' '
	convctl -s "sqlite:$T/newer.db" add hi >/dev/null &&
	# a table in a database of its own, and newer.db made version 9: one
	# python
	sql "$T/other.db" "create table t (x)" \
	    "attach database '"'$T/newer.db'"' as newer" \
	    "pragma newer.user_version = 9" &&
	fails_with 1 convctl -s "sqlite:$T/other.db" recent &&
	stderr_has "is a SQLite database with tables of its own and no convctl schema" &&
	fails_with 1 convctl -s "sqlite:$T/newer.db" recent &&
	stderr_has "has schema version 9, and this convctl knows versions 1 to 2: use a newer convctl" &&
	echo "{}" >"$T/json.db" &&
	fails_with 1 convctl -s "sqlite:$T/json.db" recent &&
	stderr_has "file is not a database" &&
	fails_with 2 convctl -s sqlite: recent &&
	stderr_has "store '"'sqlite:'"' names no file: sqlite:PATH"
'

# holder DB: a writer's transaction on DB held by Python's sqlite3 until
# $T/release exists; $T/holding says it has the lock
holder() {
	python3 -c 'import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("begin immediate")
open(sys.argv[2] + "/holding", "w").close()
while not os.path.exists(sys.argv[2] + "/release"):
    time.sleep(0.05)
c.execute("rollback")' "$1" "$T"
}

test_expect '--wait bounds the wait for another writer, then exit 75 (try again)' '
	W=sqlite:$T/waiting.db &&
	convctl -s "$W" add first >/dev/null &&
	{ holder "$T/waiting.db" & } &&
	wait_until "test -e $T/holding" &&
	fails_with 75 convctl -s "$W" --wait 1 add hi &&
	stderr_has "store '"'"'$W'"'"' is locked by another convctl; gave up after 1 seconds (nothing was written; try again, or raise --wait)" &&
	fails_with 75 convctl -s "$W" --wait 0 add hi &&
	stderr_has "is locked by another convctl; gave up after 0 seconds" &&
	convctl -s "$W" show --json >shown && jq_is shown -c ".messages | length" 1 &&
	: >"$T/release" && wait &&
	convctl -s "$W" --wait 5 add hi >/dev/null &&
	convctl -s "$W" show --json >shown && jq_is shown -c ".messages | length" 2
'

# a connection in SQLite's exclusive locking mode shuts readers out too
test_expect 'a reader shut out past its 10 s exits 75 with the lock message every engine gives' '
	X=sqlite:$T/shut.db &&
	convctl -s "$X" add first >/dev/null &&
	rm -f "$T/holding" "$T/release" &&
	{ python3 -c "import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute(\"pragma locking_mode = exclusive\")
c.execute(\"begin exclusive\")
open(sys.argv[2] + \"/holding\", \"w\").close()
while not os.path.exists(sys.argv[2] + \"/release\"):
    time.sleep(0.05)
c.execute(\"rollback\")" "$T/shut.db" "$T" & } &&
	wait_until "test -e $T/holding" &&
	fails_with 75 convctl -s "$X" recent &&
	stderr_has "store '"'"'$X'"'"' is locked by another convctl; gave up after 10 seconds (nothing was written; try again, or raise --wait)" &&
	: >"$T/release" && wait &&
	convctl -s "$X" recent >/dev/null
'

test_expect '8 writers at once on a database not made yet: each add kept once, in WAL' '
	for w in 1 2 3 4 5 6 7 8; do
		convctl -s "sqlite:$T/first.db" --wait 60 add "w$w" >/dev/null ||
		    echo "w$w failed" &
	done >fails 2>&1 &&
	wait && { test ! -s fails || { cat fails; return 1; }; } &&
	convctl copy "sqlite:$T/first.db" - >first.json &&
	jq_is first.json -r "[.conversations[].messages[].content] | sort | join(\" \")" \
	    "w1 w2 w3 w4 w5 w6 w7 w8" &&
	sql "$T/first.db" "pragma journal_mode" >got && file_is wal got
'

# a reader waits for no writer, but meets SQLite's short exclusive moments
# (the WAL emptied, read again by the first to open it): it waits them out.
# Two writers of 15 adds and 30 prompts in make check (150 and 300 at full
# counts), each a process (three callers at once: the server takes one)
test_expect 'readers alongside two writers never fail' '
	R=sqlite:$T/readers.db &&
	counts_to adds 15 150 && counts_to prompts 30 300 &&
	for w in a b; do
		i=0
		while [ $i -lt $adds ]; do
			i=$((i + 1))
			convctl -s "$R" --wait 60 add "$w$i" >/dev/null || echo "add $w$i failed"
		done &
	done >fails 2>&1 &&
	i=0 &&
	while [ $i -lt $prompts ]; do
		i=$((i + 1))
		convctl -s "$R" prompt >/dev/null || echo "prompt $i failed"
	done >>fails 2>&1 &&
	wait && lacks "" fails	# no line: no failure
'

test_expect 'writers killed at any point: every add that exited 0 is kept, nothing partial' '
	K=sqlite:$T/killed.db &&
	: >acked &&
	trial=0
	while [ $trial -lt $kills ]; do
		trial=$((trial + 1))
		convctl_exec -s "$K" --wait 30 add "k$trial" >/dev/null 2>&1 &
		pid=$!
		sleep 0.0$((trial % 10))
		kill -9 $pid 2>/dev/null
		wait $pid && echo "k$trial" >>acked
	done
	sql "$T/killed.db" "pragma integrity_check" "select count(*) from
	    conversations c where message_count <> (select count(*) from
	    messages m where m.conversation = c.id)" >check &&
	file_is "ok
0" check &&
	convctl copy "$K" - >all &&
	# each message kept once, each add that exited 0 kept: one jq
	jq -r --rawfile acked acked "[.conversations[].messages[].content] as \$c |
	    (\$c | group_by(.)[] | select(length > 1) | \"kept twice: \(.[0])\"),
	    (\$acked | split(\"\\n\")[] | select(. != \"\") as \$m |
	    select(\$c | any(.[]; . == \$m) | not) | \"lost: \(\$m)\")" all >wrong &&
	file_is "" wrong &&
	convctl -s "$K" add "after the kills" >/dev/null
'

test_done
