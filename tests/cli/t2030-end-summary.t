#!/bin/sh
# end: the end is written first, then the conversation is summarized
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
. "$top/tests/llm-stub.sh"

KEY=sk-convctl-test-CANARY-7f3a9c0d
export CONVCTL_API_BASE="$STUB/v1" CONVCTL_API_KEY="$KEY" CONVCTL_MODEL=test-model

OK='[{"reply": "TITLE: Adding milk to the grocery list\nSUMMARY: The user asked to add milk. It was added."}]'
E401='[{"status": 401, "body": {"error": {"message": "Incorrect API key provided"}}}]'
HELD="[{\"wait_for\": \"$T/release\", \"reply\": \"TITLE: Adding milk to the grocery list\nSUMMARY: Milk was added.\"}]"

# an active conversation of two messages
seed() {
	convctl add --at 2026-02-04T17:26:40Z "Add milk to my groceries list" >/dev/null &&
	convctl add --role assistant --tool edit_file --at 2026-02-04T17:26:41.250Z \
	    "Added milk to Lists/Groceries.md." >/dev/null
}

test_expect 'end summarizes the conversation it ends' '
	use_store ok && seed && stub_script "$OK" &&
	CONVCTL_NOW=2026-02-04T17:30:00Z convctl end >out 2>err &&
	read -r id <out && lines_are 1 out && test ! -s err &&
	stub_count 1 &&
	jq_is "$STUB_LOG" -r .path /v1/chat/completions \
	    -r ".body.messages[1].content | contains(\"User: Add milk to my groceries list\")" true &&
	conv_is "$id" endedAt 2026-02-04T17:30:00.000Z \
	    title "Adding milk to the grocery list" \
	    summary "The user asked to add milk. It was added."
'

test_expect 'a failed summary never undoes the end: exit 3, summary null' '
	use_store fail && seed && stub_script "$E401" &&
	CONVCTL_NOW=2026-02-04T17:30:00Z fails_with 3 convctl end &&
	read -r id <"$T/stdout" &&
	conv_is "$id" endedAt 2026-02-04T17:30:00.000Z summary null title null &&
	stderr_has "convctl: end: cannot summarize '"'"'$id'"'"': HTTP 401 from '"'"'$STUB/v1/chat/completions'"'"': Incorrect API key provided" &&
	stderr_has "convctl: end: '"'"'$id'"'"' is ended; its summary is pending (convctl summarize --pending)" &&
	lacks "$KEY" "$T/err" "$T/stdout" &&
	stub_script "$OK" && convctl summarize --pending >out &&
	printf "%s\tAdding milk to the grocery list\n" "$id" >expect && same_file expect out &&
	conv_is "$id" summary "The user asked to add milk. It was added."
'

test_expect 'a server that is down: ended all the same, exit 3' '
	use_store down && seed &&
	port=$(python3 -c "import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])") &&
	CONVCTL_API_BASE=http://127.0.0.1:$port/v1 fails_with 3 convctl end &&
	read -r id <"$T/stdout" &&
	conv_is "$id" "endedAt != null" true summary null &&
	stderr_has "failed: " && stderr_has "its summary is pending"
'

test_expect 'end --no-summary sends nothing' '
	use_store nosum && seed && stub_script "$OK" &&
	convctl end --no-summary >out && read -r id <out && lines_are 1 out &&
	stub_count 0 &&
	conv_is "$id" "endedAt != null" true summary null
'

test_expect 'summarizer none: end sends nothing, exit 0' '
	use_store none && seed && stub_script "$OK" &&
	CONVCTL_SUMMARIZER=none convctl end >out && read -r id <out && lines_are 1 out &&
	stub_count 0 &&
	conv_is "$id" summary null &&
	seed && convctl end --summarizer none >out && read -r id <out && lines_are 1 out &&
	stub_count 0
'

