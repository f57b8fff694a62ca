#!/bin/sh
# The PostgreSQL store: the same commands give the same output as on a file,
# on a real server the test starts itself (tests/pg.sh); many writers on a
# socket and TCP, writers killed, the server stopped, passwords, copy (to
# and from SQLite too).
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t8000-pg.t compares both engines itself"
# a database of the file's own on make check's shared cluster; a cluster of
# its own only for the case that stops the server (pg_own, tests/pg.sh)
pg_share=yes
. "$top/tests/pg.sh"

F=$T/store.json
# 4 writers of 6 adds (each add a process and a connection, on a server),
# 12 kills (12 writers of 30 adds and 40 kills at full counts, TEST_FULL=1)
counts_to writers "1 2 3 4" "1 2 3 4 5 6 7 8 9 10 11 12"
counts_to adds 6 30
counts_to kills 12 40
# test_pg, but for the cases about timing (waits, kills, a server stopped
# mid-run), which a wrapper (valgrind) slows past their meaning: skipped there
test_pg_timed() {
	if [ -n "$CONVCTL_WRAPPER" ]; then
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: timing, not run under $CONVCTL_WRAPPER"
	else
		test_pg "$1" "$2"
	fi
}
P="$PG_URI&schema=parity"
# a store's URI on the cluster but for its schema's name, over the socket
# (PS) and over TCP (TS): a case whose text holds no "&" runs in the file's
# shell, not a subshell (case_inline, lib.sh, takes "&" for a command put in
# the background)
PS="$PG_URI&schema=" TS="$PG_TCP&schema="
. "$top/tests/engines.sh"
nwriters=0
for w in $writers; do nwriters=$((nwriters + 1)); done
tab='	'

test_pg 'a scripted session prints the same on PostgreSQL as on a file' '
	session "$F" >file.out &&
	session "$P" >pg.out &&
	has_line "== exit 4" file.out && has_line "== exit 0" file.out &&
	same_file file.out pg.out
'

test_pg 'the database holds a row per conversation and per message' '
	psql_as "select count(*) from parity.conversations" \
	    "select count(*) from parity.messages" >rows &&
	convctl -s "$P" copy "$P" - >parity.json &&
	jq "(.conversations | length),
	    ([.conversations[].messages[]] | length)" parity.json >want &&
	lines_are 2 want && same_file want rows
'

test_pg 'the database refuses a second active conversation and a bad role' '
	! psql_as "insert into parity.conversations (id, started_at,
	    message_count, doc) values ('"'x1'"', now(), 0, '"'{}'"');
	    insert into parity.conversations (id, started_at, message_count,
	    doc) values ('"'x2'"', now(), 0, '"'{}'"')" 2>err &&
	holds conversations_one_active err &&
	! psql_as "insert into parity.messages values ((select id from
	    parity.conversations limit 1), 999, '"'m'"', '"'wizard'"', now(),
	    '"'{}'"')" 2>err && holds role err
'

test_pg 'copy to PostgreSQL and back keeps every byte, unknown fields and number texts' '
	R="${PS}roundtrip" &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	holds "copied 2 conversations" err &&
	convctl copy "$R" "$T/back.json" &&
	convctl copy "$T/odd.json" - >want &&
	same_file want "$T/back.json" &&
	convctl copy "$R" - >again && same_file want again
'

test_pg 'copying again adds nothing; a conversation that differs is refused' '
	R="${PS}roundtrip" &&
	convctl copy "$T/odd.json" "$R" 2>err &&
	line_like "*copied 0 conversations*; 2 there already*" err &&
	read -r l <"$T/odd.json" && t="\"title\":\"t\"" &&
	case $l in *"$t"*) ;; *) echo "odd.json: no $t"; return 1 ;; esac &&
	printf "%s\n" "${l%%"$t"*}\"title\":\"other\"${l#*"$t"}" >"$T/odd2.json" &&
	fails_with 1 convctl copy "$T/odd2.json" "$R" &&
	stderr_has "conversation '"'c1'"' is in both" &&
	convctl copy "$R" - >now && convctl copy "$T/odd.json" - >want &&
	same_file want now
'

