#!/bin/sh
# convctl add: messages join the active conversation or start a new one
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

test_expect 'the first add starts a conversation and prints its id' '
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl add "Add milk" >out &&
	echo conv-1770226000000 >want && same_file want out &&
	store_is "$S" -r ".version" 1 \
	    -r ".conversations | length" 1 \
	    -r ".conversations[0].startedAt" 2026-02-04T17:26:40.000Z \
	    -r ".conversations[0].endedAt" null \
	    -r ".conversations[0].messages[0].role" user \
	    -r ".conversations[0].messages[0].content" "Add milk" \
	    -r ".conversations[0].messages[0].timestamp" 2026-02-04T17:26:40.000Z
'

test_expect 'a message 29 minutes after the last joins the conversation' '
	CONVCTL_NOW=2026-02-04T17:55:40Z convctl add --role assistant ok >out &&
	echo conv-1770226000000 >want && same_file want out &&
	store_is "$S" -r ".conversations | length" 1 \
	    -r ".conversations[0].messages | length" 2 \
	    -r ".conversations[0].messages[1].role" assistant
'

test_expect 'exactly the idle timeout after the last still joins' '
	CONVCTL_NOW=2026-02-04T18:25:40Z convctl add again >out &&
	echo conv-1770226000000 >want && same_file want out &&
	store_is "$S" -r ".conversations[0].messages | length" 3
'

test_expect 'a message 31 minutes after the last ends the old one and starts anew' '
	CONVCTL_NOW=2026-02-04T18:56:40Z convctl add later >out &&
	echo conv-1770231400000 >want && same_file want out &&
	store_is "$S" -r ".conversations | length" 2 \
	    -r ".conversations[0].endedAt" 2026-02-04T18:25:40.000Z \
	    -r ".conversations[1].endedAt" null \
	    -r ".conversations[1].startedAt" 2026-02-04T18:56:40.000Z \
	    -r ".conversations[1].messages[0].content" later
'

test_expect 'after an explicit end the next add starts a new conversation' '
	CONVCTL_NOW=2026-02-04T18:57:00Z convctl end &&
	CONVCTL_NOW=2026-02-04T18:57:10Z convctl add next >out &&
	echo conv-1770231430000 >want && same_file want out &&
	store_is "$S" -r ".conversations | length" 3 \
	    -r ".conversations[1].endedAt" 2026-02-04T18:57:00.000Z \
	    -r "[.conversations[] | select(.endedAt == null)] | length" 1
'

test_expect '--idle-timeout sets the gap that ends a conversation' '
	CONVCTL_NOW=2026-02-04T19:03:10Z convctl --idle-timeout 5 add six >out &&
	read -r id <out && test "$id" != conv-1770231430000 &&
	store_is "$S" -r ".conversations | length" 4 &&
	CONVCTL_NOW=2026-02-04T19:07:10Z convctl add --idle-timeout 5 four >out2 &&
	same_file out out2
'

test_expect '--role, --tool and --at are stored on the message' '
	convctl add --role assistant --tool read_file --tool edit_file \
	    --at 2026-02-04T21:08:00+02:00 done >out &&
	store_is "$S" -r ".conversations[-1].messages[-1].role" assistant \
	    -r ".conversations[-1].messages[-1].toolsUsed | join(\",\")" read_file,edit_file \
	    -r ".conversations[-1].messages[-1].timestamp" 2026-02-04T19:08:00.000Z
'

test_expect 'text comes from standard input when no TEXT is given' '
	printf "line one\nline two\n\n" >in &&
	CONVCTL_NOW=2026-02-04T19:09:00Z convctl add <in &&
	# as JSON: the text exactly, no newline after it
	store_is "$S" -c ".conversations[-1].messages[-1].content" "\"line one\\nline two\""
'

test_expect 'several TEXT operands are joined by spaces' '
	CONVCTL_NOW=2026-02-04T19:09:01Z convctl add one two "three four" &&
	store_is "$S" -r ".conversations[-1].messages[-1].content" "one two three four"
'

test_expect 'NUL bytes, quotes, backslashes, emoji and CJK are stored exactly' '
	printf "a\000b \"q\" \\\\ \\\\n \360\237\230\200 \346\274\242\345\255\227\tend" >text &&
	CONVCTL_NOW=2026-02-04T19:09:02Z convctl add --role assistant <text &&
	convctl prompt --format jsonl --last 1 >p &&
	# one jq compares the stored and the printed text with the bytes of
	# text (--rawfile: NUL too)
	store_jq "$S" -e --rawfile t text --slurpfile p p \
	    ".conversations[-1].messages[-1].content == \$t and (\$p | length) == 1 and \$p[0].content == \$t"
