#!/bin/sh
# The SQLite store (sqlite:PATH): the same commands give the same output as
# on a file; its schema as convctl(5) tells it, and what it refuses; copy
# keeps every byte; one writer at a time, --wait, writers killed.
# check: pg (an engine of its own)
. "$(dirname "$0")/../lib.sh"
file_store_only "t8100-sqlite.t compares both engines itself"
. "$top/tests/engines.sh"

F=$T/store.json D=sqlite:$T/parity.db
kills=$(counts 12 40)

# sql DB STATEMENT...: each statement's rows on DB (a file), through
# Python's sqlite3 (the same libsqlite3), one line a row, "|" between
# columns; exits 1 with the error when one fails
sql() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for q in sys.argv[2:]:
    for row in c.execute(q):
        print("|".join("" if v is None else str(v) for v in row))
c.commit()' "$@"
}

test_expect 'a scripted session prints the same on SQLite as on a file' '
	session "$F" >file.out &&
	session "$D" >db.out &&
	has_line "== exit 4" file.out && has_line "== exit 0" file.out &&
	test_cmp file.out db.out
'

test_expect 'the database holds a row per conversation and per message; its views read them, its search index is whole' '
	sql "$T/parity.db" "select count(*) from conversations" \
	    "select count(*) from messages" >rows &&
	convctl copy "$D" - | jq "(.conversations | length),
	    ([.conversations[].messages[]] | length)" >want &&
	test "$(wc -l <want)" = 2 && test_cmp want rows &&
	sql "$T/parity.db" "pragma user_version" "pragma journal_mode" \
	    "select count(*) from conversation_list" \
	    "select count(*) from message_list" >meta &&
	test "$(cat meta)" = "$(printf "2\nwal\n%s" "$(cat want)")" &&
	sql "$T/parity.db" "select content from message_list where
	    conversation = (select id from conversation_list where title =
	    \"Groceries\") order by seq limit 1" >first &&
	test "$(cat first)" = "Added milk." &&
	sql "$T/parity.db" "insert into messages_text (messages_text) values
	    ('"'integrity-check'"')" "pragma integrity_check" >check &&
	test "$(cat check)" = ok
'

# counted DB: the ended conversations as the schema counts them, and as
# their rows do, on one line
counted() {
	sql "$1" "select (select ended from counts), (select count(*) from
	    conversations where ended_at is not null)"
}

test_expect 'the schema counts the ended conversations through add, end, delete and prune; a version 1 store is upgraded by a writer' '
	C=sqlite:$T/counted.db &&
	for i in 1 2 3 4 5; do
		convctl -s "$C" add "c$i" >/dev/null && convctl -s "$C" end >/dev/null ||
		    return 1
	done &&
	convctl -s "$C" add "open" >/dev/null &&
	test "$(counted "$T/counted.db")" = "5|5" &&
	convctl -s "$C" delete --force "$(convctl -s "$C" recent -n 1 --json | jq -r ".[0].id")" >/dev/null &&
	test "$(counted "$T/counted.db")" = "4|4" &&
	convctl -s "$C" prune --max 2 >/dev/null &&
	test "$(counted "$T/counted.db")" = "2|2" &&
	sql "$T/counted.db" "drop trigger conversations_count_insert" \
	    "drop trigger conversations_count_delete" \
	    "drop trigger conversations_count_update" "drop table counts" \
	    "pragma user_version = 1" &&
	convctl -s "$C" recent >recent.out && test "$(grep -c . recent.out)" -ge 2 &&
	test "$(sql "$T/counted.db" "pragma user_version")" = 1 &&
	convctl -s "$C" end >/dev/null &&
	test "$(sql "$T/counted.db" "pragma user_version")" = 2 &&
	test "$(counted "$T/counted.db")" = "3|3"
'