test_pg 'copy of many conversations with escapes, \u0000 and non-ASCII comes back byte for byte' '
	R="${PS}bulk" &&
	# the stores of this case and the next ones: one python
	bulk_store 400 "$T/bulk.json" 300 "$T/bulk3.json" 5 "$T/nul.json" &&
	convctl copy "$T/bulk.json" "$R" 2>err &&
	holds "copied 400 conversations" err &&
	convctl copy "$T/bulk.json" - >want &&
	convctl copy "$R" - >back && test_cmp want back &&
	psql_as "select count(*) from bulk.messages" "select string_agg(id,
	    '"','"' order by pos) from (select id, pos from bulk.conversations
	    order by pos limit 3) x" >rows &&
	file_is "800
c${tab}1,c${tab}2,c${tab}3" rows &&
	convctl -s "$R" show --json >active &&
	jq_is active -r .id "c${tab}400" &&
	CONVCTL_NOW=2026-01-01T00:10:00Z convctl -s "$R" add "after the copy" &&
	convctl -s "$R" show --json >active &&
	jq_is active -c ".messages | length" 3 &&
	convctl -s "$R" end && convctl -s "$R" copy "$R" - >back &&
	jq_is back -c "[.conversations[].endedAt | select(. == null)] | length" 0
'

test_pg 'copy between all three engines keeps every byte: file, PostgreSQL, SQLite and back' '
	R="${PS}three" R2="${PS}three2" &&
	convctl copy "$T/bulk.json" "sqlite:$T/three.db" 2>/dev/null &&
	convctl copy "sqlite:$T/three.db" "$R" 2>/dev/null &&
	convctl copy "$R" "sqlite:$T/three2.db" 2>/dev/null &&
	convctl copy "$T/odd.json" "sqlite:$T/odd.db" 2>/dev/null &&
	convctl copy "sqlite:$T/odd.db" "$R2" 2>/dev/null &&
	convctl copy "$R2" "$T/odd-back.json" &&
	convctl copy "$T/odd.json" - >want && same_file want "$T/odd-back.json" &&
	convctl copy "$T/bulk.json" - >want &&
	convctl copy "sqlite:$T/three2.db" - >back && test_cmp want back &&
	convctl copy "$R" - >back && test_cmp want back
'

test_pg 'a copy a constraint stops mid-way reports it and stores nothing' '
	R="${PS}halfway" &&
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl -s "$R" add "before" &&
	convctl -s "$R" end &&
	convctl -s "$R" copy "$R" - >before &&
	psql_as "alter table halfway.conversations add constraint no_c150
	    check (id <> e'"'c\\\\t150'"')" &&
	fails_with 1 convctl copy "$T/bulk3.json" "$R" &&
	stderr_has "cannot store conversations" && stderr_has "no_c150" &&
	convctl -s "$R" copy "$R" - >after && same_file before after &&
	psql_as "alter table halfway.conversations drop constraint no_c150;
	    alter table halfway.messages add constraint no_m250
	    check (id is distinct from e'"'m\\\\\\\\250'"')" &&
	fails_with 1 convctl copy "$T/bulk3.json" "$R" &&
	stderr_has "cannot store messages" && stderr_has "no_m250" &&
	convctl -s "$R" copy "$R" - >after && same_file before after &&
	psql_as "select count(*) from halfway.messages" >count &&
	file_is 1 count
'

test_pg 'a copy with \u0000 in a message id is refused, nothing stored' '
	R="${PS}nulid" &&
	read -r l <"$T/nul.json" && m="\"m\\\\3\"" && holds "$m" "$T/nul.json" &&
	printf "%s\n" "${l%%"$m"*}\"m\\u00003\"${l#*"$m"}" >"$T/nul2.json" &&
	holds "\"m\\u00003\"" "$T/nul2.json" &&
	fails_with 1 convctl copy "$T/nul2.json" "$R" &&
	stderr_has "message 1 of '"'c\t3'"' has \\u0000 in its id" &&
	convctl -s "$R" recent --json >recent && file_is "[]" recent
'

