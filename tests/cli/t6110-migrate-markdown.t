#!/bin/sh
# convctl migrate: what show --format markdown writes imports back
. "$(dirname "$0")/../lib.sh"

export CONVCTL_NOW=2026-06-01T12:00:00Z

roles_contents() {
	jq -c "[.messages[] | [.role, .content, .toolsUsed, .timestamp]]" "$1"
}

test_expect 'a round trip: roles, contents (blank lines, a header-like line), tools, times' '
	convctl -s a.json add --at 2026-05-01T10:00:00Z "Two paragraphs:

### User · not a header
and a third." >/dev/null &&
	convctl -s a.json add --at 2026-05-01T10:00:01.250Z -r tool "[0, 12]" >/dev/null &&
	convctl -s a.json add --at 2026-05-01T10:00:02Z -r assistant --tool read_file --tool edit_file "Done.

*emphasis* at the end" >/dev/null &&
	convctl -s a.json show --format markdown >conv.md &&
	convctl -s b.json migrate conv.md >out &&
	grep -qx "conv.md: markdown, 1 conversation, 3 messages" out &&
	convctl -s a.json show --format json >a1.json &&
	convctl -s b.json show --format json >b1.json &&
	roles_contents a1.json >want && roles_contents b1.json >got &&
	test_cmp want got &&
	test "$(jq -r .id b1.json)" = "$(jq -r .id a1.json)" &&
	test "$(jq -r .title b1.json)" = null &&
	test "$(jq -r .endedAt b1.json)" = null
'

test_expect 'title, summary and end kept; detected by content on standard input' '
	convctl -s a.json end --no-summary >/dev/null &&
	id=$(jq -r ".conversations[0].id" a.json) &&
	jq ".conversations[0].title = \"Kiln notes\" | .conversations[0].summary = \"Fired to cone 6.\"" a.json >a2.json &&
	convctl -s a2.json show --format markdown "$id" | convctl -s c.json migrate - >out &&
	grep -qx -- "-: markdown, 1 conversation, 3 messages" out &&
	convctl -s c.json show --format json "$id" >c1.json &&
	test "$(jq -r .title c1.json)" = "Kiln notes" &&
	test "$(jq -r .summary c1.json)" = "Fired to cone 6." &&
	test "$(jq -r .endedAt c1.json)" = "$(jq -r ".conversations[0].endedAt" a2.json)" &&
	roles_contents a1.json >want && roles_contents c1.json >got &&
	test_cmp want got
'

test_expect 'a header that no longer matches its messages: an error, nothing imported' '
	sed "s/^- \*\*Messages:\*\* 3/- **Messages:** 5/" conv.md >bad.md &&
	fails_with 1 convctl -s d.json migrate bad.md &&
	stderr_has "'\''bad.md'\'': the header says 5 messages, 3 found" &&
	test ! -e d.json
'

test_expect 'a .md file that is not convctl'\''s: an error saying what it expects' '
	printf "# Notes\n\nJust notes.\n" >notes.md &&
	fails_with 1 convctl -s e.json migrate notes.md &&
	stderr_has "'\''notes.md'\'': line 1: expected '\''# TITLE'\'' and a '\''- **Id:** '\'' line"
'

test_done
