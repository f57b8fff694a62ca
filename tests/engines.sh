# tests/engines.sh - what the engine files (t8000-pg.t, t8100-sqlite.t) share: a
# scripted session of every command and a store of many odd conversations.
# Source it after lib.sh; fix is the migrate fixtures' directory.
fix=$top/tests/fixtures/migrate

# a store with unknown fields, number texts and escapes a copy must keep
cat >"$T/odd.json" <<'JSON'
{"version":1,"conversations":[{"id":"c1","startedAt":"2026-02-04T17:26:40.000Z","endedAt":"2026-02-04T17:30:00.000Z","title":"t","summary":null,"x":1.10,"big":123456789012345678901234567890,"messages":[{"id":"m1","timestamp":"2026-02-04T17:26:40.000Z","role":"user","content":"nul \u0000 and \"quotes\" and \\","extra":{"z":1e400,"a":[0.1,-0.0]}}]},{"id":"c2","startedAt":"2026-02-04T18:26:40.000Z","endedAt":null,"title":null,"summary":null,"messages":[{"id":"m2","timestamp":"2026-02-04T18:26:40.000Z","role":"assistant","content":"yo","toolsUsed":["a"],"z":{}}],"tags":["x"]}],"lastMigrated":"2026-02-04T18:00:00.000Z","custom":{"k":2.50}}
JSON