# copy's memory: the source read through a cursor a batch at a time, the
# rows written into the transaction a batch at a time, and a conversation
# the destination has already let go of once compared, so a store five
# times bigger takes no more memory to copy, anew or again; loaded whole,
# each conversation's JSON takes three times its bytes (not under a
# wrapper, whose own memory blurs it, nor a sanitizer's build, whose
# allocator keeps what is freed).
# The stores copied from and to are made empty first and their trigram
# index dropped: the server's work on it (3 s of the 250 conversations'
# 3.5) is no part of the client's memory
# peak_rss_each RSS ERR CMD... [-- RSS ERR CMD...] [--]: peak_rss of each CMD in
# turn, in one python, not one a command: CMD's peak resident memory in KB
# to the file RSS, its standard error to the file ERR, what it prints on
# standard output not kept; fails at the first CMD that fails
peak_rss_each() {
	python3 -c 'import os, sys
runs, run = [], []
for a in sys.argv[1:] + ["--"]:
    if a == "--":
        runs.append(run)
        run = []
    else:
        run.append(a)
for rss, err, *cmd in filter(None, runs):
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    status, usage = os.wait4(pid, 0)[1:]
    with open(rss, "w") as f:
        f.write("%d\n" % (usage.ru_maxrss if status == 0 else -1))
    if status != 0:
        sys.exit("%s: wait status %d; its stderr in %s" % (" ".join(cmd), status, err))' "$@"
}

if memory_measured; then
	test_pg 'copy holds a batch of conversations in memory, not the store, copying anew or again' '
		echo "{\"version\":1,\"conversations\":[]}" >"$T/empty.json" &&
		set -- && for s in gen50 again50 gen250 again250; do
			convctl copy "$T/empty.json" "$PG_URI&schema=$s" 2>/dev/null &&
			set -- "$@" "drop index $s.messages_text" || exit 1
		done &&
		psql_as "$@" &&
		for n in 50 250; do
			python3 "$top/bench/gen.py" $n 7 "$T/gen$n.json" >/dev/null &&
			convctl copy "$T/gen$n.json" "$PG_URI&schema=gen$n" 2>/dev/null ||
			    return 1
		done &&
		# gen50 into again50, gen250 into again250, and that once more
		set -- && for n in 50 250 250-again; do
			set -- "$@" "$T/rss$n" "$T/err$n" "$CONVCTL_BIN" copy \
			    "$PG_URI&schema=gen${n%-again}" \
			    "$PG_URI&schema=again${n%-again}" --
		done &&
		peak_rss_each "$@" &&
		line_like "*copied 0 conversations*; 250 there already*" "$T/err250-again" &&
		# the bytes the 250 have more than the 50, for the next case too
		wc -c "$T/gen50.json" "$T/gen250.json" >"$T/sizes" &&
		{ read -r small f && read -r big f; } <"$T/sizes" &&
		echo $((big - small)) >"$T/grow" && grow=$((big - small)) &&
		read -r r50 <"$T/rss50" && read -r r250 <"$T/rss250" &&
		read -r again <"$T/rss250-again" &&
		echo "peak RSS $r50 KB for 50, $r250 KB for 250 conversations ($grow bytes more), $again KB for the 250 again" &&
		test "$r50" -gt 0 &&
		test $(( (r250 - r50) * 1024 )) -lt $((grow / 4)) &&
		test $(( (again - r50) * 1024 )) -lt $((grow / 4)) &&
		convctl copy "$PG_URI&schema=again250" - >"$T/back" &&
		convctl copy "$T/gen250.json" - >"$T/want" && test_cmp "$T/want" "$T/back"
	'
	# migrate lists the store's conversations and reads only those it
	# compares: into the 250 it takes no more memory than into the 50
	test_pg 'migrate into a store five times bigger takes no more memory' '
		peak_rss_each "$T/mig50" "$T/migerr50" "$CONVCTL_BIN" \
		    -s "${PS}again50" migrate \
		    "$top/tests/fixtures/migrate/smarthole-history.json" -- \
		    "$T/mig250" "$T/migerr250" "$CONVCTL_BIN" \
		    -s "${PS}again250" migrate \
		    "$top/tests/fixtures/migrate/smarthole-history.json" &&
		read -r grow <"$T/grow" &&
		read -r m50 <"$T/mig50" && read -r m250 <"$T/mig250" &&
		echo "peak RSS of migrate $m50 KB into 50 conversations, $m250 KB into 250 ($grow bytes more)" &&
		test "$m50" -gt 0 &&
		test $(( (m250 - m50) * 1024 )) -lt $((grow / 4)) &&
		psql_as "select count(*) from again250.conversations" >count &&
		file_is 251 count
	'
