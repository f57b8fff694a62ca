#!/bin/sh
# convctl prompt: the active conversation as context for another LLM tool
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

test_expect 'with no store, prompt prints nothing and exits 0' '
	convctl prompt >out 2>err &&
	test ! -s out && test ! -s err
'

test_expect 'with nothing active, prompt prints nothing and exits 0' '
	CONVCTL_NOW=2026-02-04T17:00:00Z convctl add old >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:01:00Z convctl end >/dev/null &&
	convctl prompt >out 2>err &&
	test ! -s out && test ! -s err &&
	convctl prompt --format jsonl >out && test ! -s out &&
	convctl prompt --format openai >out && echo "[]" >want && same_file want out
'

test_expect 'prompt prints SmartHole'\''s context format byte for byte' '
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl add "Add milk" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:26:41.25Z convctl add --role assistant \
	    --tool read_file --tool edit_file "Added milk to Lists/Groceries.md." >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:00Z convctl add "Thanks
see you" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:01Z convctl add --role assistant --tool x "Bye" >/dev/null &&
	convctl prompt >out &&
	printf "## Current Conversation\n[2026-02-04T17:26:40.000Z]\nUser: Add milk\n\n[2026-02-04T17:26:41.250Z]\nAssistant: Added milk to Lists/Groceries.md. [used: read_file, edit_file]\n\n[2026-02-04T17:27:00.000Z]\nUser: Thanks\nsee you\n\n[2026-02-04T17:27:01.000Z]\nAssistant: Bye [used: x]\n" >want &&
	same_file want out &&
	convctl prompt --format text >out2 && same_file want out2
'

