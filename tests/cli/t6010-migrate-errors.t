#!/bin/sh
# convctl migrate: errors that say what is wrong and where, a torn line told
# from a bad one, and a Markdown round trip whatever the messages hold
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

F=$top/tests/fixtures/migrate
export CONVCTL_NOW=2026-06-01T12:00:00Z

test_expect 'ChatGPT: a bad create_time names the node path, seconds, and the number as written' '
	jq ".[0].mapping[\"usr-0003\"].message.create_time = 1e300" "$F/chatgpt/conversations.json" >t.json &&
	fails_with 1 convctl migrate t.json &&
	stderr_has "'\''t.json'\'': [0].mapping.usr-0003.message.create_time: not a time (ISO 8601, or seconds or milliseconds since the epoch): 1e300" &&
	! store_exists
'

test_expect 'JSON lines: a whole bad last line, newline and all, is bad input (exit 1); --skip-bad skips it' '
	head -c -1 "$F/torn.jsonl" >bad.jsonl && echo "}" >>bad.jsonl &&
	fails_with 1 convctl migrate bad.jsonl &&
	stderr_has "'\''bad.jsonl'\'':3:" &&
	lacks torn "$T/err" &&
	! store_exists &&
	convctl migrate --skip-bad bad.jsonl >out 2>err &&
	holds "skipped (--skip-bad): '\''bad.jsonl'\'':3:" err &&
	holds "bad: 2 messages" out
'

test_expect 'JSON lines: a last line cut short (no newline) is torn: said, skipped, exit 0' '
	use_store torn &&
	convctl migrate "$F/torn.jsonl" >out 2>err &&
	holds "the last line is torn" err &&
	holds "torn: 2 messages" out
'

test_expect 'Markdown: a message holding a header line between blank lines round-trips' '
	use_store md &&
	CONVCTL_NOW=2026-05-01T10:00:00Z convctl add "Hello" >/dev/null &&
	printf "See:\n\n### User · 2026-05-01T10:00:00.000Z\n\nnot a message\n\\\\### nor this\n" >reply &&
	CONVCTL_NOW=2026-05-01T10:00:01Z convctl add --role assistant <reply >/dev/null &&
	convctl end >/dev/null &&
	store_jq "$CONVCTL_STORE" -c ".conversations[0] | .id, (.messages | map(.content))" >md.out &&
	{ read -r id && IFS= read -r contents; } <md.out &&
	id=${id#\"} && id=${id%\"} &&
	convctl show --format markdown "$id" >a.md &&
	has_line "\\### User · 2026-05-01T10:00:00.000Z" a.md &&
	use_store md2 &&
	convctl migrate a.md >/dev/null &&
	store_is "$CONVCTL_STORE" -c ".conversations[0].messages | map(.content)" "$contents" &&
	convctl show --format markdown "$id" >b.md &&
	same_file a.md b.md
'

if [ "$engine" = pg ]; then
	test_expect 'PostgreSQL: a schema_version that is not a number is quoted, not read as 0' '
		use_store junk &&
		convctl migrate "$F/chatsidian/garden.json" >/dev/null &&
		psql_as "update $(pg_schema "$CONVCTL_STORE").meta set value = '"'junk'"' where key = '"'schema_version'"'" &&
		fails_with 1 convctl migrate "$F/chatsidian/tax.json" &&
		stderr_has "its schema version (meta'\''s schema_version) is '\''junk'\'', not a whole number; this convctl knows versions 1 to 2" &&
		lacks "version 0" "$T/err"
	'
fi

test_done
