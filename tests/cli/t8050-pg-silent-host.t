#!/bin/sh
# A writer host that goes silent mid-write does not stop the others'
# writes (issue 47). Hosts are network namespaces on a bridge that exists
# only inside a namespace of its own (10.213.0.0/24, no route out of any):
# a PostgreSQL server of the file's own in one, listening on its bridge
# address only (trust for that subnet), and three client hosts running
# convctl add against it. h3's add takes the writers' lock; then nftables
# in the server's namespace drops every packet to h3 (its replies) and from
# it, while its transaction is open: a host that froze or vanished (the FIN
# of a client that gives up would tell the server; a silent host sends
# none). The server ends that transaction within the
# bound convctl sets for its writers (about the default --wait), so the
# adds h1 and h2 start behind it all exit 0 within a generous bound; each
# is stored once, and h3's is not stored (or, only when its message says
# "may or may not be stored", once). The namespaces, the server and every
# process the file started are gone at its end, however it ends.
# check: all-only (root, network namespaces, nftables and a server of its own; about 20 s, most of it the server's bound)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t8050-pg-silent-host.t starts its own server in a network namespace"
. "$top/tests/pg-cluster.sh"
if [ -n "$PG_SKIP" ]; then
	echo "1..0 # SKIP $PG_SKIP"
	exit 0
