#!/bin/sh
# A PostgreSQL primary and a hot standby (pg_basebackup -R, synchronous
# replication), on clusters the test starts: a writer that reaches the
# standby is told so (exit 75, target_session_attrs=read-write named), a
# URI of two hosts prints each host's answer, and the primary stopped
# (-m immediate) and the standby promoted while writers and readers run
# loses no add that exited 0, stores none that exited 75 before its commit,
# and fails no reader on target_session_attrs=prefer-standby.
. "$(dirname "$0")/../lib.sh"
file_store_only "t8030-pg-failover.t starts its own primary and standby"
. "$top/tests/pg.sh"

S=$PG_DIR/standby
standby_ctl() {
	pg_as "$pg_bin/pg_ctl" -D "$S" -l "$PG_DIR/standby.log" -w "$@" \
	    >>"$PG_DIR/ctl.log" 2>&1
}
trap 'touch "$T/stop"; wait; [ -d "$S" ] && standby_ctl -m immediate stop; pg_stop; rm -rf "$T"' EXIT

# the standby, streaming from the primary, which waits for it at each commit
standby_start() {
	S_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	pg_as "$pg_bin/pg_basebackup" -D "$S" -h "$PG_DIR" -p "$PG_PORT" \
	    -U postgres -R -X stream -c fast >"$T/basebackup.log" 2>&1 ||
	    { cat "$T/basebackup.log"; return 1; }
	standby_ctl -o "-k $PG_DIR -p $S_PORT -c listen_addresses=127.0.0.1 \
	    -c fsync=off" start || { cat "$PG_DIR/standby.log"; return 1; }
	psql_as "ALTER SYSTEM SET synchronous_standby_names = '*'" &&
	psql_as "SELECT pg_reload_conf()" >/dev/null &&
	wait_until 'test "$(psql_as "select sync_state from pg_stat_replication")" = sync'
}
if [ -z "$PG_SKIP" ]; then
	convctl -s "$PG_URI&schema=fo" add "on the primary" >/dev/null &&
	    standby_start || PG_SKIP="the standby did not start (see above)"
fi
ON_STANDBY="postgresql:///postgres?host=$PG_DIR&port=$S_PORT&user=postgres&schema=fo"
BOTH="postgresql:///postgres?host=$PG_DIR,$PG_DIR&port=$PG_PORT,$S_PORT&user=postgres&schema=fo&connect_timeout=2"

test_pg 'a writer on a read-only standby: exit 75, one error saying so, naming target_session_attrs=read-write' '
	wait_until "convctl -s \"\$ON_STANDBY\" recent -n 0 >/dev/null 2>&1" &&
	fails_with 75 convctl -s "$ON_STANDBY" add "not here" &&
	stderr_has "read-only" && stderr_has "target_session_attrs=read-write" &&
	fails_with 75 convctl -s "$ON_STANDBY" end &&
	test "$(grep -c "read-only transaction" "$T/err")" = 1 &&
	stderr_has "target_session_attrs=read-write" &&
	fails_with 75 convctl -s "$ON_STANDBY&target_session_attrs=read-write" add "not here" &&
	stderr_has "session is read-only" && stderr_has "target_session_attrs=read-write" &&
	test "$(psql_as "select count(*) from fo.messages")" = 1
'

test_pg 'two hosts, neither writable: each host'"'"'s answer is printed' '
	U="postgresql:///postgres?host=$T/none,$PG_DIR&port=$PG_PORT,$S_PORT&user=postgres&schema=fo&target_session_attrs=read-write" &&
	fails_with 75 convctl -s "$U" add "not here" &&
	stderr_has "none/.s.PGSQL.$PG_PORT\" failed: No such file or directory; connection to server on socket" &&
	stderr_has ".s.PGSQL.$S_PORT\" failed: session is read-only"
'

# writer W: adds wW-1, wW-2 ... until $T/stop; an add that exited 0 in
# acked, any other as "STATUS wW-I" in codes, with what it said
writer() {
	i=0
	until [ -e "$T/stop" ]; do
		i=$((i + 1))
		if "$CONVCTL_BIN" -s "$BOTH&target_session_attrs=read-write" \
		    --wait 30 add "w$1-$i" >/dev/null 2>"$T/w$1-$i.err"; then
			echo "w$1-$i" >>"$T/acked.$1"
		else
			echo "$? w$1-$i" >>"$T/codes.$1"
		fi
	done
}
reader() {
	until [ -e "$T/stop" ]; do
		"$CONVCTL_BIN" -s "$BOTH&target_session_attrs=prefer-standby" \
		    recent -n 3 >/dev/null 2>>"$T/reader.err"
		echo $? >>"$T/rexit.$1"
	done
}
acked() { cat "$T"/acked.* 2>/dev/null | wc -l; }
# the adds acknowledged before the primary is stopped, and again after the
# standby's promotion, before the writers stop (the 4 writers and 2
# readers loop all the while): 4 each in make check, 10 at full counts
# (TEST_FULL=1)
enough=$(counts 4 10)

# a reader may meet the primary as it stops, mid-handshake ("server closed
# the connection unexpectedly"), which libpq does not take to the next
# host: that is exit 75, and never any other failure
test_pg 'the primary stopped and the standby promoted under writers: nothing acknowledged lost, nothing refused stored, readers never fail otherwise than 75' '
	for w in 1 2 3 4; do writer $w & done
	for r in 1 2; do reader $r & done
	wait_until "test \$(acked) -ge $enough" &&
	pg_ctl_as -m immediate stop &&
	wait_until "cat \"\$T\"/codes.* 2>/dev/null | grep -q \"^75 \"" &&
	standby_ctl promote &&
	before=$(acked) &&
	wait_until "test \$(acked) -ge \$((before + enough))"
	rc=$?
	touch "$T/stop"
	wait
	test $rc = 0 &&
	convctl copy "$BOTH&target_session_attrs=read-write" - >all &&
	jq -r ".conversations[].messages[].content" all | sort >stored &&
	sort -u stored >stored.once &&
	echo "twice:" && ! sort stored | uniq -d | grep . &&
	sort "$T"/acked.* >acked &&
	echo "acknowledged, not stored:" && ! comm -23 acked stored.once | grep . &&
	cat "$T"/codes.* >codes &&
	echo "failed otherwise than 75:" && ! grep -v "^75 " codes &&
	while read -r code m; do
		holds "may or may not be stored" "$T/$m.err" || echo "$m"
	done <codes | sort >refused &&
	echo "refused, stored:" && ! comm -12 refused stored.once | grep . &&
	test "$(jq "[.conversations[] | select(.endedAt == null)] | length" all)" = 1 &&
	echo "readers:" && sort "$T"/rexit.* | uniq -c &&
	test "$(cat "$T"/rexit.* | sort -u | grep -v "^75$")" = 0
'

test_done
