#!/bin/sh
# The PostgreSQL store's connection: what each of libpq's and the server's
# answers means for the exit status (75 only for what another try may mend),
# no password shown in any form it was written, every wait bounded, and the
# schemas PostgreSQL keeps for itself refused; on a server the test starts
# (tests/pg.sh).
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t8010-pg-connect.t starts its own server"
# a database of the file's own on make check's shared cluster; a cluster of
# its own only for the case that stops the server (pg_own, tests/pg.sh)
pg_share=yes
. "$top/tests/pg.sh"

# a password in two halves: neither may be printed, whole or in part
A=Kq8v B=Wz3j
tcp="127.0.0.1:$PG_PORT/postgres"
# no_half FILE: no line of FILE holds a half of the password (read by the
# shell: lacks); else shows the first that does
no_half() {
	lacks "$A" "$1" && lacks "$B" "$1"
}
# no half of the password printed by add, recent or config on URI $1
no_leak() {
	for c in "add hi" recent config; do
		convctl -s "$1" $c >"$T/out" 2>&1
		no_half "$T/out" || { echo "('$c' on $1 printed it)"; return 1; }
	done
}

test_pg 'no password is shown, whatever the shape of the URI' '
	for u in "postgresql://alice:$A$B@[::1:5432/db" \
	    "postgresql://alice:$A%ZZ$B@$tcp" \
	    "postgresql://alice:$A/$B@$tcp" \
	    "postgresql://$tcp?sslpassword=$A$B&sslmode=disable" \
	    "postgresql://$tcp?%70assword=$A$B&sslmode=disable" \
	    "postgresql://$tcp?%70assword=$A%ZZ$B&sslmode=disable" \
	    "postgresql://alice:$A@$B@$tcp" \
	    "postgresql://alice:$A?$B@$tcp" \
	    "postgresql://postgres:$A$B@$tcp?sslmode=disable&schema=leak" \
	    "postgresql://postgres:$A%40$B@$tcp?sslmode=disable"; do
		no_leak "$u" || return 1
	done
'

test_pg 'a URI libpq cannot read: exit 2, its user information and query masked' '
	fails_with 2 convctl -s "postgresql://alice:$A$B@[::1:5432/db?sslmode=x" recent &&
	stderr_has "store '"'postgresql://***@[::1:5432/db?***'"'" &&
	stderr_has "is not one libpq reads" &&
	fails_with 2 convctl -s "postgresql://alice:$A/$B@$tcp" recent &&
	stderr_has "%2F" && no_half "$T/err"
'

test_pg 'settings libpq refuses are a usage error, never "try again"' '
	for u in "$PG_TCP&sslmode=bogus" \
	    "postgresql://127.0.0.1:notaport/postgres?sslmode=disable" \
	    "$PG_TCP&bogus=1" "$PG_TCP&password" \
	    "postgresql://a%ZZ@127.0.0.1:$PG_PORT/postgres?sslmode=disable" \
	    "$PG_TCP&connect_timeout=soon"; do
		fails_with 2 convctl -s "$u&schema=x" add hi || return 1
	done &&
	: >"$T/services" &&
	PGSERVICEFILE=$T/services PGSERVICE=nosuch fails_with 2 \
	    convctl -s "postgresql://127.0.0.1:$PG_PORT/postgres" recent &&
	stderr_has "service \"nosuch\"" && stderr_has "libpq refused the connection"
'

test_pg 'the server refusing the password, the role or the database: exit 1' '
	nopw="postgresql://postgres@$tcp?sslmode=disable" &&
	PGPASSFILE=/dev/null fails_with 1 convctl -s "$nopw" recent &&
	stderr_has "no password supplied" && stderr_has "~/.pgpass" &&
	fails_with 1 convctl -s "$PG_TCP&password=wrong" recent &&
	stderr_has "password authentication failed" &&
	fails_with 1 convctl -s "$PG_URI&dbname=nosuchdb" recent &&
	stderr_has "does not exist" &&
	fails_with 1 convctl -s "$PG_URI&user=nosuchrole" recent &&
	stderr_has "role \"nosuchrole\" does not exist"
'

test_pg 'a server that is not there: exit 75, and a line saying what that means' '
	fails_with 75 convctl -s "postgresql:///postgres?host=$T/none&user=postgres" add hi &&
	lines_are 2 "$T/err" && { read -r first && read -r last; } <"$T/err" &&
	case $first in
	"convctl: add: cannot connect to store "*"No such file or directory") ;;
	*) echo "line 1: $first"; return 1 ;;
	esac &&
	case $last in
	"convctl: add: no PostgreSQL server is running or reachable at that host or socket"*"exit 75 means try again later") ;;
	*) echo "line 2: $last"; return 1 ;;
	esac
'

test_pg 'PostgreSQL'"'"'s own schemas are refused, and nothing is made in them' '
	for s in information_schema pg_catalog pg_toast pg_temp pg_mine; do
		fails_with 2 convctl -s "$PG_URI&schema=$s" add hi &&
		stderr_has "schema" && stderr_has "$s" && stderr_has "is PostgreSQL" || return 1
	done &&
	psql_as "select count(*) from pg_tables where tablename in
	    ('"'root'"', '"'conversations'"', '"'messages'"') and (schemaname =
	    '"'information_schema'"' or schemaname like '"'pg\\_%'"')" >made &&
	file_is 0 made
'

# the postmaster stopped (SIGSTOP): the kernel takes the connection, no one
# answers it; only connect_timeout ends the wait. The URI's and
# PGCONNECT_TIMEOUT's (2 s) at once, and at full counts (TEST_FULL=1) the
# 10-second default beside them (make check leaves that wait out): one
# minute at most, however it goes, and the server always let go again
stopped_server() {
	read -r pid <"$PG_DIR/data/postmaster.pid"
	kill -STOP "$pid" || return 1
	( timeout 60 "$CONVCTL_BIN" --wait 2 -s "$PG_TCP&schema=stopped&connect_timeout=2" \
	    add x 2>"$T/uri.err"; echo "uri $?" >"$T/uri.rc" ) &
	( PGCONNECT_TIMEOUT=2 timeout 60 "$CONVCTL_BIN" --wait 2 -s "$PG_TCP&schema=stopped" \
	    add x 2>"$T/env.err"; echo "env $?" >"$T/env.rc" ) &
	want="uri 75
env 75" ways="uri env"
	if [ -n "${TEST_FULL:-}" ]; then
		( timeout 60 "$CONVCTL_BIN" --wait 2 -s "$PG_TCP&schema=stopped" \
		    add x 2>"$T/default.err"; echo "default $?" >"$T/default.rc" ) &
		want="$want
default 75" ways="$ways default"
	fi
	wait
	kill -CONT "$pid"
	got= && for w in $ways; do
		while IFS= read -r l; do printf "%s\n" "$l"; done <"$T/$w.err"
		read -r rc <"$T/$w.rc" && got=${got:+$got
}$rc
	done
	test "$got" = "$want" &&
	for w in $ways; do
		holds "timeout expired" "$T/$w.err" &&
		holds "within connect_timeout" "$T/$w.err" || return 1
	done &&
	convctl -s "$PG_TCP&schema=stopped" add "after" >/dev/null
}
counts_to else10 "" ", else 10 s"
pg_own
test_pg "a server that does not answer: connect_timeout (the URI's, PGCONNECT_TIMEOUT$else10) ends the wait, exit 75" '
	stopped_server
'

test_done
