#!/bin/sh
# convctl recent: ended conversations, newest endedAt first
# check: pg sqlite valgrind (listing and counting run as SQL there)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

test_expect 'recent on a missing store prints nothing and exits 0' '
	convctl recent >out && test ! -s out &&
	convctl recent --json >out && echo "[]" >want && same_file want out
'

# in file order neither by start nor by end; one active in the middle
seed_text "$S" <<'JSON'
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
	same_file want out
'

test_expect 'recent -n N keeps the newest N' '
	convctl recent -n 2 >out && cut_f 1 out >ids &&
	printf "c-new\nc-mid\n" >want && same_file want ids &&
	convctl recent -n 0 >out && test ! -s out
'

test_expect 'recent --json has the documented shape' '
	convctl recent --json >out &&
	jq_is out -c "type == \"array\" and length == 3 and
	    all(.[]; keys_unsorted == [\"id\",\"title\",\"summary\",\"startedAt\",\"endedAt\",\"messageCount\",\"tags\",\"pinned\"])" true \
	    -c ".[1]" "{\"id\":\"c-mid\",\"title\":\"Middle\",\"summary\":\"the middle one\",\"startedAt\":\"2026-01-02T00:00:00.000Z\",\"endedAt\":\"2026-01-05T00:00:00.000Z\",\"messageCount\":2,\"tags\":[],\"pinned\":false}" \
	    -c "[.[].id]" "[\"c-new\",\"c-mid\",\"c-old\"]" \
	    -c ".[0].title, .[0].summary" "null
null"
'

test_expect 'recent shows 10 by default' '
	store_rm "$S" &&
	i=10 && : >adds &&
	while [ $i -lt 22 ]; do
		printf "{\"argv\": [\"add\", \"at %s\"], \"env\": {\"CONVCTL_NOW\": \"2026-03-01T%s:00:00Z\"}}\n" $i $i
		printf "{\"argv\": [\"end\"], \"env\": {\"CONVCTL_NOW\": \"2026-03-01T%s:10:00Z\"}}\n" $i
		i=$((i + 1))
	done >adds &&
	# the 24 adds and ends in the test tool'\''s one process, each exit 0;
	# its files (N.out, N.err, status, transcript) in $T, no directory made
	test_tool run adds "$T" >/dev/null &&
	while read -r rc; do test "$rc" -eq 0 || { cat transcript; return 1; }; done <status &&
	lines_are 24 status &&
	convctl recent >out &&
	lines_are 10 out &&
	IFS="	" read -r id ended rest <out && test "$ended" = 2026-03-01T21:10:00.000Z &&
	convctl recent -n 100 >out && lines_are 12 out
'

test_expect 'a bad -n is a usage error' '
	fails_with 2 convctl recent -n ten &&
	stderr_has "-n expects a whole number" &&
	# the rest in the test tool'\''s one process (test-tool commands)
	printf "%s\n" "2 recent -n -1" "2 recent extra" "2 recent --json=yes" \
	    "	convctl: recent: option '\''--json'\'' takes no value" \
	    "2 recent --jsn" "	unknown option '\''--jsn'\''" \
	    "2 recent -x" "	unknown option '\''-x'\''" >bad-n &&
	commands_table bad-n
'

test_expect 'recent never writes the store' '
	{ test ! -e "$S.lock" || rm -f "$S.lock"; } && keep_store "$S" &&
	convctl recent >/dev/null && store_kept "$S" && test ! -e "$S.lock"
'

test_expect 'recent -h prints the usage and options and exits 0' '
	convctl recent -h >out &&
	line_starts "usage: convctl recent" out &&
	convctl help recent >help && same_file out help &&
	fails_with 2 convctl help recent extra &&
	stderr_has "convctl: help: unexpected argument '\''extra'\''"
'

test_done
