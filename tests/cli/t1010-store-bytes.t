#!/bin/sh
# The store is loaded by a scanner and unchanged conversations are written
# back as their bytes: what a user sees in the file must be what jansson's
# full parse and dump gave before.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)
file_store_only "the file store's bytes"

S=$CONVCTL_STORE
export CONVCTL_NOW=2026-02-04T18:00:00.000Z

# lines_of FIRST LAST FILE: lines FIRST to LAST of FILE (sed -n FIRST,LASTp),
# each ending in a newline, in $lines; read by the shell
lines_of() {
	lines= lo_n=0
	while IFS= read -r l; do
		lo_n=$((lo_n + 1))
		[ "$lo_n" -lt "$1" ] || [ "$lo_n" -gt "$2" ] || lines="$lines$l
"
	done <"$3"
}
# count_holding TEXT FILE N: N lines of FILE hold TEXT (grep -cF), counted
# by the shell
count_holding() {
	ch_n=0
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *"$1"*) ch_n=$((ch_n + 1)) ;; esac
	done <"$2"
	[ "$ch_n" -eq "$3" ] || { echo "$ch_n lines of $2 hold '$1', want $3"; return 1; }
}

test_expect 'conversations that do not change keep their exact line' '
	convctl add --at 2026-02-01T10:00:00Z "first: café 日本語 🙂 \"q\" \\ b" &&
	convctl end &&
	convctl add --at 2026-02-02T10:00:00Z "second" &&
	convctl end &&
	convctl add --at 2026-02-03T10:00:00Z "third" &&
	lines_of 4 5 "$S" && before=$lines &&
	convctl add --at 2026-02-03T10:01:00Z "more" &&
	lines_of 4 5 "$S" &&
	{ [ "$lines" = "$before" ] || { printf "before:\n%safter:\n%s" "$before" "$lines"; false; }; }
'

test_expect 'a pretty-printed store is written back one conversation a line' '
	while IFS= read -r l; do printf "%s\n" "$l"; done >"$S" <<-\EOF &&
	{
	  "conversations": [
	    {
	      "id": "conv-1",
	      "startedAt": "2026-02-04T17:26:40.000Z",
	      "endedAt": "2026-02-04T17:30:00.000Z",
	      "title": "caf\u00e9 \/ x",
	      "summary": null,
	      "messages": [],
	      "extra": {"n": [1, 2.5, -0]}
	    }
	  ],
	  "lastMigrated": null
	}
	EOF
	convctl add --at 2026-02-04T17:40:00Z "hi" &&
	lines_of 4 4 "$S" &&
	printf "%s\n" "    {\"id\":\"conv-1\",\"startedAt\":\"2026-02-04T17:26:40.000Z\",\"endedAt\":\"2026-02-04T17:30:00.000Z\",\"title\":\"café / x\",\"summary\":null,\"messages\":[],\"extra\":{\"n\":[1,2.5,-0]}}," >want &&
	printf %s "$lines" >line && same_file want line &&
	holds "\"lastMigrated\": null" "$S"
'

test_expect 'unknown fields survive a write, in their place' '
	printf "%s\n" "{\"version\":1,\"conversations\":[{\"id\":\"a\",\"startedAt\":\"2026-02-04T17:00:00.000Z\",\"endedAt\":\"2026-02-04T17:10:00.000Z\",\"title\":null,\"summary\":null,\"messages\":[{\"id\":\"m\",\"timestamp\":\"2026-02-04T17:00:00.000Z\",\"role\":\"user\",\"content\":\"x\",\"mine\":{\"k\":true}}],\"tag\":[\"t\"]}],\"zzz\":{\"a\":1}}" >"$S" &&
	convctl add --at 2026-02-04T17:20:00Z "new" &&
	holds "\"content\":\"x\",\"mine\":{\"k\":true}}],\"tag\":[\"t\"]}," "$S" &&
	holds "\"zzz\": {\"a\":1}" "$S"
'

