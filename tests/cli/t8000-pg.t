#!/bin/sh
# The PostgreSQL store: the same commands give the same output as on a file,
# on a real server the test starts itself (tests/pg.sh); many writers on a
# socket and TCP, writers killed, the server stopped, passwords, copy (to
# and from SQLite too).
# check: valgrind
. "$(dirname "$0")/../lib.sh"
file_store_only "t8000-pg.t compares both engines itself"
. "$top/tests/pg.sh"

F=$T/store.json
# 4 writers of 6 adds (each add a process and a connection, on a server),
# 12 kills (12 writers of 30 adds and 40 kills at full counts, TEST_FULL=1)
writers=$(counts "1 2 3 4" "1 2 3 4 5 6 7 8 9 10 11 12")
adds=$(counts 6 30) kills=$(counts 12 40)
# test_pg, but for the cases about timing (waits, kills, a server stopped
# mid-run), which a wrapper (valgrind) slows past their meaning: skipped there
test_pg_timed() {
	if [ -n "$CONVCTL_WRAPPER" ]; then
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: timing, not run under $CONVCTL_WRAPPER"
	else
		test_pg "$1" "$2"
	fi
}
P="$PG_URI&schema=parity"
. "$top/tests/engines.sh"

test_pg 'a scripted session prints the same on PostgreSQL as on a file' '
	session "$F" >file.out &&
	session "$P" >pg.out &&
	has_line "== exit 4" file.out && has_line "== exit 0" file.out &&
	test_cmp file.out pg.out
'

test_pg 'the database holds a row per conversation and per message' '
	psql_as "select count(*) from parity.conversations" \
	    "select count(*) from parity.messages" >rows &&
	convctl -s "$P" copy "$P" - | jq "(.conversations | length),
	    ([.conversations[].messages[]] | length)" >want &&
	test "$(wc -l <want)" = 2 && test_cmp want rows
'

test_pg 'the database refuses a second active conversation and a bad role' '
	! psql_as "insert into parity.conversations (id, started_at,
	    message_count, doc) values ('"'x1'"', now(), 0, '"'{}'"');
	    insert into parity.conversations (id, started_at, message_count,
	    doc) values ('"'x2'"', now(), 0, '"'{}'"')" 2>err &&
	grep -q conversations_one_active err &&
	! psql_as "insert into parity.messages values ((select id from
	    parity.conversations limit 1), 999, '"'m'"', '"'wizard'"', now(),
	    '"'{}'"')" 2>err && grep -q role err
'

test_pg 'copy to PostgreSQL and back keeps every byte, unknown fields and number texts' '
	R="$PG_URI&schema=roundtrip" &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	holds "copied 2 conversations" err &&
	convctl copy "$R" "$T/back.json" &&
	convctl copy "$T/odd.json" - >want &&
	test_cmp want "$T/back.json" &&
	convctl copy "$R" - >again && test_cmp want again
'

test_pg 'copying again adds nothing; a conversation that differs is refused' '
	R="$PG_URI&schema=roundtrip" &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	grep -q "copied 0 conversations.*; 2 there already" err &&
	sed "s/\"title\":\"t\"/\"title\":\"other\"/" "$T/odd.json" >"$T/odd2.json" &&
	fails_with 1 convctl copy "$T/odd2.json" "$R" &&
	stderr_has "conversation '"'c1'"' is in both" &&
	convctl copy "$R" - >now && convctl copy "$T/odd.json" - >want &&
	test_cmp want now
'

test_pg 'copy of many conversations with escapes, \u0000 and non-ASCII comes back byte for byte' '
	R="$PG_URI&schema=bulk" &&
	bulk_store 400 "$T/bulk.json" &&
	convctl copy "$T/bulk.json" "$R" 2>err &&
	holds "copied 400 conversations" err &&
	convctl copy "$T/bulk.json" - >want &&
	convctl copy "$R" - >back && test_cmp want back &&
	psql_as "select count(*) from bulk.messages" "select string_agg(id,
	    '"','"' order by pos) from (select id, pos from bulk.conversations
	    order by pos limit 3) x" >rows &&
	test "$(cat rows)" = "$(printf "800\nc\t1,c\t2,c\t3")" &&
	convctl -s "$R" show --json >active &&
	jq -e ".id == \"c\\t400\"" active >/dev/null &&
	CONVCTL_NOW=2026-01-01T00:10:00Z convctl -s "$R" add "after the copy" &&
	convctl -s "$R" show --json | jq -e ".messages | length == 3" >/dev/null &&
	convctl -s "$R" end && convctl -s "$R" copy "$R" - | jq -e \
	    "[.conversations[].endedAt | select(. == null)] | length == 0" >/dev/null