elif [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP network namespaces need root (CI runs as root)"
	exit 0
elif ! command -v ip >/dev/null || ! command -v nft >/dev/null; then
	echo "1..0 # SKIP no ip or nft (scripts/install-deps pg installs iproute2 and nftables)"
	exit 0
fi

# the namespaces: the bridge's, the server's, and a host's for each client;
# names of this run alone (the pid), addresses only on the bridge
BR=cvbr$$ SRV=cvsrv$$ H1=cvh1$$ H2=cvh2$$ H3=cvh3$$
SRV_IP=10.213.0.1 H3_IP=10.213.0.4
PG_DIR=

# every process a case leaves behind is named in $T/.pids, and ended here
cleanup() {
	for p in $(cat "$T/.pids" 2>/dev/null); do kill "$p" 2>/dev/null; done
	if [ -n "$PG_DIR" ]; then
		pg_ctl_as -m immediate stop 2>/dev/null
		rm -rf "$PG_DIR"
	fi
	for ns in $H1 $H2 $H3 $SRV $BR; do
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# net_up: the bridge in its namespace, and each host's end of a veth pair
# in its own (eth0, 10.213.0.N/24), the other end a port of the bridge
net_up() {
	ip netns add "$BR" && ip -n "$BR" link add br0 type bridge &&
	ip -n "$BR" link set br0 up || return 1
	n=1
	for ns in $SRV $H1 $H2 $H3; do
		ip netns add "$ns" &&
		ip -n "$BR" link add "p$n" type veth peer name eth0 netns "$ns" &&
		ip -n "$BR" link set "p$n" master br0 up &&
		ip -n "$ns" link set lo up &&
		ip -n "$ns" addr add "10.213.0.$n/24" dev eth0 &&
		ip -n "$ns" link set eth0 up || return 1
		n=$((n + 1))
	done
}

# srv_up: the cluster, its socket in $PG_DIR (for the test's own psql,
# which no rule touches) and TCP on the bridge address only, the server
# running in the server's namespace
srv_up() {
	PG_DIR=$(mktemp -d /tmp/cvpg.XXXXXX) || return 1
	if [ -n "${CONVCTL_TEST_PG_TEMPLATE:-}" ]; then
		chown postgres "$PG_DIR" &&
		pg_as cp -a "$CONVCTL_TEST_PG_TEMPLATE/data" "$PG_DIR/data"
	else
		pg_initdb "$PG_DIR"
	fi || return 1
	echo "host all all 10.213.0.0/24 trust" |
	    pg_as sh -c 'cat >>"$1"' - "$PG_DIR/data/pg_hba.conf" &&
	(cd / && ip netns exec "$SRV" runuser -u postgres -- \
	    "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o \
	    "-k $PG_DIR -p 5432 -c listen_addresses=$SRV_IP -c fsync=off" \
	    start) >"$PG_DIR/ctl.log" 2>&1 ||
	    { cat "$PG_DIR/ctl.log" "$PG_DIR/log"; return 1; }
	PG_URI="postgresql:///postgres?host=$PG_DIR&port=5432&user=postgres"
}

if ! net_up; then
	echo "1..0 # SKIP cannot make network namespaces and a bridge here (no CAP_NET_ADMIN?)"
	exit 0
fi
if ! srv_up; then
	echo "1..0 # SKIP the cluster did not start in its namespace (see above)"
	exit 0
fi

# the store over the bridge, as each host names it; h3 gives up on a
# silent server in about 3 s (the URI's keepalives and tcp_user_timeout)
U="postgresql://postgres@$SRV_IP:5432/postgres?sslmode=disable&connect_timeout=5&schema=silent"
U3="$U&keepalives_idle=1&keepalives_interval=1&keepalives_count=2&tcp_user_timeout=3000"
# on HOST: convctl run in the namespace HOST
on() {
	ns=$1
	shift
	ip netns exec "$ns" $CONVCTL_WRAPPER "$CONVCTL_BIN" "$@"
}
q() { psql_as "$1"; }

test_expect 'three hosts write to the server over the bridge, and nothing leaves it' '
	on "$H1" -s "$U" add warm-h1 >/dev/null &&
	on "$H2" -s "$U" add warm-h2 >/dev/null &&
	on "$H3" -s "$U3" add warm-h3 >/dev/null &&
	for ns in $SRV $H1 $H2 $H3; do
		ip -n "$ns" route show >routes &&
		test "$(grep -c . routes)" = 1 && grep -q "^10.213.0.0/24 dev eth0" routes ||
		{ echo "$ns routes:"; cat routes; return 1; }
	done
'

# a session of the test's own holds the store's root table, so that h3's
# add, once it has the writers' lock, waits on its first read, inside its
# transaction; unhold ends that session
holding_root() {
	test "$(q "select count(*) from pg_locks l join pg_class c on
	    c.oid = l.relation where c.relname = 'root' and l.granted and
	    l.mode = 'AccessExclusiveLock'")" = 1
}
h3_has_lock() {
	test "$(q "select count(*) from pg_locks l join pg_stat_activity a
	    using (pid) where l.locktype = 'advisory' and l.granted and
	    a.client_addr = '$H3_IP'")" = 1
}
unhold() {
	q "select pg_terminate_backend(pid) from pg_stat_activity
	    where query like '%pg_sleep(600)%' and pid <> pg_backend_pid()" >/dev/null
}
# the drop, in the server's namespace: every packet to h3 and from it
silence_h3() {
	ip netns exec "$SRV" nft -f - <<-EOF
	table inet silent {
		chain out {
			type filter hook output priority 0; policy accept;
			ip daddr $H3_IP drop
		}
		chain in {
			type filter hook input priority 0; policy accept;
			ip saddr $H3_IP drop
		}
	}
	EOF
}
# every add of host N (1, 2) that does not exit 0, with its status; the
# seconds from $began until the last of them ended
adds() {
	ip netns exec "$1" sh -c '
		for i in 1 2 3 4; do
			$4 "$5" -s "$1" --wait 25 add "$2-$i" >/dev/null \
			    2>>"$2.err" || echo "$2-$i $?"
		done
		echo $(($(date +%s) - $3)) >"$2.took"' - "$U" "$2" "$began" \
	    "$CONVCTL_WRAPPER" "$CONVCTL_BIN" >"$2.failed"
}

test_expect 'h3 goes silent holding the writers'"'"' lock: h1 and h2 write on (exit 0) within about the default --wait; h3 exits 75' '
	{ psql "$PG_URI" -X -q -c "begin" -c "lock table silent.root in
	    access exclusive mode" -c "select pg_sleep(600)" -c "commit" \
	    >/dev/null 2>&1 3>&- & } && echo $! >>.pids &&
	wait_until holding_root || exit 1
	{ on "$H3" -s "$U3" --wait 60 add h3-silenced >/dev/null 2>h3.err; echo $? >h3.rc; } 3>&- &
	echo $! >>.pids
	wait_until h3_has_lock &&
	silence_h3 && unhold &&
	began=$(date +%s) &&
	{ adds "$H1" h1 3>&- & } && a1=$! && { adds "$H2" h2 3>&- & } && a2=$! &&
	wait "$a1" && wait "$a2" &&
	wait_until "test -s h3.rc" &&
	cat h1.failed h2.failed >failed &&
	echo "adds that failed:" && ! grep . failed &&
	took=$(cat h1.took h2.took | sort -n | tail -n 1) &&
	echo "# h1 and h2: 8 adds in $took s after h3 went silent" >&3 &&
	test "$took" -le 40 &&
	test "$(cat h3.rc)" = 75 &&
	grep -q "try again\|may or may not be stored" h3.err &&
	! h3_has_lock
' 3>&1

test_expect 'h3 heard again writes on; every add that exited 0 is stored once, h3'"'"'s silenced one not (or, said so, once); one active conversation' '
	ip netns exec "$SRV" nft delete table inet silent &&
	wait_until "on \"\$H3\" -s \"\$U3\" add h3-after >/dev/null 2>&1" &&
	q "select doc->>'"'content'"' from silent.messages" | sort >stored &&
	{
		echo warm-h1; echo warm-h2; echo warm-h3; echo h3-after
		for h in h1 h2; do for i in 1 2 3 4; do echo "$h-$i"; done; done
	} | sort >acked &&
	grep -v "^h3-silenced$" stored >others &&
	test_cmp acked others &&
	silenced=$(grep -c "^h3-silenced$" stored || true) &&
	if holds "may or may not be stored" h3.err; then
		test "$silenced" -le 1
	else
		test "$silenced" = 0
	fi &&
	test "$(q "select count(*) from silent.conversations where ended_at is null")" = 1
'

test_done