'

# 40 adds, 8 under a wrapper (valgrind: a second each)
same_ms=40
[ -z "${CONVCTL_WRAPPER:-}" ] || same_ms=8
test_expect 'many messages in the same millisecond get distinct ids' '
	i=0 &&
	while [ $i -lt $same_ms ]; do
		CONVCTL_NOW=2026-02-04T19:10:00.123Z convctl add "m $i" >/dev/null || return 1
		i=$((i + 1))
	done &&
	store_is "$S" -r "[.conversations[].messages[].id] | length == (unique | length)" true \
	    -r "[.conversations[-1].messages[] | select(.timestamp == \"2026-02-04T19:10:00.123Z\")] | length" $same_ms
'

test_expect 'conversations started in the same millisecond get distinct ids' '
	store_rm "$S" &&
	CONVCTL_NOW=2026-02-04T20:00:00Z convctl add a >id1 &&
	CONVCTL_NOW=2026-02-04T20:00:00Z convctl end >/dev/null &&
	CONVCTL_NOW=2026-02-04T20:00:00Z convctl add b >id2 &&
	read -r id1 <id1 && read -r id2 <id2 && test "$id1" != "$id2" &&
	store_is "$S" -r "[.conversations[].id] | unique | length" 2
'

test_expect 'an unknown role is a usage error and changes nothing' '
	keep_store "$S" &&
	fails_with 2 convctl add --role wizard hi &&
	stderr_has "convctl: add: unknown role '\''wizard'\'' (expected user, assistant, system or tool)" &&
	store_kept "$S"
'

test_expect 'an empty message is refused and changes nothing' '
	fails_with 1 convctl add "" &&
	stderr_has "convctl: add: empty message" &&
	printf "" >empty &&
	fails_with 1 convctl add <empty &&
	stderr_has "empty message" &&
	store_kept "$S"
'

test_expect 'text that is not UTF-8 is refused, naming the byte offset' '
	printf "caf\351 au lait\n" >latin1 && read -r latin1 <latin1 &&
	fails_with 1 convctl add "$latin1" &&
	stderr_has "not valid UTF-8 at byte 3" &&
	printf "ok \355\240\200" >surrogate &&
	fails_with 1 convctl add <surrogate &&
	stderr_has "at byte 3" &&
	store_kept "$S"
'

test_expect 'an --at that is not ISO 8601 is a usage error' '
	fails_with 2 convctl add --at yesterday hi &&
	stderr_has "--at expects an ISO 8601 time" &&
	stderr_has "yesterday" &&
	fails_with 2 convctl add --at 2026-02-30T10:00:00Z hi &&
	fails_with 2 convctl add --at 2026-02-04T25:00:00Z hi &&
	store_kept "$S"
'

test_expect 'an --at older than the active conversation'\''s last message is a usage error' '
	fails_with 2 convctl add --at 2026-02-04T19:59:59.999Z hi &&
	stderr_has "2026-02-04T19:59:59.999Z is before the last message" &&
	stderr_has "2026-02-04T20:00:00.000Z" &&
	lines_are 1 "$T/err" &&
	store_kept "$S"
'

# the clock stepped back (NTP, a resumed VM): a plain add keeps the message
use_store skew && K=$CONVCTL_STORE && use_store store	# store_at skew, no subshell
test_expect 'a clock behind the last message: recorded at that message'\''s time, one warning' '
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl -s "$K" add first >id1 &&
	CONVCTL_NOW=2026-02-04T09:00:00Z convctl -s "$K" add "second" >id2 2>err &&
	same_file id1 id2 &&
	echo "convctl: add: warning: the clock (2026-02-04T09:00:00.000Z) is 1h before the last message (2026-02-04T10:00:00.000Z); recorded at the last message'\''s time" >want &&
	same_file want err &&
	store_is "$K" -c "[.conversations[] | [.endedAt, [.messages[] | [.content, .timestamp]]]]" \
	    "[[null,[[\"first\",\"2026-02-04T10:00:00.000Z\"],[\"second\",\"2026-02-04T10:00:00.000Z\"]]]]"
'

test_expect 'a clock stepped back past the idle timeout neither ends nor starts a conversation' '
	echo third >in &&
	CONVCTL_NOW=2026-02-03T09:00:00Z convctl -s "$K" --idle-timeout 1 add <in >id3 2>err &&
	same_file id1 id3 &&
	holds "is 1d1h before the last message" err &&
	store_is "$K" -c "[.conversations[] | select(.endedAt == null)] | length" 1 \
	    -r ".conversations[0].messages[2].timestamp" 2026-02-04T10:00:00.000Z &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl -s "$K" add same-ms 2>err >/dev/null &&
	test ! -s err
