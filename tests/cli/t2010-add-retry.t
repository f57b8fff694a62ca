#!/bin/sh
# add --dedupe-key and --expect-conversation: safe to call from scripts that retry
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2026-02-04T10:00:00Z
first=conv-1770199200000

test_expect 'the same key twice adds the message once, and says where it is' '
	convctl add --dedupe-key job-1 "nightly report" >out1 &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T10:01:00Z convctl add --dedupe-key job-1 \
	    "nightly report" >out2 &&
	store_kept "$CONVCTL_STORE" &&
	file_is $first out1 && file_is $first out2 &&
	store_is "$CONVCTL_STORE" -r "[.conversations[].messages[]] | length" 1
'

test_expect 'the key is kept on the message as dedupeKey' '
	store_is "$CONVCTL_STORE" -r ".conversations[0].messages[0].dedupeKey" job-1
'

test_expect 'another key adds another message' '
	convctl add --dedupe-key job-2 "nightly report" >/dev/null &&
	store_is "$CONVCTL_STORE" -r "[.conversations[].messages[]] | length" 2
'

test_expect 'a retry after the idle timeout finds it in the active conversation' '
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T13:00:00Z convctl add --dedupe-key job-2 x >out &&
	file_is $first out && store_kept "$CONVCTL_STORE"
'

test_expect 'a retry after the conversation ended finds it in the last ended one' '
	CONVCTL_NOW=2026-02-04T10:05:00Z convctl end >/dev/null &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T10:06:00Z convctl add --dedupe-key job-1 x >out &&
	file_is $first out && store_kept "$CONVCTL_STORE"
'

test_expect '--expect-conversation with no active conversation: exit 4, nothing written' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 4 convctl add --expect-conversation $first late &&
	stderr_has "no active conversation" && store_kept "$CONVCTL_STORE"
'

test_expect '--expect-conversation naming the active one writes into it' '
	CONVCTL_NOW=2026-02-04T11:00:00Z convctl add start >out &&
	read -r second <out && lines_are 1 out && test "$second" = conv-1770202800000 &&
	CONVCTL_NOW=2026-02-04T11:01:00Z convctl add \
	    --expect-conversation "$second" more >out &&
	file_is "$second" out &&
	store_is "$CONVCTL_STORE" -r "[.conversations[] | select(.id == \"$second\") |
	    .messages[]] | length" 2
'

test_expect '--expect-conversation naming another: exit 4, nothing written' '
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T11:02:00Z fails_with 4 convctl add \
	    --expect-conversation $first oops &&
	stderr_has "the active conversation is '\''conv-1770202800000'\''" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'when the idle timeout would start a new one: exit 4, nothing ended' '
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T12:00:00Z fails_with 4 convctl add \
	    --expect-conversation conv-1770202800000 too-late &&
	stderr_has "idle longer than the idle timeout" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'a duplicate found in another conversation than expected: exit 4' '
	CONVCTL_NOW=2026-02-04T11:03:00Z convctl add --dedupe-key job-3 y >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:04:00Z convctl end >/dev/null &&
	CONVCTL_NOW=2026-02-04T11:05:00Z convctl add z >/dev/null &&
	keep_store "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T11:06:00Z fails_with 4 convctl add \
	    --dedupe-key job-3 --expect-conversation conv-1770203100000 y &&
	stderr_has "dedupe key '\''job-3'\'' is in conversation" &&
	store_kept "$CONVCTL_STORE"
'

test_expect 'an empty dedupe key is refused' '
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl add --dedupe-key "" x &&
	stderr_has "dedupe key" && store_kept "$CONVCTL_STORE"
'
test_done
