#!/bin/sh
# convctl migrate: convctl's own JSON, detected first, nothing lost
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2026-06-01T12:00:00Z

# same_sorted A B: the two lines of JSON in FILE A (jq -S -c's) are the same
# JSON, keys sorted; else both are shown
same_sorted() {
	{ IFS= read -r ss_a && IFS= read -r ss_b; } <"$1" &&
	[ "$ss_a" = "$ss_b" ] || { echo "$1 differs:"; cat "$1"; return 1; }
}

test_expect 'show --format json imports back whole: summary, endedAt, every field' '
	convctl -s a.json add --at 2026-05-01T10:00:00Z "What is a cone 6 firing?" >/dev/null &&
	convctl -s a.json add --at 2026-05-01T10:00:05Z -r assistant --tool kiln_log "About 1222 °C." >/dev/null &&
	convctl -s a.json end >/dev/null 2>&1
	jq -r ".conversations[0].id, (.conversations[0].summary = \"Cone 6.\" | .conversations[0].title = \"Kilns\" | .conversations[0].project = {\"k\": 1} | tojson)" a.json >a2.all &&
	{ IFS= read -r id && IFS= read -r a2; } <a2.all &&
	printf "%s\n" "$a2" >a2.json &&
	convctl -s a2.json show --format json "$id" >one.json &&
	convctl -s b.json migrate one.json >out &&
	has_line "one.json: convctl, 1 conversation, 2 messages" out &&
	jq -n -S -c "(input | .conversations[0]), (input | ., [.summary, .endedAt != null])" \
	    b.json one.json >got &&
	same_sorted got &&
	has_line "[\"Cone 6.\",true]" got
'

test_expect 'a whole store (it has a version or imports) is convctl too' '
	jq ".version = 1" a2.json >whole.json &&
	convctl -s c.json migrate whole.json >out &&
	holds "whole.json: convctl, 1 conversation, 2 messages" out &&
	jq -S -c ".conversations" c.json whole.json >got &&
	same_sorted got
'

test_expect 'a conversation that does not fit the store: an error naming the field' '
	jq ".messages[0].role = \"robot\"" one.json >bad.json &&
	fails_with 1 convctl -s d.json migrate bad.json &&
	stderr_has "'\''bad.json'\'': " && stderr_has "role" &&
	test ! -e d.json
'

test_done