'

test_pg 'copy between all three engines keeps every byte: file, PostgreSQL, SQLite and back' '
	R="$PG_URI&schema=three" R2="$PG_URI&schema=three2" &&
	convctl copy "$T/bulk.json" "sqlite:$T/three.db" 2>/dev/null &&
	convctl copy "sqlite:$T/three.db" "$R" 2>/dev/null &&
	convctl copy "$R" "sqlite:$T/three2.db" 2>/dev/null &&
	convctl copy "$T/odd.json" "sqlite:$T/odd.db" 2>/dev/null &&
	convctl copy "sqlite:$T/odd.db" "$R2" 2>/dev/null &&
	convctl copy "$R2" "$T/odd-back.json" &&
	convctl copy "$T/odd.json" - >want && test_cmp want "$T/odd-back.json" &&
	convctl copy "$T/bulk.json" - >want &&
	convctl copy "sqlite:$T/three2.db" - >back && test_cmp want back &&
	convctl copy "$R" - >back && test_cmp want back
'

test_pg 'a copy a constraint stops mid-way reports it and stores nothing' '
	R="$PG_URI&schema=halfway" &&
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl -s "$R" add "before" &&
	convctl -s "$R" end &&
	convctl -s "$R" copy "$R" - >before &&
	bulk_store 300 "$T/bulk3.json" &&
	psql_as "alter table halfway.conversations add constraint no_c150
	    check (id <> e'"'c\\\\t150'"')" &&
	fails_with 1 convctl copy "$T/bulk3.json" "$R" &&
	stderr_has "cannot store conversations" && stderr_has "no_c150" &&
	convctl -s "$R" copy "$R" - >after && test_cmp before after &&
	psql_as "alter table halfway.conversations drop constraint no_c150;
	    alter table halfway.messages add constraint no_m250
	    check (id is distinct from e'"'m\\\\\\\\250'"')" &&
	fails_with 1 convctl copy "$T/bulk3.json" "$R" &&
	stderr_has "cannot store messages" && stderr_has "no_m250" &&
	convctl -s "$R" copy "$R" - >after && test_cmp before after &&
	test "$(psql_as "select count(*) from halfway.messages")" = 1
'

test_pg 'a copy with \u0000 in a message id is refused, nothing stored' '
	R="$PG_URI&schema=nulid" &&
	bulk_store 5 "$T/nul.json" &&
	sed "s/\"m\\\\\\\\3\"/\"m\\\\u00003\"/" "$T/nul.json" >"$T/nul2.json" &&
	holds "u00003" "$T/nul2.json" &&
	fails_with 1 convctl copy "$T/nul2.json" "$R" &&
	stderr_has "message 1 of '"'c\t3'"' has \\u0000 in its id" &&
	test "$(convctl -s "$R" recent --json)" = "[]"
'

