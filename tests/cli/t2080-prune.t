#!/bin/sh
# convctl prune: the rolling limit, oldest endedAt first, never the active one
# check: valgrind
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

# five ended conversations, in file order unlike their end order, and an
# active one that is the oldest of all (seed_text: the file is made anew
# six times, by the shell)
fixture() {
	seed_text "$S" <<'JSON'
{"version": 1, "conversations": [
 {"id": "c-act", "startedAt": "2026-01-01T00:00:00Z", "endedAt": null, "messages": [], "x": 1},
 {"id": "c-3", "startedAt": "2026-01-03T00:00:00Z", "endedAt": "2026-01-03T00:00:00Z", "messages": []},
 {"id": "c-5", "startedAt": "2026-01-02T00:00:00Z", "endedAt": "2026-01-05T00:00:00Z", "messages": []},
 {"id": "c-1", "startedAt": "2026-01-04T00:00:00Z", "endedAt": "2026-01-01T00:00:00Z", "messages": []},
 {"id": "c-4", "startedAt": "2026-01-01T00:00:00Z", "endedAt": "2026-01-04T00:00:00Z", "messages": []},
 {"id": "c-2", "startedAt": "2026-01-01T00:00:00Z", "endedAt": "2026-01-02T00:00:00Z", "messages": []}
]}
JSON
}

test_expect 'prune on a missing store removes nothing and creates nothing' '
	convctl prune >out && test ! -s out && ! store_exists "$S"
'

test_expect 'prune --dry-run lists the oldest ended first and removes nothing' '
	fixture && keep_store "$S" &&
	convctl prune --max 2 --dry-run >out &&
	printf "c-1\nc-2\nc-3\n" >want && same_file want out &&
	store_kept "$S" &&
	convctl prune --max 2 -n --json >out &&
	echo "[\"c-1\",\"c-2\",\"c-3\"]" >want && same_file want out &&
	store_kept "$S"
'

test_expect 'prune --max N keeps the N newest ended and the active one' '
	convctl prune --max 2 >out &&
	printf "c-1\nc-2\nc-3\n" >want && same_file want out &&
	store_is "$S" -r "[.conversations[].id] | join(\",\")" c-act,c-5,c-4 \
	    -r ".conversations[0].x" 1
'

test_expect 'prune --max 0 removes every ended one but never the active one' '
	convctl prune --max 0 --json >out &&
	echo "[\"c-4\",\"c-5\"]" >want && same_file want out &&
	store_is "$S" -r "[.conversations[].id] | join(\",\")" c-act
'

test_expect 'with nothing to remove, prune leaves the store byte for byte' '
	fixture && keep_store "$S" &&
	convctl prune >out && test ! -s out && store_kept "$S"
'

test_expect 'prune without --max uses max_conversations' '
	CONVCTL_MAX_CONVERSATIONS=4 convctl prune >out &&
	echo c-1 >want && same_file want out &&
	{ test -d "$XDG_CONFIG_HOME/convctl" || mkdir -p "$XDG_CONFIG_HOME/convctl"; } &&
	printf "max_conversations = 3\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	convctl prune >out && echo c-2 >want && same_file want out &&
	convctl --max-conversations 2 prune >out && echo c-3 >want && same_file want out &&
	rm "$XDG_CONFIG_HOME/convctl/config"
'

# the limit every write applies never removes history without a word
test_expect 'every write says how many the rolling limit removed, and which setting' '
	fixture &&
	CONVCTL_NOW=2026-01-06T00:00:00Z convctl add "a limit lowered" >/dev/null 2>err &&
	test ! -s err &&
	{ test -d "$XDG_CONFIG_HOME/convctl" || mkdir -p "$XDG_CONFIG_HOME/convctl"; } &&
	printf "max_conversations = 3\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	CONVCTL_NOW=2026-01-06T00:00:01Z convctl add "in the config" >/dev/null 2>err &&
	echo "convctl: add: removed 3 oldest ended conversations to keep 3 (max_conversations, set in '\''$XDG_CONFIG_HOME/convctl/config'\''; see convctl-prune(1))" >want &&
	same_file want err &&
	store_is "$S" -r "[.conversations[].id] | join(\",\")" "c-3,c-5,c-4,conv-1767657600000" &&
	CONVCTL_MAX_CONVERSATIONS=2 CONVCTL_NOW=2026-01-06T00:00:02Z convctl end --no-summary >/dev/null 2>err &&
	has_line "convctl: end: removed 2 oldest ended conversations to keep 2 (max_conversations, set by CONVCTL_MAX_CONVERSATIONS; see convctl-prune(1))" err &&
	rm "$XDG_CONFIG_HOME/convctl/config" &&
	fixture &&
	convctl --max-conversations 4 delete c-act --force >/dev/null 2>err &&
	has_line "convctl: delete: removed 1 oldest ended conversation to keep 4 (max_conversations, set by --max-conversations; see convctl-prune(1))" err &&
	convctl add x >/dev/null 2>err && test ! -s err
'

test_expect 'summarize, which writes too, says what the limit removed' '
	fixture &&
	convctl --max-conversations 3 summarize --summarizer offline c-5 \
	    >/dev/null 2>err &&
	has_line "convctl: summarize: removed 2 oldest ended conversations to keep 3 (max_conversations, set by --max-conversations; see convctl-prune(1))" err &&
	store_is "$S" -r "[.conversations[].id] | join(\",\")" "c-act,c-3,c-5,c-4"
'

test_expect 'prune --older-than removes those that ended before now minus D' '
	fixture &&
	CONVCTL_NOW=2026-01-06T00:00:00Z convctl prune --older-than 3d >out &&
	printf "c-1\nc-2\n" >want && same_file want out &&
	CONVCTL_NOW=2026-01-06T00:00:00Z convctl prune --older-than 47h >out &&
	printf "c-3\nc-4\n" >want && same_file want out &&
	store_is "$S" -r "[.conversations[].id] | join(\",\")" c-act,c-5
'

test_expect 'a bad --max or --older-than is a usage error and changes nothing' '
	fixture && keep_store "$S" &&
	fails_with 2 convctl prune --max -1 &&
	stderr_has "--max expects a whole number" &&
	fails_with 2 convctl prune --max lots &&
	fails_with 2 convctl prune --older-than soon &&
	stderr_has "--older-than expects a duration" &&
	fails_with 2 convctl prune --older-than 3y &&
	CONVCTL_MAX_CONVERSATIONS=many fails_with 1 convctl prune &&
	stderr_has "CONVCTL_MAX_CONVERSATIONS expects a whole number from 0 to 100000000, not '\''many'\''" &&
	store_kept "$S"
'

test_expect 'prune -h prints the usage and options and exits 0' '
	convctl prune -h >out &&
	line_starts "usage: convctl prune" out &&
	convctl help prune >help && same_file out help
'

test_done
