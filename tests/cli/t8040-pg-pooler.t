#!/bin/sh
# The PostgreSQL store through PgBouncer in transaction pooling: Debian's
# pgbouncer started in front of a cluster of the file's own (tests/pg.sh),
# as the cluster's user, on a unix socket in the cluster's directory,
# checking the password itself (SCRAM), with fewer server connections than
# writers. The first write makes the schema as a direct one does, and
# upgrades a version 1 store; 8 writers x 8 adds (x 25 at full counts) are
# each stored once on 4 server connections; readers print what they print
# on the server; the
# pooler stopped mid-run, and the server stopped behind it, give exit 75
# and store nothing that was not acknowledged.
# check: all-only (a cluster and a pooler of its own, and every add a SCRAM login: 18 s of processor time)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t8040-pg-pooler.t starts its own server and pooler"
pgbouncer=/usr/sbin/pgbouncer
if [ ! -x "$pgbouncer" ]; then
	echo "1..0 # SKIP no $pgbouncer (scripts/install-deps pg installs it)"
	exit 0
fi
. "$top/tests/pg.sh"

# the pooler's files: its config, users, log, pid and socket, where the
# cluster's user may write and a socket's path stays short; its port only
# names the socket (no TCP), so no other run can take it
B=$PG_DIR/pooler
POOL="postgresql:///postgres?host=$B&port=6432&user=postgres"
FIXTURE=$top/tests/fixtures/pg/store-v1.sql
# the password the pooler asks for, where libpq looks for it
printf '*:*:*:postgres:%s\n' "$PG_PASSWORD" >"$HOME/.pgpass"
chmod 600 "$HOME/.pgpass"

