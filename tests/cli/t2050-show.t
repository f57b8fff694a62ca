#!/bin/sh
# convctl show: one conversation as text, markdown or JSON
. "$(dirname "$0")/../lib.sh"

S=$CONVCTL_STORE

test_expect 'show with no conversations fails and says so' '
	fails_with 1 convctl show &&
	stderr_has "convctl: show: no conversations in" &&
	! store_exists "$S"
'

store_seed "$S" <<'JSON'
{"version": 1, "conversations": [
 {"id": "conv-b", "startedAt": "2026-02-04T10:00:00.000Z", "endedAt": "2026-02-04T10:05:00.000Z",
  "title": "Groceries", "summary": "Added milk.", "messages": [
  {"id": "m-1", "timestamp": "2026-02-04T10:00:00.000Z", "role": "user", "content": "Add milk"},
  {"id": "m-2", "timestamp": "2026-02-04T10:00:01.250Z", "role": "assistant",
   "content": "Added milk.", "toolsUsed": ["read_file", "edit_file"], "extra": {"k": [1, 2]}}]},
 {"id": "conv-a", "startedAt": "2026-02-04T11:00:00.000Z", "endedAt": "2026-02-04T11:30:00.000Z",
  "title": null, "summary": null, "messages": [
  {"id": "m-3", "timestamp": "2026-02-04T11:00:00.000Z", "role": "user", "content": "later"}]}
]}
JSON

test_expect 'without an active one, show picks the latest ended' '
	convctl show >out &&
	head -n 1 out >got && echo "conversation conv-a" >want && test_cmp want got
'

test_expect 'show ID prints that conversation as text' '
	convctl show conv-b >out &&
	cat >want <<-\EOF &&
	conversation conv-b
	Title:    Groceries
	Started:  2026-02-04T10:00:00.000Z
	Ended:    2026-02-04T10:05:00.000Z
	Messages: 2
	Summary:  Added milk.

	[2026-02-04T10:00:00.000Z]
	User: Add milk

	[2026-02-04T10:00:01.250Z]
	Assistant: Added milk. [used: read_file, edit_file]
	EOF
	test_cmp want out
'

test_expect 'show --format markdown' '
	convctl show --format markdown conv-b >out &&
	cat >want <<-\EOF &&
	# Groceries

	- **Id:** conv-b
	- **Started:** 2026-02-04T10:00:00.000Z
	- **Ended:** 2026-02-04T10:05:00.000Z
	- **Messages:** 2

	> Added milk.

	### User · 2026-02-04T10:00:00.000Z

	Add milk

	### Assistant · 2026-02-04T10:00:01.250Z

	Added milk.

	*Tools used: read_file, edit_file*
	EOF
	test_cmp want out
'

test_expect 'show --json prints the stored object, unknown fields and all' '
	convctl show --json conv-b >out &&
	lines_are 1 out &&
	jq -S . out >got &&
	store_jq "$S" -S ".conversations[0]" >want &&
	test_cmp want got &&
	convctl show -f json conv-b | jq -S . >got2 &&
	test_cmp want got2
'

test_expect 'an active conversation is shown by default, marked active' '
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl add "now" >id &&
	convctl show >out &&
	grep -qx "conversation $(cat id)" out &&
	has_line "Ended:    (active)" out &&
	convctl show -f markdown >md &&
	grep -qx -- "- \*\*Ended:\*\* active" md
'

test_expect 'an unknown id fails, naming the id' '
	snapshot "$S" &&
	fails_with 1 convctl show conv-nope &&
	stderr_has "convctl: show: no conversation '\''conv-nope'\''" &&
	unchanged "$S"
'

test_expect 'an unknown format is a usage error' '
	fails_with 2 convctl show --format yaml &&
	stderr_has "unknown format '\''yaml'\'' (expected text, markdown or json)" &&
	fails_with 2 convctl show --format openai &&
	fails_with 2 convctl show a b &&
	stderr_has "unexpected argument '\''b'\''"
'

test_expect 'show prints NUL bytes, quotes, emoji and CJK back exactly' '
	printf "x\000y \"q\" \\\\ \360\237\230\200 \346\274\242" >text &&
	CONVCTL_NOW=2026-02-04T12:00:01Z convctl add <text >/dev/null &&
	convctl show >out &&
	{ printf "\n[2026-02-04T12:00:01.000Z]\nUser: "; cat text; printf "\n"; } >want &&
	tail -c "$(wc -c <want)" out >got &&
	cmp want got &&
	convctl show --json | jq -j ".messages[-1].content" >got2 &&
	cmp text got2
'

test_expect 'show never writes the store nor takes the lock' '
	rm -f "$S.lock" &&
	snapshot "$S" &&
	convctl show >/dev/null && convctl show --json conv-a >/dev/null &&
	unchanged "$S" &&
	test ! -e "$S.lock"
'

test_expect 'show to a full disk fails' '
	fails_with 1 sh -c "\"$CONVCTL_BIN\" show >/dev/full" &&
	stderr_has "convctl: show: cannot write to standard output: No space left on device"
'

test_expect 'a write error is said once, however much was buffered' '
	use_store full &&
	python3 -c "print(\"milk \" * 4000)" >long &&
	convctl add <long >/dev/null && convctl add <long >/dev/null &&
	for cmd in "show" "show --json" "search milk" "prompt" "prompt --format openai"; do
		fails_with 1 sh -c "\"$CONVCTL_BIN\" $cmd >/dev/full" &&
		lines_are 1 "$T/err" &&
		stderr_has "convctl: ${cmd%% *}: cannot write to standard output: No space left on device" ||
		{ echo "$cmd:"; cat "$T/err"; return 1; }
	done
'

test_expect 'show -h prints the usage and options and exits 0' '
	convctl show -h >out &&
	grep -q "^usage: convctl show" out &&
	convctl help show | cmp out -
'

test_done
