#!/bin/sh
# convctl stats: what a store holds at a glance, the same on every engine
# check: pg sqlite valgrind (counted by SQL aggregates on PostgreSQL and SQLite, from the file's bytes here; lib/store/stats.c runs under valgrind)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE
export CONVCTL_NOW=2026-11-27T00:00:00Z

# pick FILE [N...]: FILE's lines but those that begin with "size", all of
# them or only the Nth of them, in $T/got (grep -v "^size" | sed -n "Np"),
# by the shell
pick() {
	pk_file=$1 pk_i=0
	shift
	while IFS= read -r l; do
		case $l in size*) continue ;; esac
		pk_i=$((pk_i + 1))
		[ $# -eq 0 ] || case " $* " in *" $pk_i "*) ;; *) continue ;; esac
		printf "%s\n" "$l"
	done <"$pk_file" >"$T/got"
}

test_expect 'stats of a missing store: all zero, exit 0' '
	convctl stats >out &&
	pick out &&
	write_to want <<-\EOF2 &&
	conversations  0: 0 active, 0 ended, 0 pinned
	messages       0: 0 user, 0 assistant, 0 system, 0 tool
	oldest         none
	newest         none
	tags           none
	tools          none
	per week       |                                                    | 52 weeks to 2026-11-27, at most 0 a week
	EOF2
	same_file want got
'

# c-d is older than the chart's year and titled "work" (not tagged so);
# c-c and c-e start at once (the newest: the larger id); c-c has 11 tools
# used once, past the 10 shown; c-b holds \u0000 (which PostgreSQL's JSON
# functions refuse) in a message that used a tool
seed_text "$S" <<'JSON'
{"version": 1, "conversations": [
 {"id": "c-a", "startedAt": "2026-01-05T10:00:00.000Z", "endedAt": "2026-01-05T11:00:00.000Z",
  "title": null, "summary": null, "tags": ["work", "home"], "pinned": true, "messages": [
  {"timestamp": "2026-01-05T10:00:00.000Z", "role": "system", "content": "be brief"},
  {"timestamp": "2026-01-05T10:00:01.000Z", "role": "user", "content": "a"},
  {"timestamp": "2026-01-05T10:00:02.000Z", "role": "assistant", "content": "b", "toolsUsed": ["read_file", "edit_file"]},
  {"timestamp": "2026-01-05T10:00:03.000Z", "role": "tool", "content": "c"}]},
 {"id": "c-d", "startedAt": "2025-06-01T00:00:00.000Z", "endedAt": "2025-06-01T01:00:00.000Z",
  "title": "\"work\"", "summary": null, "messages": [
  {"timestamp": "2025-06-01T00:00:00.000Z", "role": "user", "content": "old"}]},
 {"id": "c-b", "startedAt": "2026-06-01T00:00:00.000Z", "endedAt": "2026-06-01T01:00:00.000Z",
  "title": null, "summary": null, "tags": ["work"], "messages": [
  {"timestamp": "2026-06-01T00:00:00.000Z", "role": "user", "content": "d"},
  {"timestamp": "2026-06-01T00:00:01.000Z", "role": "assistant", "content": "e", "toolsUsed": ["read_file"]},
  {"timestamp": "2026-06-01T00:00:02.000Z", "role": "assistant", "content": "nul \u0000 here", "toolsUsed": ["grep"]}]},
 {"id": "c-e", "startedAt": "2026-11-20T00:00:00.000Z", "endedAt": "2026-11-20T00:00:00.000Z",
  "title": null, "summary": null, "messages": [
  {"timestamp": "2026-11-20T00:00:00.000Z", "role": "user", "content": "f"}]},
 {"id": "c-c", "startedAt": "2026-11-20T00:00:00.000Z", "endedAt": null,
  "title": null, "summary": null, "messages": [
  {"timestamp": "2026-11-20T00:00:00.000Z", "role": "user", "content": "g"},
  {"timestamp": "2026-11-20T00:00:01.000Z", "role": "assistant", "content": "h",
   "toolsUsed": ["t11", "t10", "t09", "t08", "t07", "t06", "t05", "t04", "t03", "t02", "t01"]}]}
]}
JSON

test_expect 'stats counts conversations, messages, tags, tools and weeks' '
	convctl stats >out &&
	pick out &&
	write_to want <<-\EOF2 &&
	conversations  5: 1 active, 4 ended, 1 pinned
	messages       11: 5 user, 4 assistant, 1 system, 1 tool
	oldest         c-d, started 2025-06-01T00:00:00.000Z
	newest         c-e, started 2026-11-20T00:00:00.000Z
	tags           work 2, home 1
	tools          read_file 2, edit_file 1, grep 1, t01 1, t02 1, t03 1, t04 1, t05 1, t06 1, t07 1
	per week       |     ▄                    ▄                       █ | 52 weeks to 2026-11-27, at most 2 a week
	EOF2
	same_file want got &&
	convctl stats >again && same_file out again
'