# each command of a scripted session, "== ARGS", what it printed (standard
# output, then standard error) and "== exit N", with the store's name and
# the random part of message ids made alike. The commands run in the test
# tool's one process (test-tool run) when $CONVCTL_BIN is the tree's
# convctl, else a process each, printing the same
session() {
	export CONVCTL_STORE=$1
	session_tool=
	if [ -x "$top/tests/tool/test-tool" ] && [ "$CONVCTL_BIN" -ef "$top/convctl" ]; then
		session_tool=1
	fi
	: >"$T/session.json"
	# step AT ARG...: convctl ARG... at the time AT: a request for the
	# tool (its words JSON strings: no quote nor backslash in them), or
	# run at once
	step() {
		at=$1
		shift
		if [ -z "$session_tool" ]; then
			echo "== $*"
			CONVCTL_NOW=$at convctl "$@" 2>"$T/step.err"
			set -- $?
			cat "$T/step.err"
			echo "== exit $1"
			return
		fi
		sep=
		printf '{"argv": ['
		for w; do
			case $w in
			*[\"\\]*) echo "session: a quote or backslash: $w" >&2; return 1 ;;
			esac
			printf '%s"%s"' "$sep" "$w"
			sep=", "
		done
		printf '], "env": {"CONVCTL_NOW": "%s"}}\n' "$at"
	} >>"$T/session.json"
	{
		step 2026-02-04T17:00:00Z recent
		step 2026-02-04T17:00:00Z show
		step 2026-02-04T17:00:00Z prompt --format openai
		step 2026-02-04T17:26:40Z add "Add milk"
		step 2026-02-04T17:26:41Z add -r assistant --tool read_file \
		    --tool edit_file "Added milk to Lists/Groceries.md."
		step 2026-02-04T17:27:00Z prompt
		step 2026-02-04T17:27:00Z prompt --format jsonl --last 1
		step 2026-02-04T17:27:00Z show --format markdown
		step 2026-02-04T17:27:00Z show --json
		step 2026-02-04T18:30:00Z add "and bread"
		step 2026-02-04T18:31:00Z add --dedupe-key k1 "once"
		step 2026-02-04T18:32:00Z add --dedupe-key k1 "once"
		step 2026-02-04T18:33:00Z add --expect-conversation \
		    conv-1770226000000 "not there"
		step 2026-02-04T18:33:00Z recent --json
		step 2026-02-04T18:40:00Z end
		step 2026-02-04T18:41:00Z end
		step 2026-02-04T18:41:00Z show conv-1770226000000
		step 2026-02-04T18:41:00Z show conv-none
		step 2026-02-04T18:41:00Z summarize --pending
		step 2026-02-04T18:41:00Z summarize --force --json conv-1770226000000
		step 2026-02-04T18:42:00Z search milk
		step 2026-02-04T18:42:00Z search -r assistant --json milk
		for h in 19 20 21 22; do
			step 2026-02-04T$h:00:00Z add "hour $h"
			step 2026-02-04T$h:10:00Z end
		done
		step 2026-02-04T23:00:00Z prune --max 4 --dry-run
		step 2026-02-04T23:00:00Z prune --max 4
		step 2026-02-04T23:00:00Z delete conv-1770235200000
		step 2026-02-04T23:00:00Z delete conv-none
		step 2026-02-04T23:00:00Z migrate "$fix/messages.json"
		step 2026-02-04T23:00:00Z migrate "$fix/messages.json"
		step 2026-02-04T23:00:30Z prompt --format jsonl conv-1770242400000
		step 2026-02-04T23:00:30Z title conv-1770242400000 "Groceries"
		step 2026-02-04T23:00:30Z tag conv-1770242400000 home food
		step 2026-02-04T23:00:30Z pin conv-1770242400000
		step 2026-02-04T23:00:30Z recent --json --tag food
		step 2026-02-04T23:00:30Z search --tag home --tool edit_file milk
		step 2026-02-04T23:00:40Z resume conv-1770242400000
		step 2026-02-04T23:00:41Z edit conv-1770242400000 -1 "Added milk."
		step 2026-02-04T23:00:42Z run --prompt "echo" -- echo
		step 2026-02-04T23:00:43Z show --json
		step 2026-02-04T23:00:44Z fork conv-1770242400000 --at 1
		step 2026-02-04T23:00:45Z end
		step 2026-02-04T23:00:46Z summarize --pending --json
		step 2026-02-04T23:00:50Z migrate "$fix/chatgpt"
		step 2026-02-04T23:01:00Z add --max-conversations 3 "a limit"
		step 2026-02-04T23:01:00Z recent -n 20 --json
		step 2026-02-04T23:02:00Z copy "$1" -
	} || return 1
	set -- "$1" "$T/session.json"
	if [ -n "$session_tool" ]; then
		# the directory made once, each file of it written afresh
		[ -d "$T/session" ] || mkdir "$T/session" || return 1
		test_tool run "$2" "$T/session" >/dev/null || return 1
		set -- "$1" "$T/session/transcript"
	fi
	sed -e "s|$1|STORE|g" -e 's/m-\([0-9]*\)-[0-9a-f]\{8\}/m-\1-X/g' "$2"
}

# bulk_store N PATH [N PATH]...: at each PATH, a store of N conversations
# (two messages each) whose texts hold what COPY's text format escapes
# (backslash, tab, newline, carriage return), \u0000, \N, non-ASCII and
# unknown fields; conversation N is active. One python for them all
bulk_store() {
	python3 - "$@" <<'PY'
import sys
for n, path in zip(sys.argv[1::2], sys.argv[2::2]):
    n = int(n)
    odd = 'tab\there\\N back\\slash \\\\t nl\nnl cr\r end \u0000 caf\u00e9 \u2603 \U0001F600 "q"'
    convs = []
    for i in range(1, n + 1):
        t = "2026-01-01T00:%02d:%02d.000Z" % (i // 60 % 60, i % 60)
        convs.append('{"id":"c\\t%d","startedAt":"%s","endedAt":%s,"title":%s,'
            '"summary":null,"messages":[{"id":"m\\\\%d","timestamp":"%s",'
            '"role":"user","content":%s,"n":1.50},{"timestamp":"%s",'
            '"role":"assistant","content":"%s","toolsUsed":["a\\tb"]}],"z":-0.0}'
            % (i, t, "null" if i == n else '"%s"' % t,
               '"t\\r\\n%d"' % i, i, t, __import__("json").dumps(odd * (i % 3 + 1), ensure_ascii=False),
               t, "x" * (i % 7) * 100))
    open(path, "w").write('{"version":1,"conversations":[%s],"k":"\\\\"}\n' % ",".join(convs))
PY
}
