#!/bin/sh
# convctl mcp as the real agents use it (issue 44): Claude Code and Codex
# CLI, from npm at pinned versions, each run only inside a network
# namespace with nothing but loopback, against tests/helpers/fake-model-api.py
# on 127.0.0.1, which answers with calls of convctl's tools. The fake API's
# request log shows what the model was given: the tools offered, a search's
# answer as the JSON of `convctl search --json`, a context's as the markdown
# of `convctl prompt --format markdown`, a conversation read as a resource
# as `convctl show --format markdown`, a tool's error as convctl says it, an
# add stored, Claude Code's /mcp__convctl__resume giving the model the
# messages; with --read-only no tool that writes; a store that cannot be
# opened, no tool at all (and convctl's line in Claude Code's MCP log).
# check: all-only (installs two agents from npm, about 640 MB, once; root, network namespaces)
# The agents are installed once each, by npm, under the caller's cache
# directory (read before lib.sh gives the test a HOME of its own); a version
# bump is one line here
cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/convctl-tests
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t7020-mcp-agents.t is about the clients; t7000-mcp.t covers both engines"

CLAUDE_CODE=@anthropic-ai/claude-code@2.1.197
CODEX=@openai/codex@0.169.0

# agent_install PACKAGE@VERSION: the package under $cache/NAME-VERSION
# ($dir), else it fails and $skip says why not
skip=
agent_install() {
	dir=$cache/$(echo "${1#@*/}" | tr @ -)
	[ -d "$dir/node_modules" ] && return 0
	if mkdir -p "$cache" && tmp=$(mktemp -d "$cache/.agent.XXXXXX") &&
	    npm_config_cache="$cache/npm" timeout 600 npm install --no-save \
	    --no-audit --no-fund --no-package-lock --prefix "$tmp" "$1" \
	    >"$T/npm.log" 2>&1; then
		# a run beside this one may have installed it first
		mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
	else
		[ -z "${tmp:-}" ] || rm -rf "$tmp"
		skip="npm could not install $1 (offline?): $(grep -m 1 'npm error' "$T/npm.log" 2>/dev/null)"
		return 1
	fi
}

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
    ! command -v ip >/dev/null; then
	skip="needs root, unshare and ip (iproute2) for a network namespace"