# copy's memory: the source read through a cursor a batch at a time, the
# rows written into the transaction a batch at a time, and a conversation
# the destination has already let go of once compared, so a store five
# times bigger takes no more memory to copy, anew or again; loaded whole,
# each conversation's JSON takes three times its bytes (not under a
# wrapper, whose own memory blurs it, nor a sanitizer's build, whose
# allocator keeps what is freed).
# The stores copied from and to are made empty first and their trigram
# index dropped: the server's work on it (3 s of the 250 conversations'
# 3.5) is no part of the client's memory
if memory_measured; then
	test_pg 'copy holds a batch of conversations in memory, not the store, copying anew or again' '
		echo "{\"version\":1,\"conversations\":[]}" >"$T/empty.json" &&
		set -- && for s in gen50 again50 gen250 again250; do
			convctl copy "$T/empty.json" "$PG_URI&schema=$s" 2>/dev/null &&
			set -- "$@" "drop index $s.messages_text" || exit 1
		done &&
		psql_as "$@" &&
		for n in 50 250; do
			python3 "$top/bench/gen.py" $n 7 "$T/gen$n.json" >/dev/null &&
			convctl copy "$T/gen$n.json" "$PG_URI&schema=gen$n" 2>/dev/null ||
			    return 1
		done &&
		# gen50 into again50, gen250 into again250, and that once more
		for n in 50 250 250-again; do
			peak_rss "$CONVCTL_BIN" copy "$PG_URI&schema=gen${n%-again}" \
			    "$PG_URI&schema=again${n%-again}" >"$T/rss$n" 2>"$T/err$n" ||
			    return 1
		done &&
		grep -q "copied 0 conversations.*; 250 there already" "$T/err250-again" &&
		grow=$(( $(wc -c <"$T/gen250.json") - $(wc -c <"$T/gen50.json") )) &&
		echo "peak RSS $(cat "$T/rss50") KB for 50, $(cat "$T/rss250") KB for 250 conversations ($grow bytes more), $(cat "$T/rss250-again") KB for the 250 again" &&
		test "$(cat "$T/rss50")" -gt 0 &&
		test $(( ($(cat "$T/rss250") - $(cat "$T/rss50")) * 1024 )) -lt $((grow / 4)) &&
		test $(( ($(cat "$T/rss250-again") - $(cat "$T/rss50")) * 1024 )) -lt $((grow / 4)) &&
		convctl copy "$PG_URI&schema=again250" - >"$T/back" &&
		convctl copy "$T/gen250.json" - >"$T/want" && test_cmp "$T/want" "$T/back"
	'
	# migrate lists the store's conversations and reads only those it
	# compares: into the 250 it takes no more memory than into the 50
	test_pg 'migrate into a store five times bigger takes no more memory' '
		for n in 50 250; do
			peak_rss "$CONVCTL_BIN" -s "$PG_URI&schema=again$n" migrate \
			    "$top/tests/fixtures/migrate/smarthole-history.json" \
			    >"$T/mig$n" 2>"$T/migerr$n" || return 1
		done &&
		grow=$(( $(wc -c <"$T/gen250.json") - $(wc -c <"$T/gen50.json") )) &&
		echo "peak RSS of migrate $(cat "$T/mig50") KB into 50 conversations, $(cat "$T/mig250") KB into 250 ($grow bytes more)" &&
		test "$(cat "$T/mig50")" -gt 0 &&
		test $(( ($(cat "$T/mig250") - $(cat "$T/mig50")) * 1024 )) -lt $((grow / 4)) &&
		test "$(psql_as "select count(*) from again250.conversations")" = 251
	'
else
	test_n=$((test_n + 2))
	echo "ok $((test_n - 1)) # SKIP copy's memory: not measured under a wrapper or a sanitizer"
	echo "ok $test_n # SKIP migrate's memory: not measured under a wrapper or a sanitizer"
fi

test_pg 'a write the database refuses, sent with the next query, is reported; nothing is stored' '
	R="$PG_URI&schema=refused" &&
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl -s "$R" add "first" &&
	convctl -s "$R" copy "$R" - >before &&
	psql_as "alter table refused.messages add constraint no_poison
	    check (doc::text not like '"'%poison%'"')" &&
	CONVCTL_NOW=2026-02-04T17:01:00Z fails_with 1 convctl -s "$R" add poison &&
	stderr_has "cannot store a conversation" && stderr_has "no_poison" &&
	convctl -s "$R" copy "$R" - >after && test_cmp before after &&
	psql_as "alter table refused.conversations add constraint never_ended
	    check (ended_at is null)" &&
	CONVCTL_NOW=2026-02-04T17:02:00Z fails_with 1 convctl -s "$R" end &&
	stderr_has "cannot store a conversation" && stderr_has "never_ended" &&
	test "$(grep -c never_ended "$T/err")" = 1 &&
	convctl -s "$R" copy "$R" - >after && test_cmp before after &&
	CONVCTL_NOW=2026-02-04T17:03:00Z convctl -s "$R" add "still fine" &&
	test "$(psql_as "select count(*) from refused.messages")" = 2
'

test_pg 'stores in one database are apart, by schema=' '
	A="$PG_URI&schema=one" B="$PG_URI&schema=two" &&
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl -s "$A" add "in one" &&
	convctl -s "$B" recent --json >b && test "$(cat b)" = "[]" &&
	convctl -s "$A" show --json | jq -e ".messages[0].content == \"in one\""
'

test_pg 'a schema name that is not a plain name is a usage error' '
	fails_with 2 convctl -s "$PG_URI&schema=Robert%27)" recent &&
	stderr_has "is not a name"
'

test_pg 'a wrong password: exit 1, and the password is not printed' '
	bad=$(echo "$PG_TCP" | sed "s/$PG_PASSWORD/Wr0ngPassw0rd/") &&
	fails_with 1 convctl -s "$PG_URI&dbname=nosuchdb" recent &&
	stderr_has "does not exist" &&
	fails_with 1 convctl -s "$bad&schema=tcp" recent &&
	stderr_has "password authentication failed" &&
	! grep -q Wr0ngPassw0rd "$T/err" && stderr_has "postgres:***@" &&
	fails_with 1 convctl -s "$PG_TCP&schema=tcp&password=Wr0ngPassw0rd" recent &&
	stderr_has "password=***" && ! grep -q Wr0ngPassw0rd "$T/err"
