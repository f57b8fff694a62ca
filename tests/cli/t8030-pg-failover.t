#!/bin/sh
# A PostgreSQL primary and a hot standby (pg_basebackup -R, synchronous
# replication), on clusters the test starts: a writer that reaches the
# standby is told so (exit 75, target_session_attrs=read-write named), a
# URI of two hosts prints each host's answer, and the primary stopped
# (-m immediate) and the standby promoted while writers and readers run
# loses no add that exited 0, stores none that exited 75 before its commit,
# and fails no reader on target_session_attrs=prefer-standby.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t8030-pg-failover.t starts its own primary and standby"
. "$top/tests/pg.sh"

S=$PG_DIR/standby
standby_ctl() {
	pg_as "$pg_bin/pg_ctl" -D "$S" -l "$PG_DIR/standby.log" -w "$@" \
	    >>"$PG_DIR/ctl.log" 2>&1
}
trap ': >"$T/stop"; wait; [ -d "$S" ] && standby_ctl -m immediate stop
[ -z "${PG_DIR:-}" ] || pg_ctl_as -m immediate stop 2>/dev/null
rm -rf ${PG_DIR:+"$PG_DIR"} "$T"' EXIT

# the standby, streaming from the primary, which waits for it at each commit
standby_start() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >"$T/sport" &&
	    read -r S_PORT <"$T/sport" || return 1
	pg_as "$pg_bin/pg_basebackup" -D "$S" -h "$PG_DIR" -p "$PG_PORT" \
	    -U postgres -R -X stream -c fast >"$T/basebackup.log" 2>&1 ||
	    { cat "$T/basebackup.log"; return 1; }
	standby_ctl -o "-k $PG_DIR -p $S_PORT -c listen_addresses=127.0.0.1 \
	    -c fsync=off" start || { cat "$PG_DIR/standby.log"; return 1; }
	psql_as "ALTER SYSTEM SET synchronous_standby_names = '*'" \
	    "SELECT pg_reload_conf()" >/dev/null &&
	pg_wait "exists (select from pg_stat_get_wal_senders() where
	    sync_state = 'sync')"
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
	holds_n 1 "read-only transaction" "$T/err" &&
	stderr_has "target_session_attrs=read-write" &&
	fails_with 75 convctl -s "$ON_STANDBY&target_session_attrs=read-write" add "not here" &&
	stderr_has "session is read-only" && stderr_has "target_session_attrs=read-write" &&
	psql_as "select count(*) from fo.messages" >count && file_is 1 count
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
# acked: n is how many adds were acknowledged, counted by the shell
acked() {
	n=0
	for f in "$T"/acked.*; do
		[ -e "$f" ] || continue
		while IFS= read -r l; do n=$((n + 1)); done <"$f"
	done
}
# refused75: an add met exit 75 (a "75 wI-J" line in a codes file)
refused75() {
	for f in "$T"/codes.*; do
		[ -e "$f" ] && line_like "75 *" "$f" >/dev/null && return 0
	done
	return 1
}
# the adds acknowledged before the primary is stopped, and again after the
# standby's promotion, before the writers stop (the 4 writers and 2
# readers loop all the while): 4 each in make check, 10 at full counts
# (TEST_FULL=1)
counts_to enough 4 10

# a reader may meet the primary as it stops, mid-handshake ("server closed
# the connection unexpectedly"), which libpq does not take to the next
# host: that is exit 75, and never any other failure
test_pg 'the primary stopped and the standby promoted under writers: nothing acknowledged lost, nothing refused stored, readers never fail otherwise than 75' '
	for w in 1 2 3 4; do writer $w & done
	for r in 1 2; do reader $r & done
	wait_until "acked && test \$n -ge $enough" &&
	pg_ctl_as -m immediate stop &&
	wait_until refused75 &&
	standby_ctl promote &&
	acked && before=$n &&
	wait_until "acked && test \$n -ge \$((before + enough))"
	rc=$?
	: >"$T/stop"
	wait
	test $rc = 0 &&
	convctl copy "$BOTH&target_session_attrs=read-write" - >all &&
	# the adds acknowledged; those refused (exit 75, not "may or may not
	# be stored"); any that failed otherwise: read by the shell
	other= &&
	for f in "$T"/acked.* "$T"/codes.*; do
		[ -e "$f" ] || continue
		while read -r code m; do
			case $f in
			*/acked.*) echo "$code" ;;
			*) if [ "$code" != 75 ]; then
				other="$other $code:$m"
			elif lacks "may or may not be stored" "$T/$m.err" >/dev/null; then
				echo "$m" >&3
			fi ;;
			esac
		done <"$f"
	done >acked 3>refused &&
	echo "failed otherwise than 75:$other" && test -z "$other" &&
	# stored twice, acknowledged and not stored, refused and stored, more
	# or less than one active conversation: one jq
	jq -r --rawfile acked acked --rawfile refused refused "
	    [.conversations[].messages[].content] as \$c |
	    (\$c | group_by(.)[] | select(length > 1) | \"twice: \(.[0])\"),
	    (\$acked | split(\"\\n\")[] | select(. != \"\") as \$m |
	    select(\$c | any(.[]; . == \$m) | not) |
	    \"acknowledged, not stored: \(\$m)\"),
	    (\$refused | split(\"\\n\")[] | select(. != \"\") as \$m |
	    select(\$c | any(.[]; . == \$m)) | \"refused, stored: \(\$m)\"),
	    ([.conversations[] | select(.endedAt == null)] | length |
	    select(. != 1) | \"active conversations: \(.)\")" all >wrong &&
	file_is "" wrong &&
	# the readers: each exited 0 or 75, and some 0
	r0=0 r75=0 rother= &&
	for f in "$T"/rexit.*; do
		while read -r x; do
			case $x in
			0) r0=$((r0 + 1)) ;;
			75) r75=$((r75 + 1)) ;;
			*) rother="$rother $x" ;;
			esac
		done <"$f"
	done &&
	echo "readers: $r0 exited 0, $r75 exited 75, others:$rother" &&
	test -z "$rother" && test "$r0" -gt 0
'

test_done
