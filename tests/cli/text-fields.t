#!/bin/sh
# titles, tags and summaries as text: what a person gives is one line of
# printable text, bounded; what a store already holds (an import, an older
# convctl) is escaped in every text output, and --json carries it as it is
. "$(dirname "$0")/../lib.sh"

CONVCTL_NOW=2026-02-04T10:00:00Z convctl add "Add milk" >/dev/null
CONVCTL_NOW=2026-02-04T10:01:00Z convctl end >/dev/null
a=conv-1770199200000

test_expect 'a title or tag with a control character: exit 2, which and where' '
	snapshot "$CONVCTL_STORE" &&
	for bad in "evil\nconv-0000\tforged" "\033[31mred" "ab\302\233c" "tab\there" "del\177"; do
		t=$(printf "$bad") &&
		fails_with 2 convctl title $a "$t" && stderr_has "convctl: title: title has a control character (U+" &&
		stderr_has "usage: convctl title" &&
		fails_with 2 convctl tag $a ok "$t" && stderr_has "convctl: tag: tag has a control character (U+" || exit 1
	done &&
	fails_with 2 convctl title $a "$(printf "evil\nconv-0000")" &&
	head -n 1 "$T/err" >got &&
	echo "convctl: title: title has a control character (U+000A) at character 5; it is one line of printable text" >want &&
	test_cmp want got &&
	fails_with 2 convctl tag $a "$(printf "\303\251t\303\251\033x")" &&
	stderr_has "tag has a control character (U+001B) at character 4;" &&
	fails_with 2 convctl title $a "$(printf "ab\302\233c")" && stderr_has "(U+009B) at character 3;" &&
	unchanged "$CONVCTL_STORE"
'

test_expect 'a title of at most 500 characters, a tag of at most 100' '
	snapshot "$CONVCTL_STORE" &&
	t501=$(python3 -c "print(\"\u00e9\" * 501)") &&
	fails_with 2 convctl title $a "$t501" &&
	stderr_has "convctl: title: title is 501 characters long; at most 500 are taken" &&
	fails_with 2 convctl tag $a "$(python3 -c "print(\"x\" * 101)")" &&
	stderr_has "convctl: tag: tag is 101 characters long; at most 100 are taken" &&
	fails_with 2 convctl title $a "$(python3 -c "print(\"x\" * 100000)")" &&
	unchanged "$CONVCTL_STORE" &&
	convctl title $a "$(python3 -c "print(\"\u00e9\" * 500)")" &&
	convctl tag $a "$(python3 -c "print(\"x\" * 100)")" >/dev/null &&
	store_json | jq -e ".conversations[0] | (.title | length) == 500 and (.tags[0] | length) == 100" >/dev/null
'

# a store written by an import or an older convctl: every text field holds
# what a person could not type in
python3 - >"$T/seed.json" <<'PY'
import json
print(json.dumps({"version": 1, "conversations": [{
    "id": "conv-1770199200000", "startedAt": "2026-02-04T10:00:00.000Z",
    "endedAt": "2026-02-04T10:01:00.000Z",
    "title": "evil\nconv-0000\t2026-01-01T00:00:00.000Z\t9\t\u001b[31mforged",
    "summary": "first line\nsecond\tline \u009b2J",
    "tags": ["a, b", "c", "q\"uote", "new\nline", "plain"],
    "messages": [{"id": "m-1", "timestamp": "2026-02-04T10:00:00.000Z",
                  "role": "user", "content": "Add milk"}]}]}))
PY

test_expect 'recent escapes a stored title and tags: one line, no terminal escape' '
	store_seed <"$T/seed.json" &&
	convctl recent >got &&
	test "$(wc -l <got)" -eq 1 && ! grep -q "$(printf "\033")" got &&
	printf "%s\t%s\t%s\t%s\t%s\n" $a 2026-02-04T10:01:00.000Z 1 \
	    "evil\\nconv-0000\\t2026-01-01T00:00:00.000Z\\t9\\t\\x1b[31mforged" \
	    "#\"a, b\" #c #\"q\\\"uote\" #\"new\\nline\" #plain" >want &&
	test_cmp want got &&
	test "$(cut -f 1 got)" = $a
'

test_expect 'show escapes them, and joins the tags so that "a, b" is one tag' '
	convctl show $a >got &&
	grep -qx "Title:    evil\\\\nconv-0000\\\\t2026-01-01T00:00:00.000Z\\\\t9\\\\t\\\\x1b\[31mforged" got &&
	grep -qxF "Tags:     \"a, b\", c, \"q\\\"uote\", \"new\\nline\", plain" got &&
	grep -qxF "Summary:  first line\\nsecond\\tline \\xc2\\x9b2J" got &&
	test "$(grep -c "" got)" -eq 10 &&
	convctl show -f markdown $a >got &&
	grep -qxF "# evil\\nconv-0000\\t2026-01-01T00:00:00.000Z\\t9\\t\\x1b[31mforged" got &&
	grep -qxF -- "- **Tags:** \"a, b\", c, \"q\\\"uote\", \"new\\nline\", plain" got &&
	grep -qxF "> first line\\nsecond\\tline \\xc2\\x9b2J" got &&
	! grep -q "$(printf "\033")" got
'

test_expect 'tag prints stored tags escaped, one a line' '
	convctl tag -n $a plain >got &&
	printf "%s\n" "a, b" c "q\"uote" "new\\nline" plain >want && test_cmp want got
'

test_expect '--json carries the stored text as it is' '
	convctl recent --json | jq -e --slurpfile s "$T/seed.json" \
	    ".[0].title == \$s[0].conversations[0].title and .[0].summary == \$s[0].conversations[0].summary and .[0].tags == \$s[0].conversations[0].tags" >/dev/null &&
	convctl show --json $a | jq -e --slurpfile s "$T/seed.json" \
	    ".title == \$s[0].conversations[0].title and .tags == \$s[0].conversations[0].tags" >/dev/null &&
	convctl tag --json -n $a | jq -e --slurpfile s "$T/seed.json" ". == \$s[0].conversations[0].tags" >/dev/null
'

test_done