'

test_pg 'config names the engine, and masks the password' '
	convctl -s "$PG_TCP&schema=cfg" config >out &&
	grep -q "^store .*postgres:\*\*\*@127.0.0.1.*schema=cfg.*postgresql store" out &&
	! grep -q "$PG_PASSWORD" out &&
	convctl -s "$PG_TCP&schema=cfg" config --json |
	    jq -e ".settings.store.engine == \"postgresql\"" &&
	! convctl -s "$PG_TCP&schema=cfg" config --json | grep -q "$PG_PASSWORD"
'

# holding: a session other than ours holds an advisory lock (the writers'
# lock); unhold: that session is ended, and its lock with it
holding() {
	test "$(psql_as "select count(*) from pg_locks where locktype = 'advisory' and granted")" -ge 1
}
unhold() {
	psql_as "select pg_terminate_backend(pid) from pg_stat_activity
	    where query like '%pg_sleep(600)%' and pid <> pg_backend_pid()" >/dev/null
}

test_pg_timed '--wait bounds the wait for another writer, then exit 75 (try again)' '
	W="$PG_URI&schema=waiting" &&
	convctl -s "$W" recent &&
	{ psql "$PG_URI" -X -q -c "begin" -c "select
	    pg_advisory_xact_lock(hashtext('"'convctl:waiting'"'))" -c "select
	    pg_sleep(600)" -c "commit" >/dev/null 2>&1 & } &&
	wait_until holding &&
	fails_with 75 convctl -s "$W" --wait 1 add hi &&
	stderr_has "store '"'"'$W'"'"' is locked by another convctl; gave up after 1 seconds (nothing was written; try again, or raise --wait)" &&
	fails_with 75 convctl -s "$W" --wait 0 add hi &&
	stderr_has "is locked by another convctl; gave up after 0 seconds (nothing was written; try again" &&
	unhold && { wait || true; } &&
	convctl -s "$W" --wait 5 add hi
'

# root_locked GRANTED: a session holds the store's root table (true), or a
# writer waits on it (false), inside its transaction and so with the writers'
# lock
root_locked() {
	test "$(psql_as "select count(*) from pg_locks l join pg_class c on
	    c.oid = l.relation where c.relname = 'root' and l.granted = $1")" = 1
}

# a host that froze, as a writer stopped (SIGSTOP) holding the lock: the
# server ends its transaction once it has been idle convctl's bound (10 s)
test_pg_timed 'a writer frozen holding the lock: the next writer goes on within about the default --wait; woken, the frozen one exits 75, not stored' '
	F="$PG_URI&schema=frozen" &&
	convctl -s "$F" add first >/dev/null &&
	{ psql "$PG_URI" -X -q -c "begin" -c "lock table frozen.root in
	    access exclusive mode" -c "select pg_sleep(600)" -c "commit" \
	    >/dev/null 2>&1 & } &&
	wait_until "root_locked true" || exit 1
	"$CONVCTL_BIN" -s "$F" --wait 60 add frozen >/dev/null 2>frozen.err 3>&- &
	frozen=$!
	wait_until "root_locked false" && kill -STOP $frozen && unhold
	held=$? began=$(date +%s)
	convctl -s "$F" --wait 30 add after >/dev/null
	after=$? took=$(($(date +%s) - began))
	kill -CONT $frozen; wait $frozen; rc=$?	# whatever happened before
	test "$held" = 0 && echo "# the next writer waited $took s" >&3 &&
	test "$after" = 0 && test "$took" -le 20 &&
	echo "frozen: exit $rc" && cat frozen.err && test "$rc" = 75 &&
	holds "nothing was written; try again" frozen.err &&
	test "$(psql_as "select string_agg(doc->>'"'content'"', '"','"' order by seq)
	    from frozen.messages")" = first,after
' 3>&1

test_pg_timed "$(echo $writers | wc -w) writers x $adds adds over the socket and TCP: each message once, one conversation" '
	C="$PG_URI&schema=many" CT="$PG_TCP&schema=many" &&
	for w in $writers; do
		if [ $((w % 2)) -eq 0 ]; then u=$C; else u=$CT; fi
		( for i in $(seq $adds); do
			convctl -s "$u" --wait 60 add "w$w-$i" >/dev/null || echo "w$w-$i failed"
		done ) >"$T/w$w.log" 2>&1 &
	done &&
	wait &&
	cat "$T"/w*.log >failures && test ! -s failures &&
	convctl copy "$C" - >all &&
	total=$(($(echo $writers | wc -w) * adds)) &&
	jq -e --argjson n $total "([.conversations[].messages[]] | length) == \$n and
	    ([.conversations[].messages[].content] | unique | length) == \$n and
	    (.conversations | length) == 1" all >/dev/null &&
	test "$(psql_as "select count(*) from many.conversations where ended_at is null")" = 1
'

test_pg_timed 'idle boundaries with many writers are as if they ran one after another' '
	I="$PG_URI&schema=idle" &&
	for w in 1 2 3 4 5 6; do
		( for i in 0 1 2 3 4; do
			m=$((i * 40))
			h=$((17 + m / 60)) mm=$((m % 60))
			CONVCTL_NOW=$(printf "2026-02-04T%02d:%02d:0%dZ" $h $mm $((w % 10))) \
			    convctl -s "$I" --wait 60 add "w$w-$i" >/dev/null
		done ) &
	done &&
	wait &&
	convctl copy "$I" - >all &&
	jq -e "([.conversations[].messages[]] | length) == 30 and
	    ([.conversations[] | select(.endedAt == null)] | length) == 1 and
	    ([.conversations[] | (.messages | map(.timestamp)) as \$t |
	    \$t == (\$t | sort)] | all)" all >/dev/null
'

test_pg_timed 'writers killed mid-transaction leave nothing partial' '
	K="$PG_URI&schema=killed" &&
	for trial in $(seq $kills); do
		convctl -s "$K" --wait 30 add "k$trial" >/dev/null 2>&1 &
		pid=$!
		sleep 0.0$((trial % 10))
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
	done
	test "$(psql_as "select count(*) from killed.conversations c where
	    message_count <> (select count(*) from killed.messages m where
	    m.conversation = c.id)")" = 0 &&
	convctl copy "$K" - >all &&
	jq -e "[.conversations[].messages[].content] | length == (unique | length)" \
	    all >/dev/null &&
	convctl -s "$K" add "after the kills" >/dev/null
'

# lines FILE: how many lines FILE has (0 when there is none yet)
lines() {
	if [ -e "$1" ]; then wc -l <"$1"; else echo 0; fi
}

# adds run one after another until $T/enough exists; the server is stopped
# once two were acknowledged, started again once one met it stopped, and
# the adds end once two more were acknowledged after the restart
test_pg_timed 'the server stopped mid-run: exit 75, and after a restart nothing acknowledged is lost' '
	D="$PG_URI&schema=down" &&
	convctl -s "$D" add first >/dev/null || exit 1
	( i=0; while [ ! -e "$T/enough" ] && [ $i -lt 2000 ]; do
		i=$((i + 1))
		if convctl -s "$D" --wait 10 add "d$i" >/dev/null 2>"$T/d$i.err"; then
			echo "d$i" >>"$T/acked"
		else
			echo "$? d$i" >>"$T/codes"
		fi
	done ) &
	wait_until "[ \$(lines \"\$T/acked\") -ge 2 ]" &&
	pg_ctl_as -m immediate stop &&
	wait_until "[ \$(lines \"\$T/codes\") -ge 1 ]" &&
	before=$(lines "$T/acked") &&
	pg_ctl_as -o "-k $PG_DIR -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off" start &&
	wait_until "[ \$(lines \"\$T/acked\") -ge \$((before + 2)) ]"
	status=$?
	touch "$T/enough" && wait && test $status -eq 0 &&
	grep -q "^75 " "$T/codes" &&
	# any other exit status, with what that add said
	! grep -v "^75 " "$T/codes" | while read -r code add; do
		echo "$add exited $code: $(cat "$T/$add.err")"
	done | grep . &&
	convctl copy "$D" - >all &&
	jq -r ".conversations[].messages[].content" all | sort | uniq -c >stored &&
	# each acknowledged add stored once: "1 dI" in stored
	! while read -r m; do
		grep -qx " *1 $m" stored || echo "lost $m, or stored twice"
	done <"$T/acked" | grep .
'

test_pg 'without libpq: exit 69, naming the package' '
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
		echo "# needs root and unshare to hide libpq" && exit 0
	fi
	lib=$(ldconfig -p | sed -n "s/.*libpq.so.5 (libc6,x86-64) => //p" | head -n 1) &&
	unshare -m sh -c "mount --bind /dev/null $lib && \
	    $CONVCTL_BIN -s \"$PG_URI\" recent" >out 2>err
	test $? -eq 69 && holds "libpq5" err &&
	unshare -m sh -c "mount --bind /dev/null $lib && $CONVCTL_BIN -s $T/f.json recent"
'

test_done