elif ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	skip="node and npm are not installed (scripts/install-deps test)"
else
	# the binaries npm chose for this machine
	agent_install "$CLAUDE_CODE" &&
	claude=$(ls "$dir"/node_modules/@anthropic-ai/claude-code-linux-*/claude 2>/dev/null | head -n 1) &&
	agent_install "$CODEX" &&
	codex=$(ls "$dir"/node_modules/@openai/codex-linux-*/vendor/*/bin/codex 2>/dev/null | head -n 1) &&
	if [ ! -x "$claude" ] || [ ! -x "$codex" ]; then
		skip="npm installed no agent binary for this machine ($(uname -m))"
	fi
fi

# test_agent 'name' 'commands': a case that needs the agents
test_agent() {
	if [ -z "$skip" ]; then
		test_expect "$1" "$2"
	else
		test_n=$((test_n + 1))
		echo "ok $test_n # SKIP $1: $skip"
	fi
}

S=$CONVCTL_STORE
served=$S	# the store the clients' setups name
W=$T/agent
mkdir -p "$W/home/.codex" "$W/work"

# the model's calls, in order; one not offered (add under --read-only) is
# left out. A resource is read through the client's own tool (Claude
# Code's ReadMcpResourceTool, Codex's read_mcp_resource)
cat >"$W/calls.jsonl" <<'EOF'
{"name":"search","arguments":{"query":"milk"}}
{"name":"context","arguments":{"format":"markdown"}}
{"name":["ReadMcpResourceTool","read_mcp_resource"],"arguments":{"server":"convctl","uri":"convctl://conversation/conv-b"}}
{"name":"show","arguments":{"id":"conv-404"}}
{"name":"add","arguments":{"role":"user","text":"and oats"}}
EOF

# what runs inside the namespace: the fake API, then the agent, bounded
cat >"$W/inside.sh" <<'EOF'
ip link set lo up || exit 1
W=$1 top=$2
shift 2
python3 "$top/tests/helpers/fake-model-api.py" --port-file "$W/port" \
    --log "$W/requests.jsonl" --mcp-calls "$W/calls.jsonl" &
server=$!
i=0
while [ ! -s "$W/port" ]; do
	i=$((i + 1))
	[ $i -lt 400 ] || { kill $server; exit 1; }
	sleep 0.05
done
port=$(cat "$W/port")
sed -i "s|127.0.0.1:[0-9A-Z]*|127.0.0.1:$port|" "$W/home/.codex/config.toml"
export ANTHROPIC_BASE_URL=http://127.0.0.1:$port
cd "$W/work" || exit 1
rc=0
timeout -k 10 180 "$@" </dev/null || rc=$?
kill $server
wait $server
exit $rc
EOF

# agent PROGRAM ARGS...: PROGRAM in a namespace of its own with only
# loopback, its environment only what it needs (the store named by the
# client's setup, as the README says; Claude Code's wait for an MCP server
# to start, MCP_TIMEOUT, raised to 120 s: on a machine busy with disk
# writes it gave up on convctl mcp, offering the model no tool at all),
# its requests to the model in $W/requests.jsonl, its output in
# $W/agent.log
agent() {
	rm -f "$W/port" "$W/requests.jsonl"
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$W/home" \
	    CODEX_HOME="$W/home/.codex" FAKE_API_KEY=sk-fake-offline-0000 \
	    ANTHROPIC_API_KEY=sk-ant-fake-offline-0000 DISABLE_TELEMETRY=1 \
	    DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
	    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CONVCTL_STORE="$served" \
	    MCP_TIMEOUT=120000 \
	    unshare -n sh "$W/inside.sh" "$W" "$top" "$@" >"$W/agent.log" 2>&1 ||
	    { cat "$W/agent.log" >&2; return 1; }
}

# claude_setup [ARG]: Claude Code's --mcp-config, `convctl mcp ARG`
claude_setup() {
	cat >"$W/mcp.json" <<-EOF
	{"mcpServers": {"convctl": {"command": "$CONVCTL_BIN",
	 "args": ["mcp"${1:+, \"$1\"}], "env": {"CONVCTL_STORE": "$served"}}}}
	EOF
}

# codex_setup [ARG]: Codex's config.toml, `convctl mcp ARG`, the store
# passed in env_vars and tools approved as the README says
codex_setup() {
	cat >"$W/home/.codex/config.toml" <<-EOF
	model = "fake-model"
	model_provider = "fake"

	[model_providers.fake]
	name = "fake"
	base_url = "http://127.0.0.1:PORT/v1"
	env_key = "FAKE_API_KEY"
	wire_api = "responses"

	[mcp_servers.convctl]
	command = "$CONVCTL_BIN"
	args = ["mcp"${1:+, \"$1\"}]
	env_vars = ["CONVCTL_STORE"]
	default_tools_approval_mode = "approve"
	EOF
}

# given: from the fake API's log, the convctl tools the model was offered
# (tools.txt, a name a line, sorted) and each tool result it was given
# (result-N.txt, the text as the model read it)
given() {
	rm -f tools.txt result-*.txt texts.json &&
	python3 "$top/tests/helpers/fake-model-api.py" --given \
	    "$W/requests.jsonl" convctl
}

seed() {
	store_seed "$S" <<-'JSON'
	{"version": 1, "conversations": [
	 {"id": "conv-b", "startedAt": "2026-02-04T10:00:00.000Z", "endedAt": "2026-02-04T10:05:00.000Z",
	  "title": "Groceries", "summary": "Added milk.", "messages": [
	  {"id": "m-1", "timestamp": "2026-02-04T10:00:00.000Z", "role": "user", "content": "Add milk"},
	  {"id": "m-2", "timestamp": "2026-02-04T10:00:01.250Z", "role": "assistant", "content": "Added milk."}]},
	 {"id": "conv-c", "startedAt": "2026-02-05T09:00:00.000Z", "endedAt": null,
	  "title": null, "summary": null, "messages": [
	  {"id": "m-3", "timestamp": "2026-02-05T09:00:00.000Z", "role": "user", "content": "Milk for the trip?"},
	  {"id": "m-4", "timestamp": "2026-02-05T09:00:01.000Z", "role": "assistant", "content": "One litre."}]}
	]}
	JSON
	convctl search --json milk | jq -S . >want-search.json &&
	convctl prompt --format markdown >want-context.md &&
	convctl show conv-b --format markdown >want-resource.md
}

# reads_reached: the search's JSON, the context's markdown and the
# resource's as convctl prints them, and show's error as convctl says it
reads_reached() {
	jq -S .hits result-1.txt >got-search.json &&
	test_cmp want-search.json got-search.json &&
	test_cmp want-context.md result-2.txt &&
	jq -j ".contents[0].text" result-3.txt >got-resource.md &&
	test_cmp want-resource.md got-resource.md &&
	grep "^no conversation 'conv-404' in " result-4.txt >/dev/null
}

# what both agents must show with the tools that write: all eight offered,
# the reads, the message added stored once, in the conversation whose id
# the add answered
printf '%s\n' add context end recent search show tag title >want-tools.txt
all_reached() {
	given && test_cmp want-tools.txt tools.txt && reads_reached &&
	store_json "$S" | jq -e --slurpfile r result-5.txt '[.conversations[] |
	    select(.messages[].content == "and oats") | .id] == [$r[0].id]' \
	    >/dev/null
}

# under --read-only: the four that read, and the store as it was
printf '%s\n' context recent search show >want-read.txt
read_only_reached() {
	given && test_cmp want-read.txt tools.txt && reads_reached &&
	[ ! -e result-5.txt ] && unchanged "$S"
}

allowed=mcp__convctl__search,mcp__convctl__context,mcp__convctl__show
allowed=$allowed,mcp__convctl__add,ReadMcpResourceTool

test_agent "Claude Code ${CLAUDE_CODE##*@}: the tools offered, a search, a context, a resource and an error reach the model as convctl gives them, an add is stored" '
	seed && claude_setup &&
	agent "$claude" -p "What did I say about milk?" --strict-mcp-config \
	    --mcp-config "$W/mcp.json" --allowedTools "$allowed" &&
	all_reached
'

test_agent "Claude Code ${CLAUDE_CODE##*@}: with --read-only the four that read are offered and reach the model, none that writes" '
	seed && snapshot "$S" && claude_setup --read-only &&
	agent "$claude" -p "What did I say about milk?" --strict-mcp-config \
	    --mcp-config "$W/mcp.json" --allowedTools "$allowed" &&
	read_only_reached
'

test_agent "Codex ${CODEX##*@}: the tools offered, a search, a context, a resource and an error reach the model as convctl gives them, an add is stored" '
	seed && codex_setup &&
	agent "$codex" exec --skip-git-repo-check "What did I say about milk?" &&
	all_reached
'

test_agent "Codex ${CODEX##*@}: with --read-only the four that read are offered and reach the model, none that writes" '
	seed && snapshot "$S" && codex_setup --read-only &&
	agent "$codex" exec --skip-git-repo-check "What did I say about milk?" &&
	read_only_reached
'

# holds: texts.json holds the texts of want.json's array, one after another
holds='$w[0] as $w | ($w | length) as $n | $n > 0 and
    any(range(0; length - $n + 1) as $i | .[$i:$i + $n]; . == $w)'

test_agent "Claude Code ${CLAUDE_CODE##*@}: the prompt resume is the command /mcp__convctl__resume ID, which gives the model the conversation as messages" '
	seed && claude_setup &&
	convctl prompt conv-b --format openai | jq "[.[].content]" >want.json &&
	agent "$claude" -p "/mcp__convctl__resume conv-b" --strict-mcp-config \
	    --mcp-config "$W/mcp.json" --allowedTools "$allowed" &&
	given && jq -e --slurpfile w want.json "$holds" texts.json >/dev/null
'

# a store that cannot be opened (a directory) is said once as the server
# starts, and then by each call: what the model is given is convctl's
# error, as the server would answer it
bad_store() {
	served=$T/not-a-store && mkdir -p "$served" &&
	convctl mcp -s "$served" </dev/null 2>err &&
	echo "'$served' is a directory, not a store file" >want-err &&
	grep -qF "$(cat want-err)" err
}

# bad_reached: the eight tools offered, and the search and the context
# answered convctl's error, which reached the model
bad_reached() {
	given && test_cmp want-tools.txt tools.txt &&
	grep -qF "$(cat want-err)" result-1.txt &&
	grep -qF "$(cat want-err)" result-2.txt
}

test_agent "Claude Code ${CLAUDE_CODE##*@}: a store that cannot be opened reaches the model as convctl says it, in each call's answer" '
	bad_store && claude_setup &&
	agent "$claude" -p "What did I say about milk?" --strict-mcp-config \
	    --mcp-config "$W/mcp.json" --allowedTools "$allowed" &&
	bad_reached
'

test_agent "Codex ${CODEX##*@}: a store that cannot be opened reaches the model as convctl says it, in each call's answer" '
	bad_store && codex_setup &&
	agent "$codex" exec --skip-git-repo-check "What did I say about milk?" &&
	bad_reached
'

test_done
