#!/bin/sh
# convctl stats: what a store holds at a glance, the same on every engine
# check: pg sqlite valgrind (counted by SQL aggregates on PostgreSQL and SQLite, from the file's bytes here; lib/store/stats.c runs under valgrind)
. "$(dirname "$0")/../lib.sh"

S=$CONVCTL_STORE
export CONVCTL_NOW=2026-11-27T00:00:00Z

test_expect 'stats of a missing store: all zero, exit 0' '
	convctl stats >out &&
	grep -v "^size" out >got &&
	cat >want <<-\EOF2 &&
	conversations  0: 0 active, 0 ended, 0 pinned
	messages       0: 0 user, 0 assistant, 0 system, 0 tool
	oldest         none
	newest         none
	tags           none
	tools          none
	per week       |                                                    | 52 weeks to 2026-11-27, at most 0 a week
	EOF2
	test_cmp want got
'

# c-d is older than the chart's year and titled "work" (not tagged so);
# c-c and c-e start at once (the newest: the larger id); c-c has 11 tools
# used once, past the 10 shown; c-b holds \u0000 (which PostgreSQL's JSON
# functions refuse) in a message that used a tool
store_seed "$S" <<'JSON'
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
	grep -v "^size" out >got &&
	cat >want <<-\EOF2 &&
	conversations  5: 1 active, 4 ended, 1 pinned
	messages       11: 5 user, 4 assistant, 1 system, 1 tool
	oldest         c-d, started 2025-06-01T00:00:00.000Z
	newest         c-e, started 2026-11-20T00:00:00.000Z
	tags           work 2, home 1
	tools          read_file 2, edit_file 1, grep 1, t01 1, t02 1, t03 1, t04 1, t05 1, t06 1, t07 1
	per week       |     ▄                    ▄                       █ | 52 weeks to 2026-11-27, at most 2 a week
	EOF2
	test_cmp want got &&
	convctl stats >again && test_cmp out again
'

test_file 'stats reads a file store by its index as it reads it whole' '
	touch -d 2026-01-01 "$S" && rm -rf "$HOME/.cache/convctl/index" &&
	wait_until past_tick && convctl stats >whole && ls "$HOME/.cache/convctl/index" >made &&
	test -s made && convctl stats >indexed &&
	test_cmp out whole && test_cmp out indexed
'

test_expect 'stats gives the store size: the file bytes, the tables on PostgreSQL, the pages on SQLite' '
	size=$(sed -n "s/^size  *\([0-9]*\) bytes.*/\1/p" out) &&
	if [ "$engine" = pg ]; then
		test "$size" -gt 8192
	elif [ "$engine" = sqlite ]; then
		python3 -c "import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute(\"SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()\").fetchone()[0])" \
		    "${S#sqlite:}" >want &&
		echo "$size" >got &&
		test_cmp want got
	else
		test "$size" -eq "$(wc -c <"$S")"
	fi
'

test_expect 'stats --json has the documented shape' '
	convctl stats --json >out &&
	jq -e "keys_unsorted == [\"conversations\",\"messages\",\"bytes\",\"oldest\",\"newest\",\"tags\",\"tools\",\"weeks\"]
	    and (.bytes | type) == \"number\" and (.weeks.counts | length) == 52" out >/dev/null &&
	jq -c "del(.bytes) | .weeks.counts |= (to_entries | map(select(.value > 0)) | map([.key, .value]))" out >got &&
	echo "{\"conversations\":{\"total\":5,\"active\":1,\"ended\":4,\"pinned\":1},\"messages\":{\"total\":11,\"user\":5,\"assistant\":4,\"system\":1,\"tool\":1},\"oldest\":{\"id\":\"c-d\",\"startedAt\":\"2025-06-01T00:00:00.000Z\"},\"newest\":{\"id\":\"c-e\",\"startedAt\":\"2026-11-20T00:00:00.000Z\"},\"tags\":[{\"name\":\"work\",\"count\":2},{\"name\":\"home\",\"count\":1}],\"tools\":[{\"name\":\"read_file\",\"count\":2},{\"name\":\"edit_file\",\"count\":1},{\"name\":\"grep\",\"count\":1},{\"name\":\"t01\",\"count\":1},{\"name\":\"t02\",\"count\":1},{\"name\":\"t03\",\"count\":1},{\"name\":\"t04\",\"count\":1},{\"name\":\"t05\",\"count\":1},{\"name\":\"t06\",\"count\":1},{\"name\":\"t07\",\"count\":1}],\"weeks\":{\"end\":\"2026-11-27T00:00:00.000Z\",\"counts\":[[5,1],[26,1],[50,2]]}}" >want &&
	test_cmp want got
'

test_expect 'stats --since counts only the conversations started since' '
	convctl stats --since 2026-06-01 >out &&
	grep -v "^size" out | sed -n "1,2p;5,6p" >got &&
	cat >want <<-\EOF2 &&
	conversations  3: 1 active, 2 ended, 0 pinned
	messages       6: 3 user, 3 assistant, 0 system, 0 tool
	tags           work 1
	tools          grep 1, read_file 1, t01 1, t02 1, t03 1, t04 1, t05 1, t06 1, t07 1, t08 1
	EOF2
	test_cmp want got
'

test_expect 'stats --tag counts only the conversations tagged so, not a title' '
	convctl stats --tag work >out &&
	grep -v "^size" out | sed -n "1,6p" >got &&
	cat >want <<-\EOF2 &&
	conversations  2: 0 active, 2 ended, 1 pinned
	messages       7: 2 user, 3 assistant, 1 system, 1 tool
	oldest         c-a, started 2026-01-05T10:00:00.000Z
	newest         c-b, started 2026-06-01T00:00:00.000Z
	tags           work 2, home 1
	tools          read_file 2, edit_file 1, grep 1
	EOF2
	test_cmp want got &&
	convctl stats --tag nosuch --since 2026-01-01 | head -1 >got &&
	echo "conversations  0: 0 active, 0 ended, 0 pinned" >want && test_cmp want got
'

test_expect 'stats draws the chart in ASCII with --ascii or a locale not UTF-8' '
	echo "per week       |     ~                    ~                       # | 52 weeks to 2026-11-27, at most 2 a week" >want &&
	convctl stats --ascii | tail -n 1 >got && test_cmp want got &&
	LC_ALL=C convctl stats | tail -n 1 >got && test_cmp want got
'

test_expect 'stats --since takes an ISO 8601 time, else a usage error' '
	fails_with 2 convctl stats --since yesterday &&
	stderr_has "convctl: stats: --since expects an ISO 8601 time"
'

test_done