'

test_expect 'an --at more than 5 minutes ahead of the clock is a usage error' '
	keep_store "$K" &&
	CONVCTL_NOW=2026-02-04T10:00:00Z fails_with 2 convctl -s "$K" add --at 2062-01-01T00:00:00Z hi &&
	stderr_has "--at 2062-01-01T00:00:00.000Z is 13114d14h after the clock (2026-02-04T10:00:00.000Z)" &&
	stderr_has "at most 5 minutes ahead" &&
	CONVCTL_NOW=2026-02-04T10:00:00Z fails_with 2 convctl -s "$K" add --at 2026-02-04T10:05:00.001Z hi &&
	store_kept "$K" &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl -s "$K" add --at 2026-02-04T10:05:00Z "skewed host" >/dev/null &&
	store_is "$K" -r ".conversations[0].messages[-1].timestamp" 2026-02-04T10:05:00.000Z
'

test_expect 'an empty tool name is refused' '
	keep_store "$S" &&
	fails_with 1 convctl add --tool "" --at 2026-02-04T20:01:00Z hi &&
	stderr_has "tool name" &&
	store_kept "$S"
'

test_expect 'no TEXT and a terminal on standard input is a usage error' '
	keep_store "$S" &&
	on_tty "$CONVCTL_BIN" add >out;
	test $? -eq 2 &&
	holds "no TEXT given and standard input is a terminal" out &&
	store_kept "$S"
'

test_expect 'every add applies the rolling limit, oldest endedAt first' '
	store_rm "$S" &&
	for h in 10 11 12 13; do
		CONVCTL_NOW=2026-03-01T$h:00:00Z convctl add "at $h" >/dev/null || return 1
	done &&
	store_is "$S" -r ".conversations | length" 4 &&
	CONVCTL_NOW=2026-03-01T14:00:00Z convctl --max-conversations 2 add last >/dev/null &&
	store_is "$S" -r "[.conversations[].messages[0].content] | join(\",\")" "at 12,at 13,last" &&
	CONVCTL_MAX_CONVERSATIONS=1 CONVCTL_NOW=2026-03-01T14:01:00Z convctl add more &&
	store_is "$S" -r ".conversations | length" 2 \
	    -r ".conversations[0].messages[0].content" "at 13"
'

test_expect 'add -h prints the usage and exits 0' '
	convctl add -h >out &&
	line_starts "usage: convctl add" out
'

# issue 15: named system prompts, from the config or a file
test_expect '--template opens a new conversation with a system message' '
	use_store tmpl &&
	mkdir -p "$XDG_CONFIG_HOME/convctl/templates" &&
	echo "template.brief = \"Be brief.\"" >"$XDG_CONFIG_HOME/convctl/config" &&
	printf "You are a pirate.\nSay arr.\n\n" >"$XDG_CONFIG_HOME/convctl/templates/pirate" &&
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add --template brief "hi" >out 2>err &&
	test ! -s err &&
	convctl prompt --format jsonl >p && jq -c "[.role, .content, .timestamp]" p >got &&
	printf "%s\n" "[\"system\",\"Be brief.\",\"2026-02-04T10:00:00.000Z\"]" \
	    "[\"user\",\"hi\",\"2026-02-04T10:00:00.000Z\"]" >want && same_file want got &&
	convctl config >/dev/null 2>err && test ! -s err
'

test_expect '--template is a note, not a message, when the add joins a conversation' '
	use_store tmpl &&
	CONVCTL_NOW=2026-02-04T10:00:05Z convctl add --template pirate "again" >out 2>err &&
	file_is conv-1770199200000 out &&
	has_line "convctl: add: note: template '\''pirate'\'' not used: the message went to conversation '\''conv-1770199200000'\'', already started" err &&
	convctl prompt --format jsonl >p && jq -s "map(select(.role == \"system\")) | length" p >n &&
	file_is 1 n
'

test_expect '--template from a file; an unknown one fails and adds nothing' '
	use_store tmpl &&
	CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:00:00Z convctl add --template pirate "ahoy" >/dev/null &&
	convctl prompt --format jsonl >p && jq -r .content p >got &&
	line_is 1 "You are a pirate." got && line_is 2 "Say arr." got &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl add --template nope x &&
	stderr_has "add: no template '\''nope'\''" &&
	fails_with 1 convctl add --template ../config x &&
	stderr_has "bad template name" &&
	store_kept "$CONVCTL_STORE"
'
test_done
