#!/bin/sh
# examples: every example of the man pages' EXAMPLES sections and of the
# README runs, each on a fresh copy of a small store, with convctl first in
# PATH; network examples reach the stub LLM server (tests/llm-stub.py), not
# the Internet, and PostgreSQL ones a throwaway cluster (tests/pg.sh), not
# db.example.org; they are skipped, saying why, where there is no server.
# tests/helpers/examples.py extracts them and says what is done to run them.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "t0090-examples.t runs PostgreSQL examples on a cluster of its own"
. "$top/tests/llm-stub.sh"
. "$top/tests/pg.sh"

# What is not run, each a line prefix; kept small, and each must still match
# an example (examples.py fails otherwise):
#   make         builds or installs this tree (and make check runs this file)
#   ollama pull  fetches a model; the summaries go to the stub instead
NOT_RUN_MAX=2
KEY=sk-examples-KEY-0c1d

# every directory of the setup by one mkdir: the seed's HOME and work
# directory, with the places of the sources the migrate examples name
seedhome=$T/seed/home
mkdir -p "$T/ex" "$T/exbin" "$T/seed/work" \
    "$seedhome/vault/.obsidian/plugins/smarthole" "$seedhome/.agent" \
    "$seedhome/Downloads/chatgpt-export" "$seedhome/.claude" "$seedhome/.codex" \
    "$seedhome/src" "$seedhome/.gemini/tmp/work/chats" ||
    { echo "Bail out! cannot make the seed's directories"; exit 1; }
# convctl and the LLM tools the examples pipe into or run, first in PATH:
# each reads what it is given and answers the same; llm's "logs --json"
# prints the llm fixture, as llm prints its SQLite log.
# Made executable by examples.py (below: no chmod)
f=$top/tests/fixtures/migrate
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${CONVCTL_WRAPPER:-}" "$CONVCTL_BIN" >"$T/exbin/convctl"
printf '#!/bin/sh\necho "Added milk to Lists/Groceries.md."\n' >"$T/exbin/some-llm-tool"
# (what a tool is given, and what llm prints, read by its shell, not cat:
# no process a call; the scripts written by printf, not cat and a
# here-document)
printf '%s\n' '#!/bin/sh
if [ "$1" = logs ]; then
	[ "$2" = --json ] || { echo "llm: logs: only --json here" >&2; exit 2; }' \
    "	while IFS= read -r l; do printf '%s\\n' \"\$l\"; done <\"$f/llm/logs.json\" && exit" 'fi
while IFS= read -r l; do :; done && echo "Milk, and eggs too."' >"$T/exbin/llm"
printf '%s\n' '#!/bin/sh
while IFS= read -r l; do :; done && echo "Add milk to the grocery list"' >"$T/exbin/mods"
printf '%s\n' '#!/bin/sh
[ "$1" = run ] && [ -n "$2" ] || { echo "ollama: usage: ollama run MODEL [PROMPT]" >&2; exit 1; }
while IFS= read -r l; do :; done && echo "Rayleigh scattering: blue light scatters most."' >"$T/exbin/ollama"
# claude mcp add NAME -- CMD...: Claude Code registers a server; here CMD
# must answer an MCP initialize as a server does (its answer kept in
# $T/claude.out and read by the shell, not grep)
printf '%s\n' '#!/bin/sh
[ "$1 $2" = "mcp add" ] || { echo "claude: only mcp add here" >&2; exit 2; }
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift' "\"\$@\" >\"$T/claude.out\" <<EOF" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude","version":"1"}}}
EOF
while IFS= read -r l; do
	case $l in *"\"protocolVersion\":\"2025-11-25\""*) exit 0 ;; esac' \
    "done <\"$T/claude.out\"" 'exit 1' >"$T/exbin/claude"

# the seed: a HOME with a store at its default place (an ended conversation
# of two questions, then an active one), and the sources the migrate
# examples name; no template: an example that uses one makes it first, as
# on a fresh machine. Made in this shell, not a subshell: HOME and the
# rest are lib.sh's again after it
export HOME="$seedhome" && unset XDG_DATA_HOME XDG_CONFIG_HOME CONVCTL_STORE &&
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl add "Add milk to my grocery list; the backup failed with E1234, password hunter2" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:26:41.250Z convctl add --role assistant --tool read_file --tool edit_file "Added milk to Lists/Groceries.md. The invoice is sent." >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:00Z convctl add "Add eggs too" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:02Z convctl add --role assistant --tool edit_file "Added eggs." >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:28:00Z convctl end >/dev/null &&
	CONVCTL_NOW=2026-02-04T18:00:00Z convctl add "What is on my list?" >/dev/null &&
	CONVCTL_NOW=2026-02-04T18:00:03Z convctl add --role assistant "Milk." >/dev/null ||
	{ echo "Bail out! cannot make the seed store"; exit 1; }