# what jansson cannot hold: numbers past int64_t and the double, reals
# jansson would write as %.17g, \u0000 in keys; every level, touched or not
NUMS='[0.1,1e400,123456789012345678901234567890,-0,1.0,-5,2.5E-3,1E+2,-1e-400,9223372036854775808]'
numstore() {
	printf "%s\n" "{\"version\":1,\"n\u0000\":$NUMS,\"conversations\":[{\"id\":\"a\",\"startedAt\":\"2026-02-04T17:00:00.000Z\",\"endedAt\":\"2026-02-04T17:10:00.000Z\",\"title\":null,\"summary\":null,\"messages\":[{\"id\":\"m\",\"timestamp\":\"2026-02-04T17:00:00.000Z\",\"role\":\"user\",\"content\":\"\\u0000x\",\"n\":$NUMS,\"k\\u0000\":0.1}],\"n\":$NUMS},{\"id\":\"b\",\"startedAt\":\"2026-02-04T17:20:00.000Z\",\"endedAt\":null,\"title\":null,\"summary\":null,\"messages\":[{\"id\":\"m2\",\"timestamp\":\"2026-02-04T17:20:00.000Z\",\"role\":\"user\",\"content\":\"y\",\"n\":$NUMS}],\"n\":{\"x\":$NUMS}}],\"top\":{\"n\":$NUMS}}" >"$S"
}

test_expect 'numbers jansson cannot hold and \u0000 in keys are accepted' '
	numstore && convctl show a >/dev/null && convctl recent >/dev/null &&
	convctl show --format json a >out &&
	holds "\"n\":$NUMS,\"k\\u0000\":0.1}" out
'

test_expect 'every number keeps its text, the conversation touched or not' '
	numstore &&
	convctl add --at 2026-02-04T17:21:00Z "more" &&
	count_holding "$NUMS" "$S" 4 &&
	holds "\"n\\u0000\": $NUMS" "$S" &&
	holds "\"top\": {\"n\":$NUMS}" "$S" &&
	holds "\"k\\u0000\":0.1}],\"n\":$NUMS}," "$S" &&
	holds "\"content\":\"y\",\"n\":$NUMS},{" "$S" &&
	holds "\"n\":{\"x\":$NUMS}}" "$S" &&
	CONVCTL_NOW=2026-02-04T17:25:00.000Z convctl end --no-summary &&
	count_holding "$NUMS" "$S" 4 &&
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$S"
'

test_expect 'a number where convctl wants a string is still refused' '
	printf "%s\n" "{\"conversations\":[{\"id\":\"a\",\"startedAt\":\"2026-02-04T17:00:00.000Z\",\"title\":1e400,\"messages\":[]}],\"n\":1e400}" >"$S" &&
	keep_store "$S" &&
	fails_with 1 convctl add "x" &&
	stderr_has "conversations[0].title: expected a string or null" &&
	store_kept "$S" &&
	printf "{\"version\": 1e400}\n" >"$S" &&
	fails_with 1 convctl add "x" &&
	stderr_has "version: expected a whole number from 1"
'

test_expect 'broken JSON is refused with line and column, the store unchanged' '
	printf "{\"conversations\": [\n  {\"id\": \"a\",,}\n]}\n" >"$S" &&
	keep_store "$S" &&
	fails_with 1 convctl add "x" &&
	stderr_has "store.json'"'"':2:14: string or '"'"'}'"'"' expected" &&
	store_kept "$S"
'

test_expect 'a bad shape is refused with its JSON path, the store unchanged' '
	printf "{\"conversations\": [{\"id\": \"a\", \"startedAt\": \"2026-02-04\", \"messages\": [{\"role\": \"robot\", \"content\": \"\", \"timestamp\": \"2026-02-04\"}]}]}\n" >"$S" &&
	keep_store "$S" &&
	fails_with 1 convctl add "x" &&
	stderr_has "conversations[0].messages[0].role: unknown role '"'"'robot'"'"'" &&
	store_kept "$S"
'

test_expect 'a duplicate key is refused, as jansson refuses it' '
	printf "{\"conversations\": [], \"conversations\": []}\n" >"$S" &&
	keep_store "$S" &&
	fails_with 1 convctl add "x" &&
	stderr_has "duplicate object key" &&
	store_kept "$S"
'

test_expect 'readers see the same fields the scanner kept' '
	printf "%s\n" "{\"conversations\":[{\"id\":\"c\\u00e9\",\"startedAt\":\"2026-02-04T17:00:00.000Z\",\"endedAt\":\"2026-02-04T17:10:00.000Z\",\"title\":\"T\\\\u0021\",\"summary\":null,\"messages\":[{\"timestamp\":\"2026-02-04T17:05:00Z\",\"role\":\"user\",\"content\":\"x\"}]}]}" >"$S" &&
	convctl recent >out &&
	printf "cé\t2026-02-04T17:10:00.000Z\t1\tT\\\\u0021\n" >want &&
	same_file want out
'

test_done
