#!/bin/sh
# convctl show: one conversation as text, markdown or JSON
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

test_expect 'show with no conversations fails and says so' '
	fails_with 1 convctl show &&
	stderr_has "convctl: show: no conversations in" &&
	! store_exists "$S"
'

seed_text "$S" <<'JSON'
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
	convctl show >out && line_is 1 "conversation conv-a" out
'

test_expect 'show ID prints that conversation as text' '
	convctl show conv-b >out &&
	write_to want <<-\EOF &&
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
	same_file want out
'

test_expect 'show --format markdown' '
	convctl show --format markdown conv-b >out &&
	write_to want <<-\EOF &&
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
	same_file want out
'

test_expect 'show --json prints the stored object, unknown fields and all' '
	convctl show --json conv-b >out &&
	lines_are 1 out &&
	# one jq: the object equals the stored one (as their jq -S texts would)
	store_jq "$S" -e --slurpfile got out ".conversations[0] == \$got[0] and (\$got | length) == 1" &&
	convctl show -f json conv-b >out2 && same_file out out2
'

test_expect 'an active conversation is shown by default, marked active' '
	CONVCTL_NOW=2026-02-04T12:00:00Z convctl add "now" >id &&
	convctl show >out &&
	read -r id <id && lines_are 1 id && has_line "conversation $id" out &&
	has_line "Ended:    (active)" out &&
	convctl show -f markdown >md &&
	has_line "- **Ended:** active" md
'

test_expect 'an unknown id fails, naming the id' '
	keep_store "$S" &&
	fails_with 1 convctl show conv-nope &&
	stderr_has "convctl: show: no conversation '\''conv-nope'\''" &&
	store_kept "$S"
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
	convctl show --json >json &&
	# one jq: the text'\''s bytes (--rawfile: NUL too) end the output after
	# its time and role, and are the JSON'\''s content
	jq -n -e --rawfile out out --rawfile t text "
	    (\$out | endswith(\"\n[2026-02-04T12:00:01.000Z]\nUser: \" + \$t + \"\n\")) and
	    input.messages[-1].content == \$t" json
'

test_expect 'show never writes the store nor takes the lock' '
	{ test ! -e "$S.lock" || rm -f "$S.lock"; } &&
	keep_store "$S" &&
	convctl show >/dev/null && convctl show --json conv-a >/dev/null &&
	store_kept "$S" &&
	test ! -e "$S.lock"
'

# full_fails ARGS...: convctl ARGS writing to a full disk exits 1, stderr
# kept in $T/err for stderr_has, as fails_with keeps it
full_fails() {
	convctl "$@" >/dev/full 2>"$T/err"
	ff_st=$?
	[ "$ff_st" -eq 1 ] || { echo "exit status $ff_st, want 1; stderr:"; cat "$T/err"; return 1; }
}

test_expect 'show to a full disk fails' '
	full_fails show &&
	stderr_has "convctl: show: cannot write to standard output: No space left on device"
'

test_expect 'a write error is said once, however much was buffered' '
	use_store full &&
	# "milk " 4000 times and a newline, as python3 -c print("milk " * 4000)
	# writes it, made by the shell doubling the word
	long= && w="milk " && n=4000 &&
	while [ $n -gt 0 ]; do
		[ $((n % 2)) -eq 0 ] || long=$long$w
		w=$w$w n=$((n / 2))
	done &&
	printf "%s\n" "$long" >long &&
	convctl add <long >/dev/null && convctl add <long >/dev/null &&
	for cmd in "show" "show --json" "search milk" "prompt" "prompt --format openai"; do
		full_fails $cmd &&
		lines_are 1 "$T/err" &&
		stderr_has "convctl: ${cmd%% *}: cannot write to standard output: No space left on device" ||
		{ echo "$cmd:"; cat "$T/err"; return 1; }
	done
'

test_expect 'show -h prints the usage and options and exits 0' '
	convctl show -h >out &&
	line_starts "usage: convctl show" out &&
	convctl help show >help && same_file out help
'

test_done
