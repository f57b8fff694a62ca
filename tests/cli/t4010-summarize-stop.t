#!/bin/sh
# summarize-stop: how a model's reply ended (cut, refused) and what the
# Anthropic settings take, against the stub LLM server
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
. "$top/tests/llm-stub.sh"

export CONVCTL_API_BASE="$STUB/v1" CONVCTL_API_KEY=sk-test CONVCTL_MODEL=test-model
GOOD='TITLE: Adding milk to the grocery list\nSUMMARY: Milk was added.'
CUT='TITLE: Adding milk to the grocery list\nSUMMARY: The assistant read and'

# seed: a conversation ended without a summary; its id in $id (read from
# a file, not by a subshell)
seed() {
	convctl add --at 2026-02-04T17:26:40Z "Add milk to my groceries list" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:00Z convctl end --no-summary >"$T/.id" &&
	read -r id <"$T/.id"
}
# field_is ID NAME WANT: the stored NAME of conversation ID is WANT, as jq
# -r prints it ("null" when null), read by one jq (store_is)
field_is() {
	store_is "$CONVCTL_STORE" -r ".conversations[] | select(.id == \"$1\") | .$2" "$3"
}
# reqs_are JQ: JQ is true of the requests the stub got, an array, read by
# one jq
reqs_are() {
	jq -ne "[inputs] | $1" "$STUB_LOG" >/dev/null || {
		echo "the requests: not $1"
		return 1
	}
}

test_expect 'openai: a reply cut at the limit is asked again with a larger one' '
	use_store len && seed &&
	stub_script "[{\"reply\": \"$CUT\", \"stop\": \"length\"}, {\"reply\": \"$GOOD\"}]" &&
	convctl summarize "$id" >out &&
	stub_count 2 &&
	reqs_are ".[0].body.max_tokens == null and .[1].body.max_tokens > 512" &&
	field_is "$id" summary "Milk was added."
'

test_expect 'openai: cut twice, the summary stays pending and says why' '
	use_store len2 && seed &&
	stub_script "[{\"reply\": \"$CUT\", \"stop\": \"length\"}]" &&
	snapshot "$CONVCTL_STORE" &&
	fails_with 1 convctl summarize "$id" &&
	stub_count 2 &&
	stderr_has "cut at the token limit (finish_reason '\''length'\''), and again when asked with max_tokens" &&
	unchanged "$CONVCTL_STORE" &&
	convctl summarize --pending --dry-run >pending && holds "$id" pending
'

test_expect 'end: a reply cut twice leaves the summary pending, exit 3' '
	use_store len3 &&
	convctl add --at 2026-02-04T17:26:40Z "Add milk" >/dev/null &&
	stub_script "[{\"reply\": \"$CUT\", \"stop\": \"length\"}]" &&
	CONVCTL_NOW=2026-02-04T17:27:00Z fails_with 3 convctl end &&
	stderr_has "cut at the token limit" &&
	store_is "$CONVCTL_STORE" -r ".conversations[0].summary" null \
	    -r ".conversations[0].endedAt != null" true
'

test_expect 'anthropic: max_tokens then a larger bound; cut twice is pending' '
	use_store mt && seed &&
	stub_script "[{\"reply\": \"$CUT\", \"stop\": \"max_tokens\"}, {\"reply\": \"$GOOD\"}]" &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-test CONVCTL_ANTHROPIC_BASE="$STUB/v1" convctl summarize "$id" >out &&
	stub_count 2 &&
	reqs_are ".[0].body.max_tokens < .[1].body.max_tokens" &&
	field_is "$id" summary "Milk was added." &&
	seed && stub_script "[{\"reply\": \"$CUT\", \"stop\": \"max_tokens\"}]" &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-test CONVCTL_ANTHROPIC_BASE="$STUB/v1" convctl summarize "$id" >out 2>"$T/err";
	test $? = 1 && stderr_has "(stop_reason '\''max_tokens'\'')" &&
	field_is "$id" summary null
'

test_expect 'refusals: Anthropic stop_reason refusal, OpenAI content_filter' '
	use_store refuse && seed &&
	stub_script "[{\"reply\": \"\", \"stop\": \"content_filter\"}]" &&
	fails_with 1 convctl summarize "$id" &&
	stderr_has "refused: its content filter withheld the reply (finish_reason '\''content_filter'\'')" &&
	stub_count 1 &&
	stub_script "[{\"reply\": \"I cannot help with that.\", \"stop\": \"refusal\"}]" &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-test CONVCTL_ANTHROPIC_BASE="$STUB/v1" convctl summarize "$id" 2>"$T/err";
	test $? = 1 && stderr_has "/v1/messages'\'' refused (stop_reason '\''refusal'\'')" &&
	lacks malformed "$T/err" && field_is "$id" summary null
'

test_expect 'anthropic_base with or without /v1, as the SDKs take it' '
	use_store base &&
	stub_script "[{\"reply\": \"$GOOD\"}]" &&
	for base in "$STUB" "$STUB/" "$STUB/v1" "$STUB/v1/"; do
		seed &&
		CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-test CONVCTL_ANTHROPIC_BASE="$base" convctl summarize "$id" >/dev/null ||
		    return 1
	done &&
	jq -r .path "$STUB_LOG" >paths &&
	printf "%s\n" /v1/messages /v1/messages /v1/messages /v1/messages >want &&
	same_file want paths
'

test_expect 'a 404 for an unknown model names the setting that chooses it' '
	use_store 404 && seed &&
	stub_script "[{\"status\": 404, \"body\": {\"type\": \"error\", \"error\": {\"type\": \"not_found_error\", \"message\": \"model: claude-3-5-haiku-latest\"}}}]" &&
	CONVCTL_SUMMARIZER=anthropic ANTHROPIC_API_KEY=sk-ant-test CONVCTL_ANTHROPIC_BASE="$STUB" CONVCTL_MODEL=claude-3-5-haiku-latest convctl summarize "$id" 2>"$T/err";
	test $? = 1 &&
	stderr_has "HTTP 404 from '\''$STUB/v1/messages'\'': model: claude-3-5-haiku-latest (the model '\''claude-3-5-haiku-latest'\'' was asked; the model setting chooses it: --model, CONVCTL_MODEL or model in the config file)" &&
	stub_script "[{\"status\": 404, \"body\": {\"error\": {\"message\": \"The model gpt-9 does not exist\", \"code\": \"model_not_found\"}}}]" &&
	CONVCTL_MODEL=gpt-9 fails_with 1 convctl summarize "$id" &&
	stderr_has "the model setting chooses it"
'

test_expect 'the default Anthropic model is a current one' '
	(unset CONVCTL_MODEL && ANTHROPIC_API_KEY=k CONVCTL_API_KEY= CONVCTL_API_BASE= \
	    convctl config --json) >config.json &&
	jq_is config.json -r .settings.model.value claude-haiku-4-5
'

test_done