else
	test_n=$((test_n + 2))
	echo "ok $((test_n - 1)) # SKIP copy's memory: not measured under a wrapper or a sanitizer"
	echo "ok $test_n # SKIP migrate's memory: not measured under a wrapper or a sanitizer"
fi

test_pg 'a write the database refuses, sent with the next query, is reported; nothing is stored' '
	R="${PS}refused" &&
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl -s "$R" add "first" &&
	convctl -s "$R" copy "$R" - >before &&
	psql_as "alter table refused.messages add constraint no_poison
	    check (doc::text not like '"'%poison%'"')" &&
	CONVCTL_NOW=2026-02-04T17:01:00Z fails_with 1 convctl -s "$R" add poison &&
	stderr_has "cannot store a conversation" && stderr_has "no_poison" &&
	convctl -s "$R" copy "$R" - >after && same_file before after &&
	psql_as "alter table refused.conversations add constraint never_ended
	    check (ended_at is null)" &&
	CONVCTL_NOW=2026-02-04T17:02:00Z fails_with 1 convctl -s "$R" end &&
	stderr_has "cannot store a conversation" && stderr_has "never_ended" &&
	holds_n 1 never_ended "$T/err" &&
	convctl -s "$R" copy "$R" - >after && same_file before after &&
	CONVCTL_NOW=2026-02-04T17:03:00Z convctl -s "$R" add "still fine" &&
	psql_as "select count(*) from refused.messages" >count &&
	file_is 2 count
'

test_pg 'stores in one database are apart, by schema=' '
	A="${PS}one" B="${PS}two" &&
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl -s "$A" add "in one" &&
	convctl -s "$B" recent --json >b && file_is "[]" b &&
	convctl -s "$A" show --json >a && jq_is a -r ".messages[0].content" "in one"
'

test_pg 'a schema name that is not a plain name is a usage error' '
	fails_with 2 convctl -s "${PS}Robert%27)" recent &&
	stderr_has "is not a name"
'

test_pg 'a wrong password: exit 1, and the password is not printed' '
	bad=${PG_TCP%%"$PG_PASSWORD"*}Wr0ngPassw0rd${PG_TCP#*"$PG_PASSWORD"} &&
	fails_with 1 convctl -s "$PG_URI&dbname=nosuchdb" recent &&
	stderr_has "does not exist" &&
	fails_with 1 convctl -s "$bad&schema=tcp" recent &&
	stderr_has "password authentication failed" &&
	lacks Wr0ngPassw0rd "$T/err" && stderr_has "postgres:***@" &&
	fails_with 1 convctl -s "$PG_TCP&schema=tcp&password=Wr0ngPassw0rd" recent &&
	stderr_has "password=***" && lacks Wr0ngPassw0rd "$T/err"
'

test_pg 'config names the engine, and masks the password' '
	convctl -s "${TS}cfg" config >out &&
	line_like "store *postgres:[*][*][*]@127.0.0.1*schema=cfg*postgresql store*" out &&
	lacks "$PG_PASSWORD" out &&
	convctl -s "${TS}cfg" config --json >out.json &&
	jq_is out.json -r .settings.store.engine postgresql &&
	lacks "$PG_PASSWORD" out.json
'

# holding: a session other than ours holds an advisory lock (the writers'
# lock) in this database (the cluster may be shared: make check), for
# pg_wait; unhold: that session is ended, and its lock with it
this_db="(select oid from pg_database where datname = current_database())"
holding="(select count(*) from pg_locks where locktype = 'advisory' and
    granted and database = $this_db) >= 1"
unhold() {
	psql_as "select pg_terminate_backend(pid) from pg_stat_activity
	    where query like '%pg_sleep(600)%' and pid <> pg_backend_pid()
	    and datname = current_database()" >/dev/null
}