export HOME="$T/home" XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data" \
    CONVCTL_STORE="$T/store.json"
# a Gemini CLI home: its settings beside tmp/PROJECT/chats/ (a real session)
echo "{}" >"$seedhome/.gemini/settings.json"
# a work tree with a change not yet staged, for "git diff | convctl run -- mods"
w=$T/seed/work
git -C "$w" init -q && echo milk >"$w/list.txt" && git -C "$w" add list.txt &&
    echo eggs >>"$w/list.txt" || { echo "Bail out! cannot make the git work tree"; exit 1; }

stub_script '[{"reply": "TITLE: Milk on the grocery list\nSUMMARY: Milk was added to the list."}]'

# examples.py, one process: copies the seed's sources (not a cp each),
# makes the stand-ins executable and links the README's ./convctl, writes
# each example to $T/ex/NNN.sh (its first line names it, "# WHERE", its
# second says whether it uses PostgreSQL) and prints how many, then runs
# those that can run here (the PostgreSQL ones only with --pg), each under
# bash -e -o pipefail (dash has no pipefail) so that no command of it fails
# unseen, before the last or inside a pipeline, on a fresh copy of the
# seed, with convctl first in PATH, in a session of its own with no
# terminal, so that a prompt (createuser --pwprompt) reads standard input,
# 60 s at most: a process an example (not a cp, a subshell, timeout and
# setsid an example). Where this file's convctl is its server's (make
# check), each example's bash first sources tests/serve-client.sh
# (--source), given the server: the convctl the example types is then the
# server's too, no process a command, as a user's shell runs it otherwise
# (its exported variables the command's, its failure the example's under
# -e); what it runs by PATH (xargs convctl, the MCP client's convctl mcp,
# ./convctl) is the binary still. Each case below then reads what its
# example left
pg=
[ -n "$PG_SKIP" ] || pg=$PG_URI
set --
[ -z "$cv_serve" ] || set -- --source "$top/tests/serve-client.sh" \
    --set cv_serve="$cv_serve" --set CONVCTL_BIN="$CONVCTL_BIN" \
    --set CONVCTL_WRAPPER="$CONVCTL_WRAPPER"
n=$(python3 "$top/tests/helpers/examples.py" --out "$T/ex" --root "$top" \
    --stub "$STUB" ${pg:+--pg "$pg"} --skip make --skip "ollama pull" \
    --copy "$f/data.json" "$seedhome/vault/.obsidian/plugins/smarthole/data.json" \
    --copy "$f/sessions" "$seedhome/.agent/sessions" \
    --copy "$f/chatsidian" "$seedhome/chatsidian-export" \
    --copy "$f/smarthole-history.json" "$seedhome/old-history.json" \
    --copy "$f/smarthole-history.json" "$T/seed/work/history.json" \
    --copy "$f/messages.json" "$T/seed/work/chat.json" \
    --copy "$f/aiwhisperer.json" "$T/seed/work/state.json" \
    --copy "$f/chatgpt/conversations.json" "$seedhome/Downloads/chatgpt-export/" \
    --copy "$f/claude" "$seedhome/.claude/projects" \
    --copy "$f/codex" "$seedhome/.codex/sessions" \
    --copy "$f/claudeai" "$seedhome/Downloads/claude-export" \
    --copy "$f/aider/kiln" "$seedhome/src/kiln" \
    --copy "$f/real/gemini/interactive/session.jsonl" \
	"$seedhome/.gemini/tmp/work/chats/session-2026-11-27T05-25-51ae66fd.jsonl" \
    --copy "$seedhome/.local/share/convctl/store.json" "$T/seed/work/store.json" \
    --link "$T/exbin/convctl" "$T/seed/work/convctl" \
    --executable "$T/exbin/convctl" --executable "$T/exbin/some-llm-tool" \
    --executable "$T/exbin/llm" --executable "$T/exbin/mods" \
    --executable "$T/exbin/ollama" --executable "$T/exbin/claude" \
    --seed "$T/seed" --runs "$T" --bin "$T/exbin" --timeout 60 \
    --env OPENAI_API_KEY=$KEY --env CONVCTL_API_BASE="$STUB/v1" \
    --env question="Add milk to my grocery list" --env q="Add eggs too" "$@" \
    "$top"/man/*.1 "$top"/man/*.5 "$top/README.md") ||
    echo "# examples.py: exit status $?"
# (the last copy: the README's "convctl copy store.json ...", a file store
# in the work dir)
[ -n "$n" ] || { echo "Bail out! examples.py wrote no examples"; exit 1; }
set --

# the examples' lines that are not run, counted by the shell (not grep)
not_run=0
for ex in "$T"/ex/*.sh; do
	while IFS= read -r l; do
		case $l in "# not run: "*) not_run=$((not_run + 1)) ;; esac
	done <"$ex"
done

# example_ran FILE WHERE: FILE ran to exit 0 (examples.py, above), and
# no convctl in it (in a pipeline, say) met an option it does not know;
# what it printed is shown when it did not. Each example had a copy of its
# own ($T/run.NAME, left for $T's removal: no rm a case)
example_ran() {
	run=$T/run.${1##*/}
	status=
	[ ! -f "$run/status" ] || read -r status <"$run/status"
	[ "$status" = 0 ] && no_usage_error "$run/err" || {
		echo "# $2 exited ${status:-(not run: examples.py did not get to it)}:"
		cat "$1"
		echo "-- stdout:"; cat "$run/out"; echo "-- stderr:"; cat "$run/err"
		return 1
	}
}

