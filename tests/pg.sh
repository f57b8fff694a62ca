# tests/pg.sh - a throwaway PostgreSQL cluster for one CLI test file;
# source it after lib.sh. It starts the cluster tests/pg-cluster.sh makes,
# and stops it when the test file ends, whether a test failed or not. The
# names it sets ($PG_URI, $PG_TCP, psql_as, test_pg...) are described there.
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

# at the top level of the test file, so the EXIT trap sees PG_DIR
if [ -z "$PG_SKIP" ] && ! pg_start; then
	PG_SKIP="the cluster did not start (see above)"
fi
# pg_stop, and the cluster's directory removed with $T: one rm
trap '[ -z "${PG_DIR:-}" ] || pg_ctl_as -m immediate stop 2>/dev/null
for p in ${STUB_PIDS:-}; do kill "$p" 2>/dev/null; done
rm -rf ${PG_DIR:+"$PG_DIR"} "$T"' EXIT
