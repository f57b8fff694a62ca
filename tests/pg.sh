# tests/pg.sh - a throwaway PostgreSQL cluster for one CLI test file;
# source it after lib.sh. It starts the cluster tests/pg-cluster.sh makes,
# and stops it when the test file ends, whether a test failed or not. The
# names it sets ($PG_URI, $PG_TCP, psql_as, test_pg...) are described there.
. "$top/tests/pg-cluster.sh"

# at the top level of the test file, so the EXIT trap sees PG_DIR
if [ -z "$PG_SKIP" ] && ! pg_start; then
	PG_SKIP="the cluster did not start (see above)"
fi
trap 'pg_stop; for p in ${STUB_PIDS:-}; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
