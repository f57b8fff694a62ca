# tests/pg.sh - a throwaway PostgreSQL cluster for one CLI test file;
# source it after lib.sh. It starts the cluster tests/pg-cluster.sh makes,
# and stops it when the test file ends, whether a test failed or not. The
# names it sets ($PG_URI, $PG_TCP, psql_as, test_pg...) are described there.
# A file that sets pg_share=yes before sourcing it takes, under tests/with-pg
# (make check: $CONVCTL_TEST_PG), a database of its own on the run's shared
# cluster instead ($PG_URI and $PG_TCP name it; no $PG_DIR), made now and
# dropped when the file ends: no server started, and the server's backends
# no processes of the file's. Alone, it starts its cluster as any file does.
#   pg_own    before a case that needs a server of its own (stopped,
#             restarted, its settings changed, signalled: $PG_DIR,
#             pg_ctl_as): starts the file's cluster once, at its first call,
#             and points $PG_URI, $PG_TCP, psql_as... at it; nothing when the
#             file has its cluster already
. "$top/tests/pg-cluster.sh"

# the template cluster tests/with-pg made (pg_start copies it: no initdb),
# whose name lib.sh took out of the environment with every CONVCTL_
# variable, from what it kept of it ("export NAME='VALUE'" lines)
if [ -z "${CONVCTL_TEST_PG_TEMPLATE:-}" ] && [ -r "$T/.env" ]; then
	while read -r pg_k pg_v; do
		case $pg_v in
		CONVCTL_TEST_PG_TEMPLATE=*)
			pg_v=${pg_v#*=} && pg_v=${pg_v#\'}
			CONVCTL_TEST_PG_TEMPLATE=${pg_v%\'} ;;
		esac
	done <"$T/.env"
fi

pg_own() {
	[ -n "$PG_SKIP" ] || [ -n "${PG_DIR:-}" ] || pg_start ||
	    PG_SKIP="the cluster did not start (see above)"
}

# the shared cluster's URI, "postgresql:///postgres?host=DIR&port=PORT&
# user=postgres" (tests/with-pg), less its database: the file's, named by
# the file's number and this shell's pid (dropped first: a pid a file of an
# earlier run had may have left it)
pg_db=
if [ -n "${pg_share:-}" ] && [ -n "${shared_pg:-}" ] && [ -z "$PG_SKIP" ]; then
	pg_db=${0##*/} && pg_db=${pg_db%%-*}_$$
	PG_PORT=${shared_pg#*port=} && PG_PORT=${PG_PORT%%&*}
	PG_URI="postgresql:///$pg_db?${shared_pg#*\?}"
	PG_TCP="postgresql://postgres:$PG_PASSWORD@127.0.0.1:$PG_PORT/$pg_db?sslmode=disable"
	psql "$shared_pg" -X -q -v ON_ERROR_STOP=1 \
	    -c "set client_min_messages = warning" \
	    -c "drop database if exists $pg_db with (force)" \
	    -c "create database $pg_db" ||
	    PG_SKIP="no database of the file's own on the shared cluster (see above)"
	export PG_URI PG_TCP
# at the top level of the test file, so the EXIT trap sees PG_DIR
elif [ -z "$PG_SKIP" ] && ! pg_start; then
	PG_SKIP="the cluster did not start (see above)"
fi
# pg_stop, and the cluster's directory removed with $T: one rm; the file's
# database on the shared cluster dropped
trap '[ -z "${PG_DIR:-}" ] || pg_ctl_as -m immediate stop 2>/dev/null
[ -z "$pg_db" ] || psql "$shared_pg" -X -q -c "set client_min_messages = warning" \
    -c "drop database if exists $pg_db with (force)"
for p in ${STUB_PIDS:-}; do kill "$p" 2>/dev/null; done
rm -rf ${PG_DIR:+"$PG_DIR"} "$T"' EXIT
