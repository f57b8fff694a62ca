#!/bin/sh
# The two faces agree (issue 41): for every tool `convctl mcp` offers, its
# answer on a store is what the command answers on it, a write through a
# tool leaves a store as the command leaves it, and a bad input gets the
# same words from both. Tables of inputs, each run through `convctl mcp`
# (one a run of lines with the same environment) and the test tool's one
# process (tests/helpers/mcp-faces.py)
# check: pg sqlite (the writes compared go through each engine's write path)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE
export CONVCTL_WRAPPER	# mcp-faces.py runs convctl under it

# lines: the lines of standard input, printed (read by the shell: no cat)
lines() {
	while IFS= read -r l; do printf '%s\n' "$l"; done
}
# table FILE: FILE made the lines of standard input
table() {
	lines >"$1"
}

# items FORMAT N: $items is FORMAT (a %d: 1 to N) N times, joined by
# commas, as seq -f FORMAT -s , N prints it (by the shell: no seq, and no
# subshell to read it)
items() {
	i=1 items='' pre=${1%%%d*} post=${1#*%d}
	while [ $i -le "$2" ]; do
		items="$items${items:+,}$pre$i$post"
		i=$((i + 1))
	done
}

# rep TEXT N: $rep is TEXT N times, as printf "%Ns" "" | tr " " TEXT
# prints it for a character, made by the shell (doubling)
rep() {
	rep= rp_t=$1 rp_n=$2
	while [ "$rp_n" -gt 0 ]; do
		[ $((rp_n % 2)) -eq 0 ] || rep=$rep$rp_t
		rp_t=$rp_t$rp_t rp_n=$((rp_n / 2))
	done
}

# faces TABLE [OPTION...]: the table's inputs through both faces, compared
faces() {
	t=$1
	shift
	CONVCTL_BIN=$CONVCTL_BIN python3 "$top/tests/helpers/mcp-faces.py" "$t" "$T/ran-$t" "$@"
}

# seed.json: four conversations of every role, tags, tools, a title and a
# summary, one pinned; conv-full has the most tags a conversation may
# have. seed STORE makes STORE that
{
	lines <<-'JSON'
	{"version": 1, "conversations": [
	 {"id": "conv-b", "startedAt": "2026-02-04T10:00:00.000Z", "endedAt": "2026-02-04T10:05:00.000Z",
	  "title": "Groceries", "summary": "Added milk.", "tags": ["home", "list"], "messages": [
	  {"id": "m-1", "timestamp": "2026-02-04T10:00:00.000Z", "role": "user", "content": "Add milk"},
	  {"id": "m-2", "timestamp": "2026-02-04T10:00:01.250Z", "role": "assistant",
	   "content": "Added Milk.\nAnything else?", "toolsUsed": ["read_file", "edit_file"]},
	  {"id": "m-3", "timestamp": "2026-02-04T10:00:02.000Z", "role": "tool", "content": "milk: 1 l"}]},
	 {"id": "conv-a", "startedAt": "2026-02-04T11:00:00.000Z", "endedAt": "2026-02-04T11:30:00.000Z",
	  "title": null, "summary": null, "pinned": true, "messages": [
	  {"id": "m-4", "timestamp": "2026-02-04T11:00:00.000Z", "role": "user", "content": "later, milk too"}]},
	JSON
	printf ' {"id": "conv-full", "startedAt": "2026-02-04T12:00:00.000Z", "endedAt": "2026-02-04T12:01:00.000Z",\n'
	items '"t%d"' 100
	printf '  "title": "Full", "summary": null, "tags": [%s], "messages": [\n' "$items"
	printf '  {"id": "m-5", "timestamp": "2026-02-04T12:00:00.000Z", "role": "user", "content": "so many tags"}]},\n'
	lines <<-'JSON'
	 {"id": "conv-c", "startedAt": "2026-02-05T09:00:00.000Z", "endedAt": null,
	  "title": null, "summary": null, "messages": [
	  {"id": "m-6", "timestamp": "2026-02-05T09:00:00.000Z", "role": "system", "content": "Be brief."},
	  {"id": "m-7", "timestamp": "2026-02-05T09:00:01.000Z", "role": "user", "content": "Plan a trip to Lisbon, with a long answer please"},
	  {"id": "m-8", "timestamp": "2026-02-05T09:00:02.000Z", "role": "assistant", "content": "Three days: Alfama, Belem, Sintra. Milk tea.", "toolsUsed": ["web_search"]}]}
	]}
	JSON
} >seed.json
seed() { store_seed "$1" <seed.json; }
seed "$S"

# every tool that reads, with every argument it takes, and the command
# that answers the same; on a store of ended conversations only (show's
# default the one that ended last, context's none) and one not made yet
use_store ended && ended=$CONVCTL_STORE
CONVCTL_STORE=$S
printf '%s\n' '{"version": 1, "conversations": [' \
    '{"id": "conv-x", "startedAt": "2026-01-01T00:00:00.000Z", "endedAt": "2026-01-01T00:30:00.000Z", "title": null, "summary": null, "messages": [{"id": "m-x", "timestamp": "2026-01-01T00:00:00.000Z", "role": "user", "content": "x"}]},' \
    '{"id": "conv-y", "startedAt": "2026-01-02T00:00:00.000Z", "endedAt": "2026-01-02T00:30:00.000Z", "title": null, "summary": null, "messages": [{"id": "m-y", "timestamp": "2026-01-02T00:00:00.000Z", "role": "user", "content": "y"}]}]}' >ended-seed.json
store_seed "$ended" <ended-seed.json
table reads <<EOF
{"tool": "search", "args": {"query": "milk"}, "cli": ["search", "--json", "milk"], "check": "json hits"}
{"tool": "search", "args": {"query": "Milk", "case_sensitive": true}, "cli": ["search", "--json", "--case-sensitive", "Milk"], "check": "json hits"}
{"tool": "search", "args": {"query": "l[ai]", "regex": true, "role": "user", "since": "2026-02-04T10:30:00Z", "limit": 5}, "cli": ["search", "--json", "-E", "-r", "user", "--since", "2026-02-04T10:30:00Z", "-n", "5", "l[ai]"], "check": "json hits"}
{"tool": "search", "args": {"query": "milk", "until": "2026-02-04T11:00:00Z", "tag": "home"}, "cli": ["search", "--json", "--until", "2026-02-04T11:00:00Z", "--tag", "home", "milk"], "check": "json hits"}
{"tool": "search", "args": {"query": "a", "tool": "web_search", "limit": 1}, "cli": ["search", "--json", "--tool", "web_search", "-n", "1", "a"], "check": "json hits"}
{"tool": "search", "args": {"query": "milk", "limit": 0}, "cli": ["search", "--json", "-n", "0", "milk"], "check": "json hits"}
{"tool": "search", "args": {"query": "nowhere at all"}, "cli": ["search", "--json", "nowhere at all"], "check": "json hits"}
{"tool": "recent", "args": {}, "cli": ["recent", "--json"], "check": "json conversations"}
{"tool": "recent", "args": {"limit": 1, "tag": "home"}, "cli": ["recent", "--json", "-n", "1", "--tag", "home"], "check": "json conversations"}
{"tool": "recent", "args": {"tag": "nosuch"}, "cli": ["recent", "--json", "--tag", "nosuch"], "check": "json conversations"}
{"tool": "recent", "args": {"limit": 0}, "cli": ["recent", "--json", "-n", "0"], "check": "json conversations"}
{"tool": "show", "args": {}, "cli": ["show"], "check": "text"}
{"tool": "show", "args": {"id": "conv-b"}, "cli": ["show", "conv-b"], "check": "text"}
{"tool": "show", "args": {"id": "conv-b", "format": "markdown"}, "cli": ["show", "--format", "markdown", "conv-b"], "check": "text"}
{"tool": "show", "args": {"format": "json"}, "cli": ["show", "--json"], "check": "text"}
{"tool": "show", "args": {"id": "conv-full", "format": "text"}, "cli": ["show", "-f", "text", "conv-full"], "check": "text"}
{"tool": "context", "args": {}, "cli": ["prompt"], "check": "text"}
{"tool": "context", "args": {"format": "openai", "last": 1}, "cli": ["prompt", "--format", "openai", "--last", "1"], "check": "text"}
{"tool": "context", "args": {"id": "conv-b", "format": "jsonl"}, "cli": ["prompt", "--format", "jsonl", "conv-b"], "check": "text"}
{"tool": "context", "args": {"format": "markdown", "max_tokens": 40}, "cli": ["prompt", "--format", "markdown", "--max-tokens", "40"], "check": "text"}
{"tool": "context", "args": {"id": "conv-b", "max_tokens": 12}, "cli": ["prompt", "--max-tokens", "12", "conv-b"], "check": "text"}
{"tool": "context", "args": {"max_tokens": 36}, "cli": ["prompt", "--max-tokens", "36"], "check": "text", "subs": [["--max-tokens", "max_tokens"]]}
{"tool": "context", "args": {"id": "conv-a", "format": "text", "last": 0}, "cli": ["prompt", "--last", "0", "conv-a"], "check": "text"}
{"tool": "search", "args": {"query": "   ", "tag": "a\nb", "tool": ""}, "cli": ["search", "--json", "--tag", "a\nb", "--tool", "", "   "], "check": "json hits"}
{"tool": "search", "args": {"query": "milk", "since": "2026-02-04", "until": "2026-02-04T11:00:00.001+00:00"}, "cli": ["search", "--json", "--since", "2026-02-04", "--until", "2026-02-04T11:00:00.001+00:00", "milk"], "check": "json hits"}
{"tool": "recent", "args": {"tag": ""}, "cli": ["recent", "--json", "--tag", ""], "check": "json conversations"}
{"tool": "search", "args": {"query": "x"}, "cli": ["search", "--json", "x"], "check": "json hits", "env": {"CONVCTL_STORE": "none.json"}}
{"tool": "recent", "args": {}, "cli": ["recent", "--json"], "check": "json conversations", "env": {"CONVCTL_STORE": "none.json"}}
{"tool": "context", "args": {}, "cli": ["prompt"], "check": "text", "env": {"CONVCTL_STORE": "none.json"}}
{"tool": "context", "args": {"format": "openai"}, "cli": ["prompt", "--format", "openai"], "check": "text", "env": {"CONVCTL_STORE": "none.json"}}
{"tool": "show", "args": {}, "cli": ["show"], "check": "text", "env": {"CONVCTL_STORE": "$ended"}}
{"tool": "context", "args": {"format": "jsonl"}, "cli": ["prompt", "--format", "jsonl"], "check": "text", "env": {"CONVCTL_STORE": "$ended"}}
{"tool": "recent", "args": {}, "cli": ["recent", "--json"], "check": "json conversations", "env": {"CONVCTL_STORE": "$ended"}}
EOF

test_expect 'every tool that reads answers what its command answers, with every argument it takes' '
	snapshot "$S" && faces reads --cover read && unchanged "$S"
'

# the writes, on two copies of one store, with the same clocks: the first
# conversation ends at the second's add, past the idle timeout, and is
# summarized as add does it; the rolling limit removes the oldest; texts,
# tools, titles and tags with blanks, cases and repeats; the idle timeout
# 0; a summarizer that cannot be reached leaves end's and add's summaries
# pending
table writes <<'EOF'
{"tool": "add", "args": {"text": "Plan a trip"}, "cli": ["add", "Plan a trip"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "add", "args": {"text": "Lisbon it is", "role": "assistant", "tools": ["web_search", "maps"]}, "cli": ["add", "-r", "assistant", "--tool", "web_search", "--tool", "maps", "Lisbon it is"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "add", "args": {"text": "two lines\nand a tab\t"}, "cli": ["add", "-r", "user", "two lines\nand a tab\t"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "add", "args": {"text": "{\"weather\": \"sunny\"}", "role": "tool"}, "cli": ["add", "--role", "tool", "{\"weather\": \"sunny\"}"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "add", "args": {"text": "Be brief.", "role": "system", "tools": []}, "cli": ["add", "-r", "system", "Be brief."], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "title", "args": {"id": "conv-1772355600000", "title": "Trip"}, "cli": ["title", "conv-1772355600000", "Trip"], "check": "title", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "tag", "args": {"id": "conv-1772355600000", "tags": ["travel", "2026", "travel"]}, "cli": ["tag", "--json", "conv-1772355600000", "travel", "2026", "travel"], "check": "json tags", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "tag", "args": {"id": "conv-1772355600000", "tags": ["2026", "absent"], "remove": true}, "cli": ["tag", "--json", "--remove", "conv-1772355600000", "2026", "absent"], "check": "json tags", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "tag", "args": {"id": "conv-b", "tags": ["home"], "remove": false}, "cli": ["tag", "--json", "conv-b", "home"], "check": "json tags", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "title", "args": {"id": "conv-a", "title": "Milk, later"}, "cli": ["title", "conv-a", "Milk, later"], "check": "title", "env": {"CONVCTL_NOW": "2026-03-01T09:00:00Z"}}
{"tool": "add", "args": {"text": "Porto too?"}, "cli": ["add", "Porto too?"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T10:00:00Z"}}
{"tool": "tag", "args": {"id": "conv-1772359200000", "tags": ["travel"]}, "cli": ["tag", "--json", "conv-1772359200000", "travel"], "check": "json tags", "env": {"CONVCTL_NOW": "2026-03-01T10:00:00Z"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "end", "env": {"CONVCTL_NOW": "2026-03-01T10:05:00Z"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "end", "env": {"CONVCTL_NOW": "2026-03-01T10:06:00Z"}}
{"tool": "title", "args": {"id": "conv-1772359200000", "title": "Porto"}, "cli": ["title", "conv-1772359200000", "Porto"], "check": "title", "env": {"CONVCTL_NOW": "2026-03-01T10:06:00Z"}}
{"tool": "add", "args": {"text": "one more"}, "cli": ["add", "one more"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T11:00:00Z", "CONVCTL_MAX_CONVERSATIONS": "4"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "end", "env": {"CONVCTL_NOW": "2026-03-01T11:01:00Z", "CONVCTL_MAX_CONVERSATIONS": "4"}}
{"tool": "add", "args": {"text": "ends in a newline\n"}, "cli": ["add", "ends in a newline\n"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "add", "args": {"text": "crlf\r\n"}, "cli": ["add", "crlf\r\n"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "add", "args": {"text": "  spaced  "}, "cli": ["add", "  spaced  "], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "add", "args": {"text": "tools spaced", "tools": [" a ", "b"]}, "cli": ["add", "--tool", " a ", "--tool", "b", "tools spaced"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "add", "args": {"text": "tools twice", "tools": ["a", "a"]}, "cli": ["add", "--tool", "a", "--tool", "a", "tools twice"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "title", "args": {"id": "conv-1772366400000", "title": "  Spaced title "}, "cli": ["title", "conv-1772366400000", "  Spaced title "], "check": "title", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "tag", "args": {"id": "conv-1772366400000", "tags": [" x ", "Y", "y"]}, "cli": ["tag", "--json", "conv-1772366400000", " x ", "Y", "y"], "check": "json tags", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "tag", "args": {"id": "conv-1772366400000", "tags": ["\u00e9t\u00e9", "\u00c9T\u00c9", "   "]}, "cli": ["tag", "--json", "conv-1772366400000", "\u00e9t\u00e9", "\u00c9T\u00c9", "   "], "check": "json tags", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "title", "args": {"id": "conv-c", "title": "a\u2028b"}, "cli": ["title", "conv-c", "a\u2028b"], "check": "title", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "add", "args": {"text": "\u2028 \u00a0 \ufeff \ud83d\ude00", "tools": ["   "]}, "cli": ["add", "--tool", "   ", "\u2028 \u00a0 \ufeff \ud83d\ude00"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:00Z"}}
{"tool": "add", "args": {"text": "idle timeout 0"}, "cli": ["add", "idle timeout 0"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T12:00:01Z", "CONVCTL_IDLE_TIMEOUT": "0"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "end", "env": {"CONVCTL_NOW": "2026-03-01T12:05:00Z", "CONVCTL_SUMMARIZER": "openai", "CONVCTL_API_KEY": "k", "CONVCTL_API_BASE": "http://127.0.0.1:1/v1", "CONVCTL_RETRIES": "0"}}
{"tool": "add", "args": {"text": "after a pending one"}, "cli": ["add", "after a pending one"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T13:00:00Z"}}
{"tool": "add", "args": {"text": "its summary fails"}, "cli": ["add", "its summary fails"], "check": "id", "env": {"CONVCTL_NOW": "2026-03-01T14:00:00Z", "CONVCTL_IDLE_SUMMARY": "add", "CONVCTL_SUMMARIZER": "openai", "CONVCTL_API_KEY": "k", "CONVCTL_API_BASE": "http://127.0.0.1:1/v1", "CONVCTL_RETRIES": "0"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "end", "env": {"CONVCTL_NOW": "2026-03-01T14:05:00Z", "CONVCTL_SUMMARIZER": "none"}}
EOF

test_expect 'every tool that writes answers what its command does and leaves the store as it does' '
	use_store mcpwrites && W1=$CONVCTL_STORE &&
	use_store cliwrites && W2=$CONVCTL_STORE && CONVCTL_STORE=$S &&
	seed "$W1" && seed "$W2" &&
	faces writes --cover write --mcp-store "$W1" --cli-store "$W2" &&
	store_is "$W1" -r "[.conversations[] | .id] | join(\" \")" \
	    "conv-a conv-c conv-1772355600000 conv-1772359200000 conv-1772362800000 conv-1772366400000 conv-1772366401000 conv-1772370000000 conv-1772373600000" \
	    -r "[.conversations[] | select(.summary == null) | .id] | join(\" \")" \
	    "conv-1772366401000 conv-1772370000000 conv-1772373600000"
'

# bad inputs, each refused by both faces in the same words: the command's
# `convctl: CMD: MESSAGE` is MESSAGE from the tool, where the input is
# named as the tool's argument (subs) and a value given as JSON is shown
# as JSON
rep q 4097 && q=$rep && rep x 501 && long=$rep && rep t 101 && t=$rep
items '"t%d"' 101 && many=$items
items '"--tool", "t%d"' 101 && tools=$items
mkdir adir && echo '{"version": 1, "conversations": []}' >empty.json && echo x >notjson
table bad <<EOF
{"tool": "search", "args": {"query": ""}, "cli": ["search", ""], "check": "error", "subs": [["", "argument 'query': "]]}
{"tool": "search", "args": {"query": "$q"}, "cli": ["search", "$q"], "check": "error", "subs": [["", "argument 'query': "]]}
{"tool": "search", "args": {"query": "(", "regex": true}, "cli": ["search", "-E", "("], "check": "error", "subs": [["", "argument 'query': "]]}
{"tool": "search", "args": {"query": "x", "role": "robot"}, "cli": ["search", "-r", "robot", "x"], "check": "error", "subs": [["", "argument 'role': "]]}
{"tool": "search", "args": {"query": "x", "role": "User"}, "cli": ["search", "-r", "User", "x"], "check": "error", "subs": [["", "argument 'role': "]]}
{"tool": "search", "args": {"query": "x", "since": "yesterday"}, "cli": ["search", "--since", "yesterday", "x"], "check": "error", "subs": [["--since", "argument 'since'"], ["'yesterday'", "\"yesterday\""]]}
{"tool": "search", "args": {"query": "x", "since": "1969-12-31"}, "cli": ["search", "--since", "1969-12-31", "x"], "check": "error", "subs": [["--since", "argument 'since'"], ["'1969-12-31'", "\"1969-12-31\""]]}
{"tool": "search", "args": {"query": "x", "until": "2026-13-01"}, "cli": ["search", "--until", "2026-13-01", "x"], "check": "error", "subs": [["--until", "argument 'until'"], ["'2026-13-01'", "\"2026-13-01\""]]}
{"tool": "search", "args": {"query": "x", "limit": -1}, "cli": ["search", "-n", "-1", "x"], "check": "error", "subs": [["-n", "argument 'limit'"], ["'-1'", "-1"]]}
{"tool": "search", "args": {"query": "x", "limit": 100000001}, "cli": ["search", "-n", "100000001", "x"], "check": "error", "subs": [["-n", "argument 'limit'"], ["'100000001'", "100000001"]]}
{"tool": "recent", "args": {"limit": -1}, "cli": ["recent", "-n", "-1"], "check": "error", "subs": [["-n", "argument 'limit'"], ["'-1'", "-1"]]}
{"tool": "recent", "args": {"limit": 100000001}, "cli": ["recent", "-n", "100000001"], "check": "error", "subs": [["-n", "argument 'limit'"], ["'100000001'", "100000001"]]}
{"tool": "show", "args": {"id": "conv-404"}, "cli": ["show", "conv-404"], "check": "error"}
{"tool": "show", "args": {"format": "pdf"}, "cli": ["show", "--format", "pdf"], "check": "error", "subs": [["", "argument 'format': "]]}
{"tool": "show", "args": {"format": "openai"}, "cli": ["show", "--format", "openai"], "check": "error", "subs": [["", "argument 'format': "]]}
{"tool": "show", "args": {"id": "", "format": "JSON"}, "cli": ["show", "--format", "JSON", ""], "check": "error", "subs": [["", "argument 'format': "]]}
{"tool": "show", "args": {"id": ""}, "cli": ["show", ""], "check": "error"}
{"tool": "show", "args": {}, "cli": ["show"], "check": "error", "env": {"CONVCTL_STORE": "$T/empty.json"}}
{"tool": "show", "args": {}, "cli": ["show"], "check": "error", "env": {"CONVCTL_STORE": "none.json"}}
{"tool": "context", "args": {"id": "conv-404"}, "cli": ["prompt", "conv-404"], "check": "error"}
{"tool": "context", "args": {"format": "json"}, "cli": ["prompt", "--format", "json"], "check": "error", "subs": [["", "argument 'format': "]]}
{"tool": "context", "args": {"last": -1}, "cli": ["prompt", "--last", "-1"], "check": "error", "subs": [["--last", "argument 'last'"], ["'-1'", "-1"]]}
{"tool": "context", "args": {"last": 1099511627777}, "cli": ["prompt", "--last", "1099511627777"], "check": "error", "subs": [["--last", "argument 'last'"], ["'1099511627777'", "1099511627777"]]}
{"tool": "context", "args": {"max_tokens": -1}, "cli": ["prompt", "--max-tokens", "-1"], "check": "error", "subs": [["--max-tokens", "argument 'max_tokens'"], ["'-1'", "-1"]]}
{"tool": "context", "args": {"max_tokens": 5}, "cli": ["prompt", "--max-tokens", "5"], "check": "error", "subs": [["--max-tokens", "max_tokens"]]}
{"tool": "context", "args": {"max_tokens": 13}, "cli": ["prompt", "--max-tokens", "13"], "check": "error", "subs": [["--max-tokens", "max_tokens"]]}
{"tool": "add", "args": {"text": ""}, "cli": ["add", ""], "check": "error", "subs": [["", "argument 'text': "]]}
{"tool": "add", "args": {"text": "123456"}, "cli": ["add", "123456"], "check": "error", "env": {"CONVCTL_MAX_MESSAGE_BYTES": "5"}, "subs": [["TEXT", "argument 'text'"]]}
{"tool": "add", "args": {"text": "\u00e9\u00e9\u00e9"}, "cli": ["add", "\u00e9\u00e9\u00e9"], "check": "error", "env": {"CONVCTL_MAX_MESSAGE_BYTES": "5"}, "subs": [["TEXT", "argument 'text'"]]}
{"tool": "add", "args": {"text": "x", "role": "robot"}, "cli": ["add", "-r", "robot", "x"], "check": "error", "subs": [["", "argument 'role': "]]}
{"tool": "add", "args": {"text": "x", "tools": ["a\nb"]}, "cli": ["add", "--tool", "a\nb", "x"], "check": "error", "subs": [["", "argument 'tools': "]]}
{"tool": "add", "args": {"text": "x", "tools": [""]}, "cli": ["add", "--tool", "", "x"], "check": "error", "subs": [["", "argument 'tools': "]]}
{"tool": "add", "args": {"text": "x", "tools": ["a\u0085b"]}, "cli": ["add", "--tool", "a\u0085b", "x"], "check": "error", "subs": [["", "argument 'tools': "]]}
{"tool": "add", "args": {"text": "x", "tools": ["$t"]}, "cli": ["add", "--tool", "$t", "x"], "check": "error", "subs": [["", "argument 'tools': "]]}
{"tool": "add", "args": {"text": "x", "tools": ["", "a\nb"]}, "cli": ["add", "--tool", "", "--tool", "a\nb", "x"], "check": "error", "subs": [["", "argument 'tools': "]]}
{"tool": "add", "args": {"text": "x", "tools": [$many]}, "cli": ["add", $tools, "x"], "check": "error", "subs": [["", "argument 'tools': "], ["--tool names", "tool names"]]}
{"tool": "title", "args": {"id": "conv-404", "title": "x"}, "cli": ["title", "conv-404", "x"], "check": "error"}
{"tool": "title", "args": {"id": "conv-b", "title": ""}, "cli": ["title", "conv-b", ""], "check": "error", "subs": [["", "argument 'title': "]]}
{"tool": "title", "args": {"id": "conv-b", "title": "a\nb"}, "cli": ["title", "conv-b", "a\nb"], "check": "error", "subs": [["", "argument 'title': "]]}
{"tool": "title", "args": {"id": "conv-404", "title": "a\nb"}, "cli": ["title", "conv-404", "a\nb"], "check": "error", "subs": [["", "argument 'title': "]]}
{"tool": "title", "args": {"id": "conv-b", "title": "$long"}, "cli": ["title", "conv-b", "$long"], "check": "error", "subs": [["", "argument 'title': "]]}
{"tool": "tag", "args": {"id": "conv-404", "tags": ["x"]}, "cli": ["tag", "conv-404", "x"], "check": "error"}
{"tool": "tag", "args": {"id": "conv-404", "tags": ["a\nb"]}, "cli": ["tag", "conv-404", "a\nb"], "check": "error", "subs": [["", "argument 'tags': "]]}
{"tool": "tag", "args": {"id": "conv-b", "tags": ["$t"]}, "cli": ["tag", "conv-b", "$t"], "check": "error", "subs": [["", "argument 'tags': "]]}
{"tool": "tag", "args": {"id": "conv-b", "tags": [$many]}, "cli": ["tag", "conv-b", $many], "check": "error", "subs": [["", "argument 'tags': "]]}
{"tool": "tag", "args": {"id": "conv-full", "tags": ["one-more"]}, "cli": ["tag", "conv-full", "one-more"], "check": "error", "subs": [["", "argument 'tags': "]]}
{"tool": "tag", "args": {"id": "conv-b", "tags": ["x", ""]}, "cli": ["tag", "conv-b", "x", ""], "check": "error", "subs": [["", "argument 'tags': "]]}
{"tool": "search", "args": {"query": "x"}, "cli": ["search", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "recent", "args": {}, "cli": ["recent"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "show", "args": {}, "cli": ["show"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "context", "args": {}, "cli": ["prompt"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "add", "args": {"text": "x"}, "cli": ["add", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "title", "args": {"id": "conv-b", "title": "x"}, "cli": ["title", "conv-b", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "tag", "args": {"id": "conv-b", "tags": ["x"]}, "cli": ["tag", "conv-b", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/adir"}}
{"tool": "search", "args": {"query": "x"}, "cli": ["search", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "recent", "args": {}, "cli": ["recent"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "show", "args": {}, "cli": ["show"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "context", "args": {}, "cli": ["prompt"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "add", "args": {"text": "x"}, "cli": ["add", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "end", "args": {}, "cli": ["end"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "title", "args": {"id": "conv-b", "title": "x"}, "cli": ["title", "conv-b", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
{"tool": "tag", "args": {"id": "conv-b", "tags": ["x"]}, "cli": ["tag", "conv-b", "x"], "check": "error", "env": {"CONVCTL_STORE": "$T/notjson"}}
EOF

test_expect 'every bad input gets the same words from both faces, nothing written' '
	snapshot "$S" && faces bad --cover all && unchanged "$S"
'

# issue 40: a query's limit is in characters: 4096 of them are taken, in
# as many bytes or more
rep é 4096 && e=$rep
table limits <<EOF
{"tool": "search", "args": {"query": "${q#q}", "regex": true}, "cli": ["search", "--json", "-E", "${q#q}"], "check": "json hits"}
{"tool": "search", "args": {"query": "$e"}, "cli": ["search", "--json", "$e"], "check": "json hits"}
EOF

test_expect 'a query of 4096 characters is taken by both faces' '
	faces limits
'

test_done