# pooler_start: pgbouncer, a daemon, up once its socket and pid file are;
# its users file holds the role's SCRAM secret, as the server keeps it
pooler_start() {
	pg_as mkdir -p "$B" &&
	{
		echo "[databases]"
		echo "postgres = host=$PG_DIR port=$PG_PORT dbname=postgres"
		echo "[pgbouncer]"
		echo "unix_socket_dir = $B"
		echo "listen_port = 6432"
		echo "pool_mode = transaction"
		echo "default_pool_size = 4"
		echo "auth_type = scram-sha-256"
		echo "auth_file = $B/users"
		echo "logfile = $B/log"
		echo "pidfile = $B/pid"
		echo "admin_users = postgres"
	} | pg_as sh -c 'cat >"$1"' - "$B/pgbouncer.ini" &&
	secret=$(psql_as "select rolpassword from pg_authid
	    where rolname = 'postgres'") &&
	printf '"postgres" "%s"\n' "$secret" |
	    pg_as sh -c 'umask 077 && cat >"$1"' - "$B/users" &&
	pg_as "$pgbouncer" -d -q "$B/pgbouncer.ini" ||
	    { cat "$B/log"; return 1; }
	wait_until 'test -S "$B/.s.PGSQL.6432" && test -s "$B/pid"'
}

# the pooler's process: its pid, from its pid file
pooler_pid() {
	pid=$(cat "$B/pid" 2>/dev/null) &&
	test "$(cat "/proc/$pid/comm" 2>/dev/null)" = pgbouncer &&
	echo "$pid"
}

# pooler_stop [SIGNAL]: stops it (TERM: pgbouncer's immediate shutdown,
# KILL: a crash) and waits until it is gone, reaped too; the pid file a
# killed one leaves is removed, lest the next one take its pid, which
# another process may have by then, for a pooler still running
pooler_stop() {
	pid=$(pooler_pid) || return 0
	kill "-${1:-TERM}" "$pid" &&
	wait_until 'test ! -e "/proc/$pid"' &&
	pg_as rm -f "$B/pid"
}

# admin SQL: SQL on the pooler's console (SET, SHOW ...)
admin() {
	psql "postgresql:///pgbouncer?host=$B&port=6432&user=postgres" -X -q \
	    -c "$1"
}
trap 'pooler_stop KILL; pg_stop; rm -rf "$T"' EXIT

if [ -z "$PG_SKIP" ] && ! pooler_start; then
	PG_SKIP="pgbouncer did not start (see above)"
fi

# count SQL: the one value SQL gives, asked of the server itself
count() {
	psql_as "$1"
}
# server connections the pooler has opened so far
opened() {
	grep -c "new connection to server" "$B/log" || true
}

test_pg 'the pooler checks the password: psql and convctl get in with it, and a wrong one exits 1' '
	psql "$POOL" -X -A -t -c "select 1" >one && test "$(cat one)" = 1 &&
	convctl -s "$POOL&schema=hello" recent &&
	fails_with 1 convctl -s "$POOL&password=wrong&schema=hello" recent &&
	stderr_has "authentication failed" &&
	stderr_has "the server refused the role, its password or the database"
'

# the schema as the catalog describes it, the schema'"'"'s name left out
described() {
	psql_as "select table_name, column_name, data_type, is_nullable,
	    replace(column_default, '$1', 'S') from information_schema.columns
	    where table_schema = '$1' order by 1, 2" &&
	psql_as "select indexname, replace(indexdef, '$1', 'S') from pg_indexes
	    where schemaname = '$1' order by 1" &&
	psql_as "select conname, replace(pg_get_constraintdef(c.oid), '$1', 'S')
	    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
	    where n.nspname = '$1' order by 1" &&
	psql_as "select * from $1.meta order by 1"
}

test_pg 'a first write through the pooler makes the schema a direct one makes, and upgrades a version 1 store in place' '
	convctl -s "$POOL&schema=fresh" add "made through the pooler" >/dev/null &&
	convctl -s "$PG_URI&schema=direct" add "made on the server" >/dev/null &&
	described fresh >fresh && described direct >direct &&
	test_cmp direct fresh &&
	grep -q "^messages_text|" fresh &&
	has_line "schema_version|2" fresh &&
	psql "$PG_URI" -X -q -v ON_ERROR_STOP=1 -f "$FIXTURE" >/dev/null &&
	psql_as "alter schema convctl rename to old" &&
	CONVCTL_NOW=2026-02-07T10:00:30.000Z \
	    convctl -s "$POOL&schema=old" add "after the upgrade" >/dev/null &&
	test "$(count "select value from old.meta")" = 2 &&
	test "$(count "select count(*) from pg_indexes where schemaname = '"'old'"'
	    and indexname = '"'messages_text'"'")" = 1 &&
	test "$(count "select count(*) from old.messages")" = 17
'

# 8 writers of 25 adds each (8 run alone or in make check TESTS=pg-pooler,
# without TEST_FULL), all started at once on a schema not made yet
W=8 N=$(counts 8 25)
test_pg "$W writers x $N adds through the pooler: each exits 0, each message stored once, on at most 4 server connections" '
	U="$POOL&schema=many" && before=$(opened) || exit 1
	pids= w=0
	while [ $w -lt $W ]; do
		(
			i=0
			while [ $i -lt $N ]; do
				convctl -s "$U" --wait 60 add "w$w-$i" >/dev/null 2>"w$w.err" ||
				    { echo "writer $w: add $i exited $?: $(cat "w$w.err")"; exit 1; }
				i=$((i + 1))
			done
		) &
		pids="$pids $!" w=$((w + 1))
	done
	failed=0
	for p in $pids; do wait "$p" || failed=1; done
	test $failed = 0 && test -n "$pids" &&
	w=0 && while [ $w -lt $W ]; do
		i=0; while [ $i -lt $N ]; do echo "w$w-$i"; i=$((i + 1)); done
		w=$((w + 1))
	done | sort >want &&
	convctl copy "$U" - | jq -r ".conversations[].messages[].content" | sort >got &&
	test_cmp want got &&
	count "select doc->>'"'content'"' from many.messages" | sort >direct &&
	test_cmp want direct &&
	test "$(count "select count(*) from many.conversations")" = 1 &&
	echo "server connections opened: $(( $(opened) - before ))" &&
	test $(( $(opened) - before )) -le 4
'

test_pg 'readers through the pooler print what they print on the server' '
	U="$POOL&schema=many" D="$PG_URI&schema=many" &&
	convctl -s "$U" end >/dev/null &&
	convctl -s "$U" add "where is the milk" >/dev/null &&
	convctl -s "$U" add --role assistant --tool read_file "in the fridge" \
	    >/dev/null &&
	id=$(convctl -s "$U" recent --json | jq -r ".[0].id") &&
	convctl -s "$U" title "$id" "Eight writers" &&
	convctl -s "$U" tag "$id" busy >/dev/null &&
	for c in "recent" "recent --json" "show" "show --json $id" \
	    "show --format markdown $id" "prompt" "prompt --format openai" \
	    "search milk" "search --json -E ^w7-1(0|1)" "search --tag busy w3-1"; do
		convctl -s "$U" $c >pooled 2>&1 || { echo "$c: $(cat pooled)"; exit 1; }
		convctl -s "$D" $c >direct 2>&1 &&
		test_cmp direct pooled && test -s pooled || { echo "$c"; exit 1; }
	done
'

test_pg 'readers end their transaction before they go: the pooler gives its server connection to the next client' '
	U="$POOL&schema=many" &&
	convctl -s "$U" recent >/dev/null && before=$(opened) &&
	for i in 1 2 3 4 5 6; do
		convctl -s "$U" recent >/dev/null && convctl -s "$U" show >/dev/null || exit 1
	done &&
	test "$(opened)" = "$before" &&
	! grep "client disconnect while server was not ready" "$B/log"
'

# the server backends waiting for a convctl advisory lock
lock_waiters() {
	count "select count(*) from pg_stat_activity where wait_event_type =
	    '"'Lock'"' and wait_event = '"'advisory'"'"
}

test_pg 'the pooler killed while an add waits for the lock: exit 75, nothing written; while it is down, 75 at once; restarted, adds go on' '
	U="$POOL&schema=killed" &&
	convctl -s "$U" add first >/dev/null || exit 1
	psql "$PG_URI" -X -q -c "select pg_advisory_xact_lock(hashtext('"'convctl:killed'"')),
	    pg_sleep(60) /* the holder */" >/dev/null 2>&1 &
	wait_until "test \"\$(count \"select count(*) from pg_locks where
	    locktype = '"'advisory'"' and granted\")\" = 1" &&
	{ convctl -s "$U" --wait 60 add "never" >/dev/null 2>waiter.err
	  echo $? >waiter.rc; } &
	wait_until "test \$(lock_waiters) = 1" &&
	pooler_stop KILL &&
	wait_until "test -s waiter.rc"
	rc=$?
	count "select pg_cancel_backend(pid) from pg_stat_activity where
	    query like '"'%/* the holder */'"'" >/dev/null
	wait
	test $rc = 0 && cat waiter.err &&
	test "$(cat waiter.rc)" = 75 && holds "nothing was written" waiter.err &&
	wait_until "test \$(lock_waiters) = 0" &&
	test "$(count "select string_agg(doc->>'"'content'"', '"','"') from killed.messages")" = first &&
	fails_with 75 convctl -s "$U" add "still never" &&
	stderr_has "Connection refused" && stderr_has "exit 75 means try again" &&
	pooler_start &&
	convctl -s "$U" add second >/dev/null &&
	test "$(count "select string_agg(doc->>'"'content'"', '"','"' order by seq) from killed.messages")" = first,second
'

# writer W: adds wW-1, wW-2 ... until $T/stop; an add that exited 0 in
# acked.W, any other as "STATUS wW-I" in codes.W, with what it said in
# $T/wW-I.err
writer() {
	i=0
	until [ -e "$T/stop" ]; do
		i=$((i + 1))
		if convctl -s "$POOL&schema=shut" --wait 60 add "w$1-$i" \
		    >/dev/null 2>"$T/w$1-$i.err"; then
			echo "w$1-$i" >>"$T/acked.$1"
		else
			echo "$? w$1-$i" >>"$T/codes.$1"
			# as a cron job would, try again once there is a pooler
			wait_until 'test -S "$B/.s.PGSQL.6432" || test -e "$T/stop"'
		fi
	done
}
acked() { cat "$T"/acked.* 2>/dev/null | wc -l; }

test_pg 'the pooler shut down under 4 writers: each add exits 0 or 75, every one acknowledged stored once, none refused before its commit stored' '
	for w in 1 2 3 4; do writer $w & done
	wait_until "test \$(acked) -ge 5" &&
	pooler_stop TERM &&
	wait_until "cat \"\$T\"/codes.* 2>/dev/null | grep -q \"^75 \"" &&
	pooler_start &&
	before=$(acked) &&
	wait_until "test \$(acked) -ge \$((before + 5))"
	rc=$?
	touch "$T/stop"
	wait
	test $rc = 0 &&
	count "select doc->>'"'content'"' from shut.messages" | sort >stored &&
	echo "twice:" && ! uniq -d stored | grep . &&
	sort "$T"/acked.* >acked &&
	echo "acknowledged, not stored:" && ! comm -23 acked stored | grep . &&
	cat "$T"/codes.* >codes &&
	echo "failed otherwise than 75:" && ! grep -v "^75 " codes &&
	while read -r code m; do
		holds "may or may not be stored" "$T/$m.err" || echo "$m"
	done <codes | sort >refused &&
	echo "refused, stored:" && ! comm -12 refused stored | grep . &&
	echo "counts that are not their rows:" &&
	! count "select id from shut.conversations c where message_count <>
	    (select count(*) from shut.messages m where m.conversation = c.id)" | grep . &&
	test "$(count "select count(*) from shut.conversations where ended_at is null")" = 1
'

# the pooler has served before, so it takes a client without the server,
# whose first statement then waits in its queue: query_wait_timeout bounds
# that wait (--wait and connect_timeout do not)
test_pg 'the server stopped behind the pooler: exit 75 once query_wait_timeout passes, nothing written; started again, adds go on' '
	U="$POOL&schema=behind" &&
	convctl -s "$U" add first >/dev/null &&
	admin "set query_wait_timeout = 2" && admin "set server_login_retry = 1" &&
	pg_ctl_as -m immediate stop &&
	fails_with 75 convctl -s "$U" add "never" &&
	stderr_has "query_wait_timeout" && stderr_has "nothing was written" &&
	pg_ctl_as restart &&
	wait_until "convctl -s \"\$U\" add second >/dev/null 2>&1" &&
	test "$(count "select string_agg(doc->>'"'content'"', '"','"' order by seq) from behind.messages")" = first,second
'

test_done
