#!/bin/sh
# convctl migrate: what show --format markdown writes imports back
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2026-06-01T12:00:00Z

# same_in A B FILTER: FILTER gives the same (compact) JSON of the files A
# and B, read by one jq
same_in() {
	jq -c "$3" "$1" "$2" >same_in.out &&
	{ IFS= read -r si_a && IFS= read -r si_b; } <same_in.out &&
	[ "$si_a" = "$si_b" ] || { echo "$3: $1 and $2 differ:"; cat same_in.out; return 1; }
}
ROLES_CONTENTS="[.messages[] | [.role, .content, .toolsUsed, .timestamp]]"

test_expect 'a round trip: roles, contents (blank lines, a header-like line), tools, times' '
	convctl -s a.json add --at 2026-05-01T10:00:00Z "Two paragraphs:

### User · not a header
and a third." >/dev/null &&
	convctl -s a.json add --at 2026-05-01T10:00:01.250Z -r tool "[0, 12]" >/dev/null &&
	convctl -s a.json add --at 2026-05-01T10:00:02Z -r assistant --tool read_file --tool edit_file "Done.

*emphasis* at the end" >/dev/null &&
	convctl -s a.json show --format markdown >conv.md &&
	convctl -s b.json migrate conv.md >out &&
	has_line "conv.md: markdown, 1 conversation, 3 messages" out &&
	convctl -s a.json show --format json >a1.json &&
	convctl -s b.json show --format json >b1.json &&
	same_in a1.json b1.json "[$ROLES_CONTENTS, .id]" &&
	jq_is b1.json -r .title null -r .endedAt null
'

test_expect 'title, summary and end kept; detected by content on standard input' '
	convctl -s a.json end --no-summary >/dev/null &&
	jq -r ".conversations[0].id, .conversations[0].endedAt,
	    (.conversations[0].title = \"Kiln notes\" |
	    .conversations[0].summary = \"Fired to cone 6.\" | tojson)" a.json >a2.all &&
	{ IFS= read -r id && IFS= read -r ended && IFS= read -r a2; } <a2.all &&
	printf "%s\n" "$a2" >a2.json &&
	convctl -s a2.json show --format markdown "$id" >a2.md &&
	convctl -s c.json migrate - <a2.md >out &&
	has_line "-: markdown, 1 conversation, 3 messages" out &&
	convctl -s c.json show --format json "$id" >c1.json &&
	jq_is c1.json -r .title "Kiln notes" -r .summary "Fired to cone 6." \
	    -r .endedAt "$ended" &&
	same_in a1.json c1.json "$ROLES_CONTENTS"
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