test_file 'stats reads a file store by its index as it reads it whole' '
	touch -d 2026-01-01 "$S" && rm -rf "$HOME/.cache/convctl/index" &&
	wait_until past_tick && convctl stats >whole &&
	made= && for f in "$HOME/.cache/convctl/index"/*; do	# as ls | test -s
		[ ! -e "$f" ] || made=1
	done &&
	test -n "$made" && convctl stats >indexed &&
	same_file out whole && same_file out indexed
'

test_expect 'stats gives the store size: the file bytes, the tables on PostgreSQL, the pages on SQLite' '
	# the number of the line "size  N bytes..." (sed -n "s/^size  *N bytes.*/N/p"),
	# by the shell
	size= && while IFS= read -r l; do
		case $l in "size "*" bytes"*) ;; *) continue ;; esac
		n=${l#size } && n=${n#"${n%%[! ]*}"} && n=${n%%" bytes"*} &&
		case $n in *[!0-9]*) ;; *) size=$n ;; esac
	done <out &&
	if [ "$engine" = pg ]; then
		test "$size" -gt 8192
	elif [ "$engine" = sqlite ]; then
		python3 -c "import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute(\"SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()\").fetchone()[0])" \
		    "${S#sqlite:}" >want &&
		echo "$size" >got &&
		same_file want got
	else
		# the file'\''s bytes (wc -c) counted by the shell: each line and
		# its newline (${#l} counts bytes in dash)
		n=0 && while IFS= read -r l; do n=$((n + ${#l} + 1)); done <"$S" &&
		n=$((n + ${#l})) &&
		test "$size" -eq "$n"
	fi
'

test_expect 'stats --json has the documented shape' '
	convctl stats --json >out && test -s out &&
	# one jq: the keys, then the values
	jq_is out -r "keys_unsorted == [\"conversations\",\"messages\",\"bytes\",\"oldest\",\"newest\",\"tags\",\"tools\",\"weeks\"]
	    and (.bytes | type) == \"number\" and (.weeks.counts | length) == 52" true \
	    -c "del(.bytes) | .weeks.counts |= (to_entries | map(select(.value > 0)) | map([.key, .value]))" "{\"conversations\":{\"total\":5,\"active\":1,\"ended\":4,\"pinned\":1},\"messages\":{\"total\":11,\"user\":5,\"assistant\":4,\"system\":1,\"tool\":1},\"oldest\":{\"id\":\"c-d\",\"startedAt\":\"2025-06-01T00:00:00.000Z\"},\"newest\":{\"id\":\"c-e\",\"startedAt\":\"2026-11-20T00:00:00.000Z\"},\"tags\":[{\"name\":\"work\",\"count\":2},{\"name\":\"home\",\"count\":1}],\"tools\":[{\"name\":\"read_file\",\"count\":2},{\"name\":\"edit_file\",\"count\":1},{\"name\":\"grep\",\"count\":1},{\"name\":\"t01\",\"count\":1},{\"name\":\"t02\",\"count\":1},{\"name\":\"t03\",\"count\":1},{\"name\":\"t04\",\"count\":1},{\"name\":\"t05\",\"count\":1},{\"name\":\"t06\",\"count\":1},{\"name\":\"t07\",\"count\":1}],\"weeks\":{\"end\":\"2026-11-27T00:00:00.000Z\",\"counts\":[[5,1],[26,1],[50,2]]}}"
'

test_expect 'stats --since counts only the conversations started since' '
	convctl stats --since 2026-06-01 >out &&
	pick out 1 2 5 6 &&
	cat >want <<-\EOF2 &&
	conversations  3: 1 active, 2 ended, 0 pinned
	messages       6: 3 user, 3 assistant, 0 system, 0 tool
	tags           work 1
	tools          grep 1, read_file 1, t01 1, t02 1, t03 1, t04 1, t05 1, t06 1, t07 1, t08 1
	EOF2
	same_file want got
'

test_expect 'stats --tag counts only the conversations tagged so, not a title' '
	convctl stats --tag work >out &&
	pick out 1 2 3 4 5 6 &&
	cat >want <<-\EOF2 &&
	conversations  2: 0 active, 2 ended, 1 pinned
	messages       7: 2 user, 3 assistant, 1 system, 1 tool
	oldest         c-a, started 2026-01-05T10:00:00.000Z
	newest         c-b, started 2026-06-01T00:00:00.000Z
	tags           work 2, home 1
	tools          read_file 2, edit_file 1, grep 1
	EOF2
	same_file want got &&
	convctl stats --tag nosuch --since 2026-01-01 >out &&
	line_is 1 "conversations  0: 0 active, 0 ended, 0 pinned" out
'

test_expect 'stats draws the chart in ASCII with --ascii or a locale not UTF-8' '
	want="per week       |     ~                    ~                       # | 52 weeks to 2026-11-27, at most 2 a week" &&
	convctl stats --ascii >out && line_is -1 "$want" out &&
	LC_ALL=C convctl stats >out && line_is -1 "$want" out
'

test_expect 'stats --since takes an ISO 8601 time, else a usage error' '
	fails_with 2 convctl stats --since yesterday &&
	stderr_has "convctl: stats: --since expects an ISO 8601 time"
'

test_done