test_pg_timed '--wait bounds the wait for another writer, then exit 75 (try again)' '
	W="$PG_URI&schema=waiting" &&
	convctl -s "$W" recent &&
	{ psql "$PG_URI" -X -q -c "begin" -c "select
	    pg_advisory_xact_lock(hashtext('"'convctl:waiting'"'))" -c "select
	    pg_sleep(600)" -c "commit" >/dev/null 2>&1 & } &&
	pg_wait "$holding" &&
	fails_with 75 convctl -s "$W" --wait 1 add hi &&
	stderr_has "store '"'"'$W'"'"' is locked by another convctl; gave up after 1 seconds (nothing was written; try again, or raise --wait)" &&
	fails_with 75 convctl -s "$W" --wait 0 add hi &&
	stderr_has "is locked by another convctl; gave up after 0 seconds (nothing was written; try again" &&
	unhold && { wait || true; } &&
	convctl -s "$W" --wait 5 add hi
'

# root_held, root_waited: (for pg_wait) a session holds the store's root
# table, or a writer waits on it, inside its transaction and so with the
# writers' lock
root_locked="(select count(*) from pg_locks l join pg_class c on
    c.oid = l.relation where l.database = $this_db and c.relname = 'root'
    and l.granted ="
root_held="$root_locked true) = 1" root_waited="$root_locked false) = 1"

# a host that froze, as a writer stopped (SIGSTOP) holding the lock: the
# server ends its transaction once it has been idle convctl's bound (10 s)
test_pg_timed 'a writer frozen holding the lock: the next writer goes on within about the default --wait; woken, the frozen one exits 75, not stored' '
	F="$PG_URI&schema=frozen" &&
	convctl -s "$F" add first >/dev/null &&
	{ psql "$PG_URI" -X -q -c "begin" -c "lock table frozen.root in
	    access exclusive mode" -c "select pg_sleep(600)" -c "commit" \
	    >/dev/null 2>&1 & } &&
	pg_wait "$root_held" || exit 1
	"$CONVCTL_BIN" -s "$F" --wait 60 add frozen >/dev/null 2>frozen.err 3>&- &
	frozen=$!
	pg_wait "$root_waited" && kill -STOP $frozen && unhold
	held=$?
	read -r began x </proc/uptime	# seconds since boot: a clock, no date
	convctl -s "$F" --wait 30 add after >/dev/null
	after=$?
	read -r now x </proc/uptime
	took=$((${now%.*} - ${began%.*}))
	kill -CONT $frozen; wait $frozen; rc=$?	# whatever happened before
	test "$held" = 0 && echo "# the next writer waited $took s" >&3 &&
	test "$after" = 0 && test "$took" -le 20 &&
	echo "frozen: exit $rc" &&
	while IFS= read -r l; do printf "%s\n" "$l"; done <frozen.err &&
	test "$rc" = 75 &&
	holds "nothing was written; try again" frozen.err &&
	psql_as "select string_agg(doc->>'"'content'"', '"','"' order by seq)
	    from frozen.messages" >stored && file_is first,after stored
' 3>&1

test_pg_timed "$nwriters writers x $adds adds over the socket and TCP: each message once, one conversation" '
	C="$PG_URI&schema=many" CT="$PG_TCP&schema=many" &&
	for w in $writers; do
		if [ $((w % 2)) -eq 0 ]; then u=$C; else u=$CT; fi
		( i=0; while [ $i -lt $adds ]; do
			i=$((i + 1))
			convctl -s "$u" --wait 60 add "w$w-$i" >/dev/null || echo "w$w-$i failed"
		done ) >"$T/w$w.log" 2>&1 &
	done &&
	wait &&
	lacks "" "$T"/w*.log &&	# no line in any: no failure
	convctl copy "$C" - >all &&
	total=$((nwriters * adds)) &&
	jq -e --argjson n $total "([.conversations[].messages[]] | length) == \$n and
	    ([.conversations[].messages[].content] | unique | length) == \$n and
	    (.conversations | length) == 1" all >/dev/null &&
	psql_as "select count(*) from many.conversations where ended_at is null" >active &&
	file_is 1 active
'

test_pg_timed 'idle boundaries with many writers are as if they ran one after another' '
	I="$PG_URI&schema=idle" &&
	for w in 1 2 3 4 5 6; do
		( for i in 0 1 2 3 4; do
			m=$((i * 40))
			h=$((17 + m / 60)) mm=$((m % 60))	# 17 to 19: two digits
			[ $mm -ge 10 ] || mm=0$mm
			CONVCTL_NOW=2026-02-04T$h:$mm:0$((w % 10))Z \
			    convctl -s "$I" --wait 60 add "w$w-$i" >/dev/null
		done ) &
	done &&
	wait &&
	convctl copy "$I" - >all &&
	jq -e "([.conversations[].messages[]] | length) == 30 and
	    ([.conversations[] | select(.endedAt == null)] | length) == 1 and
	    ([.conversations[] | (.messages | map(.timestamp)) as \$t |
	    \$t == (\$t | sort)] | all)" all >/dev/null
'

test_pg_timed 'writers killed mid-transaction leave nothing partial' '
	K="$PG_URI&schema=killed" &&
	trial=0
	while [ $trial -lt $kills ]; do
		trial=$((trial + 1))
		convctl_exec -s "$K" --wait 30 add "k$trial" >/dev/null 2>&1 &
		pid=$!
		sleep 0.0$((trial % 10))
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
	done
	psql_as "select count(*) from killed.conversations c where
	    message_count <> (select count(*) from killed.messages m where
	    m.conversation = c.id)" >torn && file_is 0 torn &&
	convctl copy "$K" - >all &&
	jq -e "[.conversations[].messages[].content] | length == (unique | length)" \
	    all >/dev/null &&
	convctl -s "$K" add "after the kills" >/dev/null
'

# nlines FILE: n is how many lines FILE has (0 when there is none yet), as
# wc -l counts them, counted by the shell
nlines() {
	n=0
	[ -e "$1" ] || return 0
	while IFS= read -r l; do n=$((n + 1)); done <"$1"
}

# the file's own cluster, for the case that stops it (when it runs)
[ -n "$CONVCTL_WRAPPER" ] || pg_own
# adds run one after another until $T/enough exists; the server is stopped
# once two were acknowledged, started again once one met it stopped, and
# the adds end once two more were acknowledged after the restart
test_pg_timed 'the server stopped mid-run: exit 75, and after a restart nothing acknowledged is lost' '
	D="$PG_URI&schema=down" &&
	convctl -s "$D" add first >/dev/null || exit 1
	( i=0; while [ ! -e "$T/enough" ] && [ $i -lt 2000 ]; do
		i=$((i + 1))
		if convctl -s "$D" --wait 10 add "d$i" >/dev/null 2>"$T/d$i.err"; then
			echo "d$i" >>"$T/acked"
		else
			echo "$? d$i" >>"$T/codes"
		fi
	done ) &
	wait_until "nlines \"\$T/acked\" && [ \$n -ge 2 ]" &&
	pg_ctl_as -m immediate stop &&
	wait_until "nlines \"\$T/codes\" && [ \$n -ge 1 ]" &&
	nlines "$T/acked" && before=$n &&
	pg_ctl_as -o "-k $PG_DIR -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off" start &&
	wait_until "nlines \"\$T/acked\" && [ \$n -ge \$((before + 2)) ]"
	status=$?
	: >"$T/enough" && wait && test $status -eq 0 &&
	line_like "75 *" "$T/codes" &&
	# any other exit status, with what that add said
	other=0 &&
	while read -r code add; do
		if [ "$code" != 75 ]; then
			echo "$add exited $code:" && other=1
			while IFS= read -r l; do printf "%s\n" "$l"; done <"$T/$add.err"
		fi
	done <"$T/codes" && test $other = 0 &&
	convctl copy "$D" - >all &&
	# each acknowledged add stored once
	jq -r --rawfile acked "$T/acked" "[.conversations[].messages[].content] as \$c |
	    \$acked | split(\"\\n\")[] | select(. != \"\") as \$m |
	    select([\$c[] | select(. == \$m)] | length != 1) |
	    \"lost \(\$m), or stored twice\"" all >lost &&
	file_is "" lost
'

test_pg 'without libpq: exit 69, naming the package' '
	if [ "$pg_uid" -ne 0 ] || ! command -v unshare >/dev/null; then
		echo "# needs root and unshare to hide libpq" && return 0
	fi
	ldconfig -p >libs && lib= &&
	while IFS= read -r l; do
		case $l in
		*"libpq.so.5 (libc6,x86-64) => "*) lib=${l#*" => "}; break ;;
		esac
	done <libs &&
	# one namespace for both: a PostgreSQL store (exit 69, its status in
	# rc), then a file store, which needs no libpq
	unshare -m sh -c "mount --bind /dev/null $lib &&
	    { $CONVCTL_BIN -s \"$PG_URI\" recent >out 2>err; echo \$? >rc; } &&
	    $CONVCTL_BIN -s $T/f.json recent" &&
	file_is 69 rc && holds "libpq5" err
'

test_done
