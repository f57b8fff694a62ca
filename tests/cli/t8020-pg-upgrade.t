#!/bin/sh
# The PostgreSQL store's schema upgrades in place: a store made by the
# release with schema version 1 (tests/fixtures/pg/store-v1.sql, pg_dump of
# it, with rows) is read as it is, and the first writer upgrades it, under
# the writers' lock, once, with nothing lost; a newer schema is refused.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the upgrade test restores its own PostgreSQL fixture"
pg_share=yes	# a database of the file's own on make check's cluster
. "$top/tests/pg.sh"
# the second database's name and its role's, the file's database's name in
# them on a shared cluster (databases and roles are the cluster's)
noext=noext${pg_db:+_$pg_db} bob=bob${pg_db:+_$pg_db}

fixture=$top/tests/fixtures/pg/store-v1.sql
# a store's URI but for its schema's name: a case whose text holds no "&"
# runs in the file's shell, not a subshell (case_inline, lib.sh)
PS="$PG_URI&schema="
# restore SCHEMA [DB [SQL...]]: the fixture's store as schema SCHEMA of
# database DB, then each SQL (one psql)
restore() {
	r_schema=$1 r_db=${2:-}
	shift $(($# < 2 ? $# : 2))
	for sql; do set -- "$@" -c "$sql"; shift; done
	psql "$PG_URI${r_db:+&dbname=$r_db}" -X -q -v ON_ERROR_STOP=1 -f "$fixture" \
	    -c "alter schema convctl rename to $r_schema" "$@" >/dev/null
}
# state SCHEMA [SQL]: "VERSION INDEXES": its schema version and whether it
# has the trigram index (1) or not (0); then SQL's rows: one psql
state() {
	psql_as "select (select value from $1.meta where key = 'schema_version')
	    || ' ' || (select count(*) from pg_indexes where schemaname = '$1' and
	    indexname = 'messages_text')" ${2:+"$2"}
}

test_pg 'a reader reads a version 1 store as it is, and does not upgrade it' '
	restore up1 &&
	U="${PS}up1" &&
	convctl -s "$U" recent --json >recent &&
	jq_is recent -c length 4 &&
	convctl -s "$U" search -E "milk|Привет" >found &&
	n=0 && while IFS= read -r l; do n=$((n + 1)); done <found &&
	test "$n" -ge 3 &&
	state up1 >state && file_is "1 0" state
'

test_pg 'the first writer upgrades it to version 2 in place, nothing lost' '
	U="${PS}up1" &&
	convctl copy "$U" - >before &&
	CONVCTL_NOW=2026-02-07T10:00:30.000Z convctl -s "$U" add "after the upgrade" &&
	state up1 >state && file_is "2 1" state &&
	convctl copy "$U" - >after &&
	# 16 messages before; after, but for its last message, is before (its
	# JSON, keys in their order); that last message is the add: one jq
	jq -rn --slurpfile b before --slurpfile a after "
	    (\$b[0] | [.conversations[].messages[]] | length) as \$n |
	    (if \$n != 16 then \"before: \(\$n) messages, want 16\" else empty end),
	    ((\$a[0] | (.conversations[] | select(.endedAt == null) | .messages)
	    |= .[:-1] | tojson) as \$less | (\$b[0] | tojson) as \$was |
	    if \$less != \$was then \"after, less its last message:\n\(\$less)\nbefore:\n\(\$was)\"
	    else empty end),
	    ([\$a[0].conversations[] | select(.endedAt == null) | .messages[-1].content] |
	    if . != [\"after the upgrade\"] then \"last messages: \(.)\" else empty end)
	    " >wrong && file_is "" wrong &&
	tr -d " \n" <after >after.flat &&
	holds "\"futureTop\":{\"k\":[1,2.50,\"x\"]}" after.flat &&
	holds "\"content\":\"nul\\u0000byte and café\",\"rating\":1e3}" after
'

test_pg 'eight writers at once on a version 1 store: upgraded once, every add there' '
	restore up8 &&
	U="$PG_URI&schema=up8" &&
	for w in 1 2 3 4 5 6 7 8; do
		convctl -s "$U" --wait 60 add "w$w" >/dev/null 2>"$T/w$w.err" ||
		    echo "w$w exited $?: $(cat "$T/w$w.err")" >>"$T/failed" &
	done &&
	wait &&
	test ! -s "$T/failed" &&
	state up8 "select count(*) from up8.messages;
	    select count(*) from up8.meta" >state && file_is "2 1
24
1" state
'

test_pg 'without pg_trgm (no CREATE on the database) it is version 2 unindexed, and search answers alike' '
	psql_as "create database $noext" "create role $bob login" &&
	restore upb $noext "alter schema upb owner to $bob" \
	    "alter table upb.meta owner to $bob" \
	    "alter table upb.root owner to $bob" \
	    "alter table upb.conversations owner to $bob" \
	    "alter table upb.messages owner to $bob" &&
	B="$PG_URI&dbname=$noext&user=$bob&schema=upb" &&
	CONVCTL_NOW=2026-02-07T10:00:30.000Z convctl -s "$B" add "after the upgrade" &&
	psql "$PG_URI&dbname=$noext" -XAt -c "select value from upb.meta" \
	    -c "select count(*) from pg_extension where extname = '"'pg_trgm'"'" >got &&
	file_is "2
0" got &&
	for q in milk SESSION "日本" byte; do
		convctl -s "$B" search --json "$q" >b.out &&
		convctl -s "$PG_URI&schema=up1" search --json "$q" >a.out &&
		same_file a.out b.out || return 1
	done
'

test_pg 'a schema newer than this convctl is refused, and nothing is written' '
	U="${PS}up1" &&
	psql_as "update up1.meta set value = '"'3'"'" &&
	fails_with 1 convctl -s "$U" add more &&
	stderr_has "schema version 3, and this convctl knows versions 1 to 2: use a newer convctl" &&
	fails_with 1 convctl -s "$U" recent &&
	psql_as "select count(*) from up1.messages" >count && file_is 17 count
'

test_done