test_expect '--format openai is a chat-completions messages array' '
	convctl prompt --format openai >out &&
	# one jq: the shape, the roles, a content byte for byte (as JSON), and
	# the array as a request'\''s messages
	jq_is out -c "type == \"array\" and length == 4 and
	    all(.[]; type == \"object\" and keys == [\"content\",\"role\"] and
	        (.role | IN(\"system\",\"user\",\"assistant\")) and
	        (.content | type == \"string\"))" true \
	    -c "[.[].role]" "[\"user\",\"assistant\",\"user\",\"assistant\"]" \
	    -c ".[2].content" "\"Thanks\\nsee you\"" \
	    -c "{model: \"m\", messages: .} | .messages | length == 4" true &&
	convctl prompt --json >out2 && same_file out out2
'

test_expect 'openai: system stays system, a tool message becomes user text' '
	CONVCTL_NOW=2026-02-04T17:27:02Z convctl add --role system "Be brief" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:03Z convctl add --role tool "42" >/dev/null &&
	convctl prompt --format openai >out && jq -c ".[4:]" out >got &&
	printf "%s\n" "[{\"role\":\"system\",\"content\":\"Be brief\"},{\"role\":\"user\",\"content\":\"Tool output:\\n42\"}]" >want &&
	same_file want got
'

test_expect '--format markdown gives each message a section' '
	convctl prompt --format markdown --last 2 >out &&
	write_to want <<-\EOF &&
	## Current Conversation

	### Assistant · 2026-02-04T17:27:01.000Z

	Bye

	*Tools used: x*

	### System · 2026-02-04T17:27:02.000Z

	Be brief

	### Tool · 2026-02-04T17:27:03.000Z

	42
	EOF
	same_file want out
'

test_expect '--format jsonl prints each stored message on its own line' '
	convctl prompt --format jsonl >out &&
	lines_are 6 out &&
	# one jq: the lines are the stored messages as jq -c prints them (tojson:
	# keys in their order)
	store_jq "$S" -e --slurpfile got out \
	    "[.conversations[-1].messages[] | tojson] == (\$got | map(tojson))"
'

test_expect '--last N keeps the newest N messages' '
	convctl prompt --last 1 >out &&
	printf "## Current Conversation\n[2026-02-04T17:27:03.000Z]\nTool: 42\n" >want &&
	same_file want out &&
	convctl prompt --format jsonl --last 3 >out && jq -r .content out >got &&
	printf "Thanks\nsee you\nBye\nBe brief\n42\n" >want && same_file want got &&
	convctl prompt >all && convctl prompt --last 100 >out && same_file all out &&
	convctl prompt --last 0 >out && test ! -s out
'

# a token for every 4 code points (rounded up) of the message as the text
# format writes it: "[TIMESTAMP]\nUser: " is 33 code points
test_expect '--max-tokens keeps the newest whole messages that fit' '
	store_rm "$S" &&
	z=0000000000 && z=$z$z$z$z &&	# printf "%040d" 0, by the shell
	CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "$z" >/dev/null &&
	CONVCTL_NOW=2026-02-04T10:00:01Z convctl add "abcd" >/dev/null &&
	CONVCTL_NOW=2026-02-04T10:00:02Z convctl add "漢字漢字" >/dev/null &&
	printf "## Current Conversation\n[2026-02-04T10:00:01.000Z]\nUser: abcd\n\n[2026-02-04T10:00:02.000Z]\nUser: 漢字漢字\n" >two &&
	printf "## Current Conversation\n[2026-02-04T10:00:02.000Z]\nUser: 漢字漢字\n" >one &&
	convctl prompt --max-tokens 20 >out && same_file two out &&
	convctl prompt --max-tokens 38 >out && same_file two out &&
	convctl prompt --max-tokens 19 >out && same_file one out &&
	convctl prompt --max-tokens 10 >out && same_file one out &&
	convctl prompt --max-tokens 39 >out && n=0 &&
	while IFS= read -r l; do case $l in "User: "*) n=$((n + 1)) ;; esac; done <out &&
	test "$n" = 3 &&
	fails_with 1 convctl prompt --max-tokens 9 && test ! -s stdout &&
	stderr_has "prompt: --max-tokens 9 leaves no room for the newest message" &&
	fails_with 1 convctl prompt --max-tokens 9 --format openai && test ! -s stdout
'

test_expect '--max-tokens and --last together: the tighter one wins' '
	convctl prompt --max-tokens 1000 --last 1 --format jsonl >o1 &&
	convctl prompt --max-tokens 20 --last 3 --format jsonl >o2 &&
	jq -r "input_filename + \": \" + .content" o1 o2 >got &&
	printf "o1: 漢字漢字\no2: abcd\no2: 漢字漢字\n" >want && same_file want got
'

test_expect 'NUL bytes, quotes, backslashes, emoji and CJK are printed exactly' '
	printf "a\000b \"q\" \\\\ \360\237\230\200 \346\274\242" >text &&
	CONVCTL_NOW=2026-02-04T10:00:03Z convctl add --role assistant <text >/dev/null &&
	convctl prompt --last 1 >out &&
	convctl prompt --format openai --last 1 >json &&
	# one jq: the output is the text'\''s bytes (--rawfile: NUL too) after
	# its time and role, and the text is the JSON'\''s content
	jq -n -e --rawfile out out --rawfile t text "
	    \$out == \"## Current Conversation\n[2026-02-04T10:00:03.000Z]\nAssistant: \" + \$t + \"\n\" and
	    input[0].content == \$t" json
'

test_expect 'bad options are usage errors' '
	fails_with 2 convctl prompt --format json &&
	stderr_has "unknown format '\''json'\'' (expected text, markdown, openai or jsonl)" &&
	fails_with 2 convctl prompt --last many &&
	stderr_has "--last expects a whole number" &&
	fails_with 2 convctl prompt --max-tokens -5 &&
	stderr_has "--max-tokens expects a whole number" &&
	fails_with 2 convctl prompt one two
'

test_expect 'prompt never writes the store' '
	{ test ! -e "$S.lock" || rm -f "$S.lock"; } && keep_store "$S" &&
	convctl prompt >/dev/null && store_kept "$S" && test ! -e "$S.lock"
'

test_expect 'prompt -h prints the usage and options and exits 0' '
	convctl prompt -h >out &&
	line_starts "usage: convctl prompt" out &&
	convctl help prompt >help && same_file out help
'

# issue 15: never an empty prompt; the newest message is cut from its start
test_expect '--max-tokens cuts a newest message too large alone, and says so' '
	store_rm "$S" &&
	# printf "%0200d" 9, by the shell
	z=0000000000 && z=$z$z$z$z$z && z=$z$z$z$z && z=${z%0}9 &&
	CONVCTL_NOW=2026-02-04T10:00:03Z convctl add "$z" >/dev/null &&
	convctl prompt --max-tokens 20 >out 2>err &&
	printf "## Current Conversation\n[2026-02-04T10:00:03.000Z]\nUser: [... 182 characters cut ...]\n000000000000000009\n" >want &&
	same_file want out &&
	has_line "convctl: prompt: the newest message alone is over --max-tokens 20: its first 182 characters are cut" err &&
	convctl prompt --max-tokens 20 --format jsonl >out 2>/dev/null && jq -r .content out >got &&
	printf "[... 182 characters cut ...]\n000000000000000009\n" >want &&
	same_file want got &&
	convctl prompt --max-tokens 1000 >out 2>err && test ! -s err &&
	has_line "User: $z" out
'

# issue 15: the system messages that open a conversation stay
test_expect '--last and --max-tokens keep the opening system messages' '
	store_rm "$S" &&
	CONVCTL_NOW=2026-02-04T11:00:00Z convctl add -r system "Be brief" >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:00:01Z convctl add "one" >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:00:02Z convctl add -r assistant "two" >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:00:03Z convctl add -r system "Now be long" >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:00:04Z convctl add "three" >/dev/null &&
	convctl prompt --format jsonl --last 1 >o1 &&
	convctl prompt --format jsonl --last 2 >o2 &&
	convctl prompt --format openai --last 0 >o3 &&
	convctl prompt --format jsonl --max-tokens 21 >o4 &&
	# one jq: each output'\''s contents (o3: its roles), after its name
	jq -r "input_filename + \": \" +
	    if input_filename == \"o3\" then map(.role) | tojson else .content end" \
	    o1 o2 o3 o4 >got &&
	printf "%s\n" "o1: Be brief" "o1: three" \
	    "o2: Be brief" "o2: two" "o2: Now be long" "o2: three" \
	    "o3: [\"system\"]" "o4: Be brief" "o4: three" >want &&
	same_file want got &&
	fails_with 1 convctl prompt --max-tokens 8 &&
	stderr_has "the system messages that open the conversation take 11 tokens, more than --max-tokens 8"
'

# issue 15: any conversation, ended or active
test_expect 'prompt ID prints that conversation, ended or active' '
	CONVCTL_NOW=2026-02-04T11:01:00Z convctl end >/dev/null &&
	convctl prompt >out && test ! -s out &&
	convctl prompt conv-1770202800000 --last 1 >out &&
	printf "## Current Conversation\n[2026-02-04T11:00:00.000Z]\nSystem: Be brief\n\n[2026-02-04T11:00:04.000Z]\nUser: three\n" >want &&
	same_file want out &&
	convctl prompt --format openai conv-1770202800000 >o &&
	CONVCTL_NOW=2026-02-04T11:02:00Z convctl add "four" >/dev/null &&
	convctl show --json >j &&
	# one jq: the length of the one, the id of the other
	jq -r "if input_filename == \"o\" then length else .id end" o j >got &&
	{ read -r n && read -r id; } <got && test "$n" = 5 &&
	convctl prompt "$id" >pid && convctl prompt >p && same_file p pid &&
	fails_with 1 convctl prompt conv-404 &&
	stderr_has "prompt: no conversation '\''conv-404'\'' in" && test ! -s stdout
'

test_expect 'the page says which context lines are not SmartHole'\''s: System:, Tool:' '
	use_store roles &&
	for r in user assistant system tool; do
		CONVCTL_NOW=2026-02-06T10:00:00Z convctl add --role $r "as $r" >/dev/null || return 1
	done &&
	convctl prompt >p &&
	# the label of each line holding ": as " (grep | cut -d: -f1), by the shell
	while IFS= read -r l; do
		case $l in *": as "*) printf "%s\n" "${l%%:*}" ;; esac
	done <p >labels &&
	printf "User\nAssistant\nSystem\nTool\n" >want && same_file want labels &&
	page=$top/man/convctl-prompt.1 &&
	has_line ".Li System: Ar CONTENT" "$page" &&
	has_line ".Li Tool: Ar CONTENT" "$page" &&
	line_starts "Those two lines are the only ones that differ from what SmartHole" "$page" &&
	# no line as grep "SmartHole.s context text byte for byte" finds one
	# (any characters between, the apostrophe a byte or three)
	while IFS= read -r l; do
		case $l in *SmartHole*"s context text byte for byte"*) echo "convctl.1: $l" && return 1 ;; esac
	done <"$top/man/convctl.1"
'

test_done