test_expect 'with no key and no base URL, end uses the offline summarizer' '
	use_store offline && seed && stub_script "$OK" &&
	# (the case runs in a subshell of its own: the unset ends with it)
	unset CONVCTL_API_KEY CONVCTL_API_BASE && convctl end >out && read -r id <out &&
	lines_are 1 out &&
	stub_count 0 &&
	conv_is "$id" title "Add milk to my groceries list" \
	    "summary | startswith(\"User asked: \\\"Add milk to my groceries list\\\". Assistant answered:\")" true
'

test_expect 'a bad summary setting still ends; a bad flag ends nothing' '
	use_store bad && seed && stub_script "$OK" &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 2 convctl end --summarizer gpt && stderr_has "unknown summarizer '"'"'gpt'"'"'" &&
	fails_with 2 convctl end --api-base ftp://x && stderr_has "invalid --api-base '"'"'ftp://x'"'"'" &&
	store_kept "$CONVCTL_STORE" &&
	CONVCTL_TIMEOUT=soon fails_with 3 convctl end &&
	stderr_has "convctl: end: no summary: CONVCTL_TIMEOUT expects a number from 0.001 to 86400, not '"'"'soon'"'"'" &&
	read -r id <"$T/stdout" && conv_is "$id" "endedAt != null" true &&
	stub_count 0
'

test_expect 'end --verbose shows the request with the key redacted' '
	use_store verbose && seed && stub_script "$OK" &&
	convctl end --verbose >out 2>err &&
	holds "convctl: end: > POST $STUB/v1/chat/completions" err &&
	holds "convctl: end: > Authorization: Bearer [redacted]" err &&
	holds "convctl: end: < HTTP 200" err &&
	lacks "$KEY" err out
'

test_expect 'no lock is held while end summarizes: a writer goes on' '
	{ use_store race && seed && stub_script "$HELD" &&
	  rm -f "$T/release"; } || return 1
	{ convctl end >out 2>err; echo $? >status; } &
	wait_for_request &&
	convctl --wait 0 add --at 2026-02-04T18:00:00Z "the next conversation" >new &&
	read -r new <new && lines_are 1 new && : >"$T/release" && wait &&
	read -r st <status && test "$st" = 0 && read -r id <out &&
	test "$id" != "$new" &&
	conv_is "$id" title "Adding milk to the grocery list" &&
	conv_is "$new" "messages[0].content" "the next conversation" endedAt null
'

test_expect 'nothing active: nothing is sent' '
	use_store empty && stub_script "$OK" &&
	convctl end >out 2>err; stub_count 0 && holds "no active conversation" err
'

test_expect 'end --help lists its options' '
	convctl end --help >out &&
	for o in --no-summary --verbose --summarizer --model --api-base; do
		holds "$o" out || return 1
	done
'

test_expect 'add past the idle timeout ends the old one unsummarized, for --pending' '
	use_store idle && seed && stub_script "$OK" &&
	convctl add --at 2026-02-04T17:27:00Z "one more" >old && read -r old <old && lines_are 1 old &&
	convctl add --at 2026-02-04T19:00:00Z "much later" >new && read -r new <new && lines_are 1 new &&
	test "$old" != "$new" && stub_count 0 &&
	conv_is "$old" endedAt 2026-02-04T17:27:00.000Z summary null title null &&
	convctl summarize --pending >out &&
	printf "%s\tAdding milk to the grocery list\n" "$old" >want &&
	same_file want out && stub_count 1 &&
	conv_is "$new" endedAt null
'

test_expect 'convctl-add(1) says a network summarizer leaves an idle end for summarize --pending' '
	mandoc -Tascii -O width=1000 "$top/man/convctl-add.1" >page &&
	# a line of the page, its overstrikes (a character, a backspace) undone
	# by the shell as sed "s/.\x08//g" would, as grep finds it
	printf "\010\n" >bs && IFS= read -r bs <bs && found= &&
	while IFS= read -r l; do
		while :; do
			case $l in *"$bs"*) ;; *) break ;; esac
			pre=${l%%"$bs"*} && l=${pre%?}${l#*"$bs"}
		done
		case $l in
		*pending*"leaves it without a title or summary"*"convctl summarize --pending"*)
			found=1 && break ;;
		esac
	done <page &&
	test -n "$found"
'

test_done
