#!/bin/sh
# convctl recent: ended conversations, newest endedAt first
# check: pg sqlite valgrind (listing and counting run as SQL there)
. "$(dirname "$0")/../lib.sh"

S=$CONVCTL_STORE

test_expect 'recent on a missing store prints nothing and exits 0' '
	convctl recent >out && test ! -s out &&
	convctl recent --json >out && echo "[]" >want && test_cmp want out
'

# in file order neither by start nor by end; one active in the middle
store_seed "$S" <<'JSON'
{"version": 1, "conversations": [
 {"id": "c-mid", "startedAt": "2026-01-02T00:00:00Z", "endedAt": "2026-01-05T00:00:00.000Z",
  "title": "Middle", "summary": "the middle one", "messages": [
  {"timestamp": "2026-01-02T00:00:00Z", "role": "user", "content": "a"},
  {"timestamp": "2026-01-02T00:00:01Z", "role": "assistant", "content": "b"}]},
 {"id": "c-new", "startedAt": "2026-01-01T00:00:00Z", "endedAt": "2026-01-09T00:00:00.000Z",
  "title": null, "summary": null, "messages": [
  {"timestamp": "2026-01-01T00:00:00Z", "role": "user", "content": "a"}]},
 {"id": "c-act", "startedAt": "2026-01-10T00:00:00Z", "endedAt": null,
  "title": null, "summary": null, "messages": [
  {"timestamp": "2026-01-10T00:00:00Z", "role": "user", "content": "a"}]},
 {"id": "c-old", "startedAt": "2026-01-03T00:00:00Z", "endedAt": "2026-01-03T12:00:00.000Z",
  "title": "Old", "summary": null, "messages": []}
]}
JSON

test_expect 'recent orders by endedAt, newest first, without the active one' '
	convctl recent >out &&
	printf "c-new\t2026-01-09T00:00:00.000Z\t1\t\nc-mid\t2026-01-05T00:00:00.000Z\t2\tMiddle\nc-old\t2026-01-03T12:00:00.000Z\t0\tOld\n" >want &&
	test_cmp want out
'

test_expect 'recent -n N keeps the newest N' '
	convctl recent -n 2 | cut -f 1 >out &&
	printf "c-new\nc-mid\n" >want && test_cmp want out &&
	convctl recent -n 0 >out && test ! -s out
'

test_expect 'recent --json has the documented shape' '
	convctl recent --json >out &&
	jq -e "type == \"array\" and length == 3 and
	    all(.[]; keys_unsorted == [\"id\",\"title\",\"summary\",\"startedAt\",\"endedAt\",\"messageCount\",\"tags\",\"pinned\"])" out >/dev/null &&
	echo "{\"id\":\"c-mid\",\"title\":\"Middle\",\"summary\":\"the middle one\",\"startedAt\":\"2026-01-02T00:00:00.000Z\",\"endedAt\":\"2026-01-05T00:00:00.000Z\",\"messageCount\":2,\"tags\":[],\"pinned\":false}" >want &&
	jq -c ".[1]" out >got && test_cmp want got &&
	test "$(jq -c "[.[].id]" out)" = "[\"c-new\",\"c-mid\",\"c-old\"]" &&
	test "$(jq -c ".[0].title, .[0].summary" out | tr "\n" " ")" = "null null "
'

test_expect 'recent shows 10 by default' '
	store_rm "$S" &&
	i=10 &&
	while [ $i -lt 22 ]; do
		CONVCTL_NOW=2026-03-01T$i:00:00Z convctl add "at $i" >/dev/null || exit 1
		CONVCTL_NOW=2026-03-01T$i:10:00Z convctl end >/dev/null || exit 1
		i=$((i + 1))
	done &&
	convctl recent >out &&
	test "$(wc -l <out)" -eq 10 &&
	head -n 1 out | cut -f 2 >got && echo 2026-03-01T21:10:00.000Z >want &&
	test_cmp want got &&
	convctl recent -n 100 | wc -l >got && echo 12 >want && test_cmp want got
'

test_expect 'a bad -n is a usage error' '
	fails_with 2 convctl recent -n ten &&
	stderr_has "-n expects a whole number" &&
	fails_with 2 convctl recent -n -1 &&
	fails_with 2 convctl recent extra &&
	fails_with 2 convctl recent --json=yes &&
	stderr_has "convctl: recent: option '\''--json'\'' takes no value" &&
	fails_with 2 convctl recent --jsn &&
	stderr_has "unknown option '\''--jsn'\''" &&
	fails_with 2 convctl recent -x &&
	stderr_has "unknown option '\''-x'\''"
'

test_expect 'recent never writes the store' '
	rm -f "$S.lock" && snapshot "$S" &&
	convctl recent >/dev/null && unchanged "$S" && test ! -e "$S.lock"
'

test_expect 'recent -h prints the usage and options and exits 0' '
	convctl recent -h >out &&
	grep -q "^usage: convctl recent" out &&
	convctl help recent | cmp out - &&
	fails_with 2 convctl help recent extra &&
	stderr_has "convctl: help: unexpected argument '\''extra'\''"
'

test_done