# no_usage_error FILE: no line of FILE is convctl's usage, an unknown option
# or an option's value refused ("expects"), as grep would find them, read by
# the shell (grep past 500 lines)
no_usage_error() {
	nu_n=0
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in "usage: convctl"*|*"unknown option"*|*expects*) return 1 ;; esac
		nu_n=$((nu_n + 1))
		[ $nu_n -lt 500 ] || { ! grep -q "^usage: convctl\|unknown option\|expects" "$1"; return; }
	done <"$1"
}

test_expect "the examples are found ($n), and few are not run" '
	test "$n" -ge 40 &&
	test "$not_run" -le 12 &&
	test $NOT_RUN_MAX -eq 2
'

for ex in "$T"/ex/*.sh; do
	ex_1= ex_2=
	{ IFS= read -r ex_1; IFS= read -r ex_2; } <"$ex"
	case $ex_1 in "# "*) ex_1=${ex_1#"# "} ;; *) ex_1= ;; esac
	if [ "$ex_2" = "# uses PostgreSQL" ]; then
		test_pg "example at $ex_1" "example_ran '$ex' '$ex_1'"
	else
		test_expect "example at $ex_1" "example_ran '$ex' '$ex_1'"
	fi
done

# each request's headers (its log line before "body", as the stub's
# json.dumps orders and spaces them) hold the key; a request whose did not
# is shown without its body: read by the shell, not jq
test_expect 'every request to the API carried the key the example named' '
	test -s "$STUB_LOG" && au_bad= &&
	while IFS= read -r l; do
		l=${l%%"\"body\": "*}
		case $l in
		*"\"authorization\": \"Bearer $KEY\""*) ;;
		*) echo "no key: $l" && au_bad=1 ;;
		esac
	done <"$STUB_LOG" &&
	test -z "$au_bad"
'

# (the example's lines, from its first to the .Ed that ends it, cut out by
# the shell: no sed)
test_expect 'convctl(5)'\''s config file example is read as it is shown' '
	cf_in= cf_n=0 &&
	while IFS= read -r l; do
		case $l in
		"# ~/.config/convctl/config"*) cf_in=1 ;;
		.Ed*) [ -z "$cf_in" ] || break ;;
		esac
		[ -z "$cf_in" ] || { printf "%s\n" "$l" && cf_n=$((cf_n + 1)); }
	done <"$top/man/convctl.5" >config &&
	test "$cf_n" -ge 5 && chmod 600 config &&
	CONVCTL_CONFIG=$T/config convctl config >out 2>err &&
	test ! -s err &&
	has_line "idle_timeout       45  (config file)" out &&
	has_line "summarizer         openai  (config file)" out
'

test_done
