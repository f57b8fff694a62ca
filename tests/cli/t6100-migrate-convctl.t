#!/bin/sh
# convctl migrate: convctl's own JSON, detected first, nothing lost
. "$(dirname "$0")/../lib.sh"

export CONVCTL_NOW=2026-06-01T12:00:00Z

test_expect 'show --format json imports back whole: summary, endedAt, every field' '
	convctl -s a.json add --at 2026-05-01T10:00:00Z "What is a cone 6 firing?" >/dev/null &&
	convctl -s a.json add --at 2026-05-01T10:00:05Z -r assistant --tool kiln_log "About 1222 °C." >/dev/null &&
	convctl -s a.json end >/dev/null 2>&1; id=$(jq -r ".conversations[0].id" a.json) &&
	jq ".conversations[0].summary = \"Cone 6.\" | .conversations[0].title = \"Kilns\" | .conversations[0].project = {\"k\": 1}" a.json >a2.json &&
	convctl -s a2.json show --format json "$id" >one.json &&
	convctl -s b.json migrate one.json >out &&
	grep -qx "one.json: convctl, 1 conversation, 2 messages" out &&
	jq -S ".conversations[0]" b.json >got && jq -S . one.json >want &&
	test_cmp want got &&
	test "$(jq -r .summary one.json)" = "Cone 6." &&
	test "$(jq -r .endedAt one.json)" != null
'

test_expect 'a whole store (it has a version or imports) is convctl too' '
	jq ".version = 1" a2.json >whole.json &&
	convctl -s c.json migrate whole.json >out &&
	grep -q "whole.json: convctl, 1 conversation, 2 messages" out &&
	jq -S ".conversations" c.json >got && jq -S ".conversations" whole.json >want &&
	test_cmp want got
'

test_expect 'a conversation that does not fit the store: an error naming the field' '
	jq ".messages[0].role = \"robot\"" one.json >bad.json &&
	fails_with 1 convctl -s d.json migrate bad.json &&
	stderr_has "'\''bad.json'\'': " && stderr_has "role" &&
	test ! -e d.json
'

test_done
