# tests/pg-cluster.sh - a throwaway PostgreSQL cluster, made with Debian's
# initdb and pg_ctl in a short temporary directory (a unix socket's path
# must stay under 107 bytes), listening there and on 127.0.0.1 at a free
# port, as the postgres user (through setpriv, or runuser where there is
# none) when the tests run as root.
# Never a mock. Sourced by tests/pg.sh (a cluster for one test file) and
# tests/with-pg (one for a whole run); it defines, and starts nothing:
#   pg_start            makes and starts the cluster, sets what follows
#   pg_initdb DIR       makes a cluster in DIR/data, not started
#   pg_stop             stops it and removes it
#   $PG_SKIP            why there is no cluster ("" when there is one)
#   $PG_URI             the cluster over its unix socket, as user postgres;
#                       add "&schema=NAME" for a store of its own
#   $PG_TCP             the same over TCP, with the password $PG_PASSWORD
#                       (it too ends in a query: add "&schema=NAME")
#   pg_ctl_as ARGS...   pg_ctl on the cluster (stop -m immediate, start ...)
#   psql_as SQL...      runs each SQL in turn on the cluster, in one psql
#                       (one process, one connection), prints rows unaligned
#   pg_wait SQL         waits until the boolean SQL holds on the cluster
#   test_pg 'name' 'commands'  test_expect, or a skip saying $PG_SKIP
#                       (with tests/lib.sh)
PG_SKIP=
PG_PASSWORD=pg-test-secret
# (the shell finds the newest server and our user id: a test file sources
# this, and each process it saves is one a file)
# the newest server: the highest MAJOR.MINOR of /usr/lib/postgresql/*/bin
pg_bin= pg_key=-1
for pg_d in /usr/lib/postgresql/*/bin; do
	pg_v=${pg_d%/bin} && pg_v=${pg_v##*/}
	case $pg_v in "" | *[!0-9.]* | .* | *.*.*) continue ;; esac
	case $pg_v in
	*.*) pg_k=$((${pg_v%.*} * 1000 + ${pg_v#*.})) ;;	# 9.6: 9006
	*) pg_k=$((pg_v * 1000)) ;;	# 15: 15000
	esac
	[ "$pg_k" -le "$pg_key" ] || pg_key=$pg_k pg_bin=$pg_d
done
# our effective user id, as id -u prints it: /proc/self/status's Uid line
# (real, effective, saved, file system)
pg_uid=
while read -r pg_k pg_r pg_e pg_rest; do
	[ "$pg_k" != Uid: ] || { pg_uid=$pg_e; break; }
done 2>/dev/null </proc/self/status
[ -n "$pg_uid" ] || pg_uid=$(id -u)
# has_postgres: there is a user postgres (in /etc/passwd, else as id finds it)
has_postgres() {
	while IFS=: read -r pg_k pg_rest; do
		[ "$pg_k" != postgres ] || return 0
	done 2>/dev/null </etc/passwd
	id postgres >/dev/null 2>&1
}
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
	PG_SKIP="no PostgreSQL server (scripts/install-deps pg installs it)"
elif [ "$pg_uid" -eq 0 ] && ! has_postgres; then
	PG_SKIP="running as root, and there is no postgres user to run the server"
fi

# as the user that owns the cluster: postgres when we are root, through
# setpriv, which becomes the command (runuser forks it: a process more a
# call), with the environment runuser gives; runuser where there is none
pg_as() {
	if [ "$pg_uid" -ne 0 ]; then
		"$@"
	elif command -v setpriv >/dev/null; then
		(cd / && HOME=~postgres USER=postgres LOGNAME=postgres \
		    exec setpriv --reuid=postgres --regid=postgres --init-groups "$@")
	else
		(cd / && exec runuser -u postgres -- "$@")
	fi
}

pg_ctl_as() {
	pg_as "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w "$@" \
	    >>"$PG_DIR/ctl.log" 2>&1
}

psql_as() {
	for sql; do set -- "$@" -c "$sql"; shift; done
	psql "$PG_URI" -X -q -A -t -v ON_ERROR_STOP=1 "$@"
}

# pg_wait SQL: waits until the boolean SQL holds, asked every 0.05 s for 20
# s at most (wait_until's bound) in one psql and one session, not a psql and
# a sleep a try; else fails, saying which one did not hold. The session's
# snapshot of the server's statistics (pg_stat_*) is dropped at each try
pg_wait() {
	psql_as "do \$pg_wait\$ begin
	    for i in 1..400 loop
		perform pg_stat_clear_snapshot();
		if ($1) then return; end if;
		perform pg_sleep(0.05);
	    end loop;
	    raise exception 'gave up waiting for: %', \$pg_q\$$1\$pg_q\$;
	    end \$pg_wait\$"
}

test_pg() {
	if [ -n "$PG_SKIP" ]; then
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: $PG_SKIP"
	else
		test_expect "$1" "$2"
	fi
}

# pg_initdb DIR: a new cluster in DIR/data, DIR made by mktemp (its owner
# the cluster's)
pg_initdb() {
	echo "$PG_PASSWORD" >"$1/pw"
	[ "$pg_uid" -ne 0 ] || chown postgres "$1" "$1/pw"
	pg_as "$pg_bin/initdb" -D "$1/data" -U postgres -E UTF8 \
	    --auth-local=trust --auth-host=scram-sha-256 --pwfile="$1/pw" \
	    >"$1/initdb.log" 2>&1 || { cat "$1/initdb.log"; return 1; }
}

# a copy of $CONVCTL_TEST_PG_TEMPLATE/data (tests/with-pg makes one with
# pg_initdb for the run), or else a cluster made anew: initdb once a run
pg_start() {
	PG_DIR=$(mktemp -d /tmp/cvpg.XXXXXX) || return 1
	# a free port (written to PG_DIR/port), and PG_DIR given to postgres
	# when we are root: one python, no chown
	python3 -c 'import os, pwd, socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
with open(sys.argv[1] + "/port", "w") as f:
    f.write("%d\n" % s.getsockname()[1])
if os.geteuid() == 0:
    os.chown(sys.argv[1], pwd.getpwnam("postgres").pw_uid, -1)' "$PG_DIR" &&
	    read -r PG_PORT <"$PG_DIR/port" || return 1
	if [ -n "${CONVCTL_TEST_PG_TEMPLATE:-}" ]; then
		pg_as cp -a "$CONVCTL_TEST_PG_TEMPLATE/data" "$PG_DIR/data" || return 1
	else
		pg_initdb "$PG_DIR" || return 1
	fi
	pg_ctl_as -o "-k $PG_DIR -p $PG_PORT -c listen_addresses=127.0.0.1 \
	    -c fsync=off -c max_connections=60" start ||
	    { cat "$PG_DIR/ctl.log" "$PG_DIR/log"; return 1; }
	PG_URI="postgresql:///postgres?host=$PG_DIR&port=$PG_PORT&user=postgres"
	PG_TCP="postgresql://postgres:$PG_PASSWORD@127.0.0.1:$PG_PORT/postgres?sslmode=disable"
	export PG_URI PG_TCP
}

pg_stop() {
	[ -n "${PG_DIR:-}" ] || return 0
	pg_ctl_as -m immediate stop 2>/dev/null
	rm -rf "$PG_DIR"
}