test_expect 'the database refuses a second active conversation and a bad role' '
	! sql "$T/parity.db" "insert into conversations (id, started_at,
	    message_count, doc) values (\"x1\", 0, 0, \"{}\")" \
	    "insert into conversations (id, started_at, message_count, doc)
	    values (\"x2\", 0, 0, \"{}\")" 2>err &&
	grep -q conversations_one_active err &&
	! sql "$T/parity.db" "insert into messages (conversation, seq, role, at,
	    doc) values ((select id from conversations limit 1), 999, \"wizard\",
	    0, \"{}\")" 2>err && grep -q CHECK err
'

test_expect 'copy to SQLite and back keeps every byte, unknown fields and number texts' '
	R=sqlite:$T/roundtrip.db &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	holds "copied 2 conversations" err &&
	convctl copy "$R" "$T/back.json" &&
	convctl copy "$T/odd.json" - >want &&
	test_cmp want "$T/back.json" &&
	convctl copy "$R" - >again && test_cmp want again
'

test_expect 'copying again adds nothing; a conversation that differs is refused' '
	R=sqlite:$T/roundtrip.db &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	grep -q "copied 0 conversations.*; 2 there already" err &&
	sed "s/\"title\":\"t\"/\"title\":\"other\"/" "$T/odd.json" >"$T/odd2.json" &&
	fails_with 1 convctl copy "$T/odd2.json" "$R" &&
	stderr_has "conversation '"'c1'"' is in both" &&
	convctl copy "$R" - >now && convctl copy "$T/odd.json" - >want &&
	test_cmp want now
'

test_expect 'copy of many conversations with escapes, \u0000 and non-ASCII comes back byte for byte, indexed whole for search' '
	R=sqlite:$T/bulk.db &&
	bulk_store 400 "$T/bulk.json" &&
	convctl copy "$T/bulk.json" "$R" 2>err &&
	holds "copied 400 conversations" err &&
	convctl copy "$T/bulk.json" - >want &&
	convctl copy "$R" - >back && test_cmp want back &&
	sql "$T/bulk.db" "select count(*) from messages" >rows &&
	test "$(cat rows)" = 800 &&
	convctl -s "$R" show --json >active &&
	jq -e ".id == \"c\\t400\"" active >/dev/null &&
	sql "$T/bulk.db" "insert into messages_text (messages_text) values
	    ('"'integrity-check'"')" "pragma integrity_check" \
	    "select count(*) from messages_text where messages_text match
	    '"'timestamp'"'" \
	    "select count(*) from sqlite_master where type = '"'trigger'"'
	    and name = '"'messages_text_insert'"'" >check &&
	test "$(cat check)" = "$(printf "ok\n800\n1")" &&
	CONVCTL_NOW=2026-01-01T00:10:00Z convctl -s "$R" add "after the copy" &&
	convctl -s "$R" show --json | jq -e ".messages | length == 3" >/dev/null &&
	convctl -s "$R" search --json "after the copy" >found &&
	jq -e "length == 1" found >/dev/null &&
	convctl -s "$R" end && convctl -s "$R" copy "$R" - | jq -e \
	    "[.conversations[].endedAt | select(. == null)] | length == 0" >/dev/null
'

# more messages may match than search sorts (2000): -n walks them by time
test_expect 'search -n through many matches prints what the file prints' '
	bulk_store 2100 "$T/many.json" &&
	convctl copy "$T/many.json" "sqlite:$T/many.db" 2>/dev/null &&
	for q in "-n 3 slash" "-n 1 --json CAF" "-n 5 -r assistant xxx" \
	    "-n 2 --case-sensitive back" "-n 4 2026" "slash"; do
		convctl -s "$T/many.json" search $q >f.out 2>&1; a=$?
		convctl -s "sqlite:$T/many.db" search $q >d.out 2>&1; b=$?
		test "$a" = "$b" && test_cmp f.out d.out || { echo "$q"; return 1; }
	done &&
	test "$(wc -l <f.out)" -gt 2000
'

# every process that opens the database first reads the WAL again: a
# commit that leaves it long (a prune of hundreds) empties it
test_expect 'the WAL is kept short: a prune of hundreds of conversations leaves it short' '
	bulk_store 400 "$T/wal.json" &&
	convctl copy "$T/wal.json" "sqlite:$T/wal.db" 2>/dev/null &&
	convctl -s "sqlite:$T/wal.db" add first >/dev/null &&
	CONVCTL_MAX_CONVERSATIONS=10 convctl -s "sqlite:$T/wal.db" end 2>err &&
	holds "removed 391 oldest" err &&
	test "$(stat -c %s "$T/wal.db-wal")" -lt 1048576 &&
	test "$(convctl -s "sqlite:$T/wal.db" recent -n 100 | wc -l)" = 10
'

test_expect 'made on the first write, 0600 in directories made 0700; a write of nothing leaves it empty' '
	umask 022 &&
	convctl -s "sqlite:$T/new/dir/s.db" recent >out && test ! -s out &&
	test ! -e "$T/new" &&
	convctl -s "sqlite:$T/new/dir/s.db" end 2>err &&
	test ! -s "$T/new/dir/s.db" &&
	convctl -s "sqlite:$T/new/dir/s.db" add hi >/dev/null &&
	for f in "$T/new" "$T/new/dir"; do
		test "$(stat -c %a "$f")" = 700 || return 1
	done &&
	for f in "$T"/new/dir/s.db*; do
		test "$(stat -c %a "$f")" = 600 || { echo "$f"; return 1; }
	done &&
	test "$(convctl -s "sqlite:$T/new/dir/s.db" show --json | jq -r .messages[0].content)" = hi
'

test_expect 'a database convctl did not make, a newer schema, and no file name are refused' '
	sql "$T/other.db" "create table t (x)" &&
	fails_with 1 convctl -s "sqlite:$T/other.db" recent &&
	stderr_has "is a SQLite database with tables of its own and no convctl schema" &&
	convctl -s "sqlite:$T/newer.db" add hi >/dev/null &&
	sql "$T/newer.db" "pragma user_version = 9" &&
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
	convctl -s "$W" show --json | jq -e ".messages | length == 1" >/dev/null &&
	touch "$T/release" && wait &&
	convctl -s "$W" --wait 5 add hi >/dev/null &&
	convctl -s "$W" show --json | jq -e ".messages | length == 2" >/dev/null
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
	touch "$T/release" && wait &&
	convctl -s "$X" recent >/dev/null
'

test_expect '8 writers at once on a database not made yet: each add kept once, in WAL' '
	for w in 1 2 3 4 5 6 7 8; do
		convctl -s "sqlite:$T/first.db" --wait 60 add "w$w" >/dev/null ||
		    echo "w$w failed" &
	done >fails 2>&1 &&
	wait && { test ! -s fails || { cat fails; return 1; }; } &&
	convctl copy "sqlite:$T/first.db" - | jq -r \
	    "[.conversations[].messages[].content] | sort | join(\" \")" >got &&
	echo "w1 w2 w3 w4 w5 w6 w7 w8" >want && test_cmp want got &&
	sql "$T/first.db" "pragma journal_mode" >got && echo wal >want &&
	test_cmp want got
'

# a reader waits for no writer, but meets SQLite's short exclusive moments
# (the WAL emptied, read again by the first to open it): it waits them out
test_expect 'readers alongside two writers never fail' '
	R=sqlite:$T/readers.db &&
	for w in a b; do
		for i in $(seq $(counts 40 150)); do
			convctl -s "$R" --wait 60 add "$w$i" >/dev/null || echo "add $w$i failed"
		done &
	done >fails 2>&1 &&
	for i in $(seq $(counts 80 300)); do
		convctl -s "$R" prompt >/dev/null || echo "prompt $i failed"
	done >>fails 2>&1 &&
	wait && test ! -s fails || { cat fails; return 1; }
'

test_expect 'writers killed at any point: every add that exited 0 is kept, nothing partial' '
	K=sqlite:$T/killed.db &&
	: >acked &&
	for trial in $(seq $kills); do
		convctl -s "$K" --wait 30 add "k$trial" >/dev/null 2>&1 &
		pid=$!
		sleep 0.0$((trial % 10))
		kill -9 $pid 2>/dev/null
		wait $pid && echo "k$trial" >>acked
	done
	sql "$T/killed.db" "pragma integrity_check" "select count(*) from
	    conversations c where message_count <> (select count(*) from
	    messages m where m.conversation = c.id)" >check &&
	test "$(cat check)" = "$(printf "ok\n0")" &&
	convctl copy "$K" - >all &&
	jq -r ".conversations[].messages[].content" all | sort >kept &&
	sort -u kept | cmp - kept &&
	sort acked | comm -23 - kept >lost && test ! -s lost &&
	convctl -s "$K" add "after the kills" >/dev/null
'

test_done
