#!/bin/sh
# config: every effective setting and where it came from
. "$(dirname "$0")/../lib.sh"

mkdir -p "$XDG_CONFIG_HOME/convctl"
cfg=$XDG_CONFIG_HOME/convctl/config
printf '%s\n' 'idle_timeout = 45' 'max_conversations = 50' 'model = "llama3"' >"$cfg"

test_expect 'defaults, the config file, the environment and a flag, each named' '
	CONVCTL_MAX_CONVERSATIONS=70 convctl --wait 3 config >out &&
	grep -qx "# config file: $cfg" out &&
	grep -qx "idle_timeout       45  (config file)" out &&
	grep -qx "max_conversations  70  (environment CONVCTL_MAX_CONVERSATIONS)" out &&
	grep -qx "wait               3  (flag)" out &&
	grep -qx "retries            3  (default)" out &&
	grep -qx "store              $CONVCTL_STORE  (environment CONVCTL_STORE)" out
'

test_expect 'every setting is listed' '
	convctl config >out &&
	for k in store idle_timeout max_conversations wait summarizer api_base \
	    model api_key anthropic_api_key connect_timeout timeout retries \
	    ca_bundle context_chars max_input_bytes max_message_bytes; do
		grep -q "^$k " out || { echo "no $k"; exit 1; }
	done
'

test_expect 'API keys are masked, in text and JSON' '
	OPENAI_API_KEY=sk-proj-0123456789abcdefWXYZ ANTHROPIC_API_KEY=short \
	    convctl config >out &&
	OPENAI_API_KEY=sk-proj-0123456789abcdefWXYZ ANTHROPIC_API_KEY=short \
	    convctl config --json >out.json &&
	! grep -q 0123456789abcdef out out.json && ! grep -q short out out.json &&
	grep -qx "api_key            \*\*\*\*\*\*\*\*WXYZ  (environment OPENAI_API_KEY)" out &&
	grep -qx "anthropic_api_key  \*\*\*\*\*\*\*\*  (environment ANTHROPIC_API_KEY)" out
'

test_expect 'a key in the config file is masked too' '
	chmod 600 "$cfg" && echo "api_key = sk-file-secret-key-1234" >>"$cfg" &&
	convctl config >out && ! grep -q file-secret out &&
	grep -qx "api_key            \*\*\*\*\*\*\*\*1234  (config file)" out
'

test_expect '--json: value, source, env, secret, and from' '
	CONVCTL_IDLE_TIMEOUT=5 convctl config --json >out &&
	jq -e ".configFile == \"$cfg\" and .configFileExists and
	    .settings.idle_timeout == {value: \"5\", source: \"environment\",
	    env: \"CONVCTL_IDLE_TIMEOUT\", secret: false,
	    from: \"CONVCTL_IDLE_TIMEOUT\"} and
	    .settings.model.from == \"$cfg\" and
	    .settings.model.value == \"llama3\" and
	    .settings.ca_bundle.value == null and
	    .settings.api_key.secret and
	    (.settings | keys | length) >= 15" out >/dev/null
'

test_expect 'a missing config file is said to be missing' '
	CONVCTL_CONFIG=$T/none convctl config >out &&
	grep -qx "# config file: $T/none (not found)" out &&
	grep -qx "idle_timeout       30  (default)" out
'

test_expect 'a bad flag is named as it is typed, a bad key as it is spelt' '
	fails_with 1 convctl --idle-timeout abc add hi &&
	stderr_has "convctl: add: invalid --idle-timeout '"'"'abc'"'"': not a whole number" &&
	fails_with 1 convctl --max-conversations -1 prune &&
	stderr_has "invalid --max-conversations '"'"'-1'"'"': must be from 0 to" &&
	printf "idle_timeout = soon\n" >bad.conf &&
	CONVCTL_CONFIG=$T/bad.conf fails_with 1 convctl add hi &&
	stderr_has "invalid idle_timeout '"'"'soon'"'"' in '"'"'$T/bad.conf'"'"'" &&
	CONVCTL_MAX_CONVERSATIONS=x fails_with 1 convctl prune &&
	stderr_has "invalid CONVCTL_MAX_CONVERSATIONS '"'"'x'"'"'" &&
	test ! -e "$CONVCTL_STORE"
'

test_expect 'config takes no operand' '
	fails_with 2 convctl config extra && stderr_has "unexpected argument"
'
test_done
