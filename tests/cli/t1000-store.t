#!/bin/sh
# the store: refusing what is corrupt, keeping what is unknown, locking,
# permissions, paths and settings
# check: pg sqlite valgrind (which engine a store name picks)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

S=$CONVCTL_STORE

# refused WHAT [TEXT]: a write and a read of $S both fail with exit 1,
# naming the store's file and WHAT (and the last, recent, TEXT), and the
# store is byte for byte unchanged; the five commands run in the test tool's
# one process (a table: test-tool commands), none of them may write
refused() {
	keep_store "$S" &&
	printf '1 add --at 2026-06-01T00:00:00Z hello\n\tconvctl: add: '\''%s'\''\n\t%s\n' "$S" "$1" >refused.table &&
	printf '1 end\n\t%s\n1 show\n\tconvctl: show: '\''%s'\''\n\t%s\n1 prompt\n\t%s\n1 recent\n\t%s\n' \
	    "$1" "$S" "$1" "$1" "$1" >>refused.table &&
	{ [ -z "${2:-}" ] || printf '\t%s\n' "$2" >>refused.table; } &&
	commands_table refused.table &&
	store_kept "$S"
}

# stat_is FORMAT WANT FILE...: stat -c FORMAT FILE... prints WANT (one stat,
# read by the shell)
stat_is() {
	st_format=$1 st_want=$2
	shift 2
	stat -c "$st_format" "$@" >"$T/.stat" && file_is "$st_want" "$T/.stat"
}
# names_are DIR WANT: DIR's names, dot files too, are WANT, each followed by
# a space (as ls -A DIR | tr "\n" " " gives them when DIR holds no dot
# file), listed by the shell's globs
names_are() {
	na_got=
	for na_f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ ! -e "$na_f" ] && [ ! -L "$na_f" ] || na_got="$na_got${na_f##*/} "
	done
	[ "$na_got" = "$2" ] || { echo "$1 holds '$na_got', want '$2'"; return 1; }
}

conv='{"id":"c1","startedAt":"2026-01-01T00:00:00Z","endedAt":null,"title":null,"summary":null,"messages":[{"id":"m1","timestamp":"2026-01-01T00:00:00Z","role":"user","content":"hi"}]}'

# conv_with OLD NEW [TEXT]: TEXT ($conv) with its first OLD made NEW, in
# $cw: the bad stores below are made by the shell, not a jq each
conv_with() {
	cw=${3-$conv}
	case $cw in *"$1"*) ;; *) echo "no '$1' in $cw"; return 1 ;; esac
	cw=${cw%%"$1"*}$2${cw#*"$1"}
}

test_file 'a truncated store is refused with its line and column' '
	printf "{\"version\": 1,\n\"conversations\": [%s" "$conv" >"$S" &&
	refused "'\''$S'\'':2:" "expected near end of file"
'

test_file 'invalid UTF-8 in the store is refused with its line and column' '
	printf "{\"conversations\": [\n{\"id\": \"c\377\"}]}" >"$S" &&
	refused "'\''$S'\'':2:" "unable to decode byte 0xff"
'

test_file 'conversations that is not an array is refused, naming the path' '
	printf "{\"conversations\": {}}" >"$S" &&
	refused "conversations: expected an array"
'

test_file 'a message without a role is refused, naming its JSON path' '
	conv_with "\"role\":\"user\"," "" &&
	printf "{\"conversations\":[%s]}" "$cw" >"$S" &&
	refused "conversations[0].messages[0]: missing '\''role'\''"
'

test_file 'a message with an unknown role is refused' '
	conv_with "\"role\":\"user\"" "\"role\":\"robot\"" &&
	printf "{\"conversations\":[%s]}" "$cw" >"$S" &&
	refused "conversations[0].messages[0].role: unknown role '\''robot'\'' (expected user, assistant, system or tool)"
'

test_file 'two active conversations are refused' '
	conv_with "\"id\":\"c1\"" "\"id\":\"c2\"" &&
	printf "{\"conversations\":[%s,%s]}" "$conv" "$cw" >"$S" &&
	refused "conversations[1]: two active conversations ('\''c1'\'' and '\''c2'\'')"
'

test_file 'two conversations with one id are refused' '
	conv_with "\"endedAt\":null" "\"endedAt\":\"2026-01-01T00:00:01Z\"" &&
	printf "{\"conversations\":[%s,%s]}" "$cw" "$conv" >"$S" &&
	refused "conversations[1].id: '\''c1'\'' is also the id of conversations[0]"
'

test_file 'of many conversations, the first to repeat an id is named with the one it repeats' '
	# 40 ended ones, c0 to c39, but the 17th is c3 and the 30th c4
	conv_with "\"endedAt\":null" "\"endedAt\":\"2026-01-01T00:00:01Z\"" &&
	ended=$cw all= i=0 &&
	while [ $i -lt 40 ]; do
		id=c$i && { [ $i != 17 ] || id=c3; } && { [ $i != 30 ] || id=c4; } &&
		conv_with "\"id\":\"c1\"" "\"id\":\"$id\"" "$ended" &&
		all=$all${all:+,}$cw && i=$((i + 1)) || return 1
	done &&
	printf "{\"conversations\":[%s]}" "$all" >"$S" &&
	refused "conversations[17].id: '\''c3'\'' is also the id of conversations[3]"
'

test_file 'a newer store version is refused' '
	printf "{\"version\": 2, \"conversations\": []}" >"$S" &&
	refused "store version 2 is newer than this convctl knows (1)"
'

test_file 'a bad time, a duplicated key and a non-object top are refused' '
	conv_with "\"startedAt\":\"2026-01-01T00:00:00Z\"" "\"startedAt\":\"yesterday\"" &&
	printf "{\"conversations\":[%s]}" "$cw" >"$S" &&
	refused "conversations[0].startedAt: not an ISO 8601 time" &&
	printf "{\"conversations\": [],\n \"conversations\": []}" >"$S" &&
	refused "duplicate object key" &&
	printf "[]" >"$S" &&
	refused "expected a JSON object at the top"
'

test_expect 'unknown fields at every level survive writes' '
	store_seed "$S" <<-\EOF &&
	{"version": 1, "top": {"deep": [1, 2.5, "ü", null, true]},
	 "conversations": [
	  {"id": "c0", "startedAt": "2026-01-01T00:00:00.000Z", "endedAt": "2026-01-01T00:01:00.000Z",
	   "title": "t", "summary": "s", "tags": ["a"], "messages": [
	   {"id": "m0", "timestamp": "2026-01-01T00:00:00.000Z", "role": "user", "content": "x", "source": "direct"}]},
	  {"id": "c1", "startedAt": "2026-01-02T00:00:00.000Z", "endedAt": null, "title": null,
	   "summary": null, "rating": 5, "messages": [
	   {"id": "m1", "timestamp": "2026-01-02T00:00:00.000Z", "role": "user", "content": "y",
	    "meta": {"lang": "漢字", "n": -3}}]}],
	 "lastMigrated": "2026-01-01T00:00:00.000Z", "after": "kept"}
	EOF
	store_json "$S" >orig.json &&
	convctl add --at 2026-01-02T00:10:00Z more >/dev/null &&
	convctl end --no-summary >/dev/null &&
	convctl add --at 2026-06-01T00:00:00Z new >/dev/null &&
	jq -S "{top, lastMigrated, after, c0: .conversations[0],
	    c1: (.conversations[1] | del(.endedAt) | .messages |= .[:1])}" orig.json >want &&
	# the store read once: the same fields, then c1 rating and how many
	store_jq "$S" -S "{top, lastMigrated, after, c0: .conversations[0],
	    c1: (.conversations[1] | del(.endedAt) | .messages |= .[:1])},
	    .conversations[1].rating, (.conversations | length)" >got &&
	printf "5\n3\n" >>want && test_cmp want got
'

test_expect 'a SmartHole conversationData object without version loads and is written back whole' '
	cat >orig.json <<-\EOF &&
	{"conversations":[
	 {"id":"conv-1738690000000","startedAt":"2025-02-04T17:26:40.000Z","endedAt":"2025-02-04T17:40:00.000Z",
	  "title":"Milk","summary":"User added milk.","messages":[
	  {"id":"msg-1","timestamp":"2025-02-04T17:26:40.000Z","role":"user","content":"Add milk"},
	  {"id":"msg-2","timestamp":"2025-02-04T17:26:41.250Z","role":"assistant","content":"Added milk to Lists/Groceries.md.","toolsUsed":["read_file","edit_file"]}]},
	 {"id":"conv-1738700000000","startedAt":"2025-02-04T20:13:20.000Z","endedAt":null,"title":null,"summary":null,
	  "messages":[{"id":"msg-3","timestamp":"2025-02-04T20:13:20.000Z","role":"user","content":"And eggs"}]}],
	 "lastMigrated":"2025-02-04T18:00:00.000Z"}
	EOF
	store_seed "$S" <orig.json &&
	convctl show >out && has_line "conversation conv-1738700000000" out &&
	convctl add --at 2025-02-04T20:14:00Z --role assistant "Added eggs." >id &&
	echo conv-1738700000000 >want && test_cmp want id &&
	jq -S . orig.json >want && echo 1 >>want &&
	store_jq "$S" -S "(del(.version) | .conversations[1].messages |= .[:-1]),
	    .version" >got &&
	test_cmp want got
'

test_file 'a store path that is a directory is refused' '
	mkdir dir.json &&
	fails_with 2 convctl -s dir.json show &&
	stderr_has "'\''dir.json'\'' is a directory, not a store file" &&
	fails_with 2 convctl -s dir.json add hi &&
	stderr_has "is a directory" &&
	test -d dir.json && names_are dir.json "" && test ! -e dir.json.lock
'

# as_other CMD...: runs CMD as a user that is not root, so permissions bite
id -u >"$T/.uid" && read -r my_uid <"$T/.uid"	# (one id, not one a call)
as_other() {
	if [ "$my_uid" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

test_file 'an unreadable store is refused and left alone' '
	chmod 711 "$T" && mkdir -m 777 u && echo "{}" >u/store.json &&
	chmod 000 u/store.json &&
	fails_with 1 as_other "$CONVCTL_BIN" -s "$T/u/store.json" show &&
	stderr_has "cannot open store '\''$T/u/store.json'\'': Permission denied" &&
	fails_with 1 as_other "$CONVCTL_BIN" -s "$T/u/store.json" add hi &&
	stderr_has "Permission denied" &&
	chmod 600 u/store.json && echo "{}" >want && cmp want u/store.json
'

test_file 'a directory that cannot be written is an error; the store stays' '
	mkdir ro && echo "{}" >ro/store.json && chmod 644 ro/store.json &&
	chmod 555 ro &&
	fails_with 1 as_other "$CONVCTL_BIN" -s "$T/ro/store.json" add hi &&
	stderr_has "cannot open lock '\''$T/ro/store.json.lock'\''" &&
	chmod 755 ro && : >ro/store.json.lock && chmod 666 ro/store.json.lock &&
	chmod 555 ro &&
	fails_with 1 as_other "$CONVCTL_BIN" -s "$T/ro/store.json" add hi &&
	stderr_has "cannot create a temporary file in '\''$T/ro'\''" &&
	echo "{}" >want && cmp want ro/store.json &&
	names_are ro "store.json store.json.lock " &&
	chmod 755 ro
'

# line_starts TEXT FILE: a line of FILE starts with TEXT (grep -q "^TEXT"),
# read by the shell
line_starts() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in "$1"*) return 0 ;; esac
	done <"$2"
	echo "no line of $2 starts with '$1'"
	return 1
}

# hold_lock: another process takes the store's lock and keeps it until
# release; util-linux flock(1) takes it the way convctl does
# (each hold's mark a name of its own: none to remove before it)
holds_made=0
hold_lock() {
	holds_made=$((holds_made + 1))
	held=$T/.held.$test_n.$holds_made	# (unique in a subshell case too)
	( exec 9>"$S.lock" && flock -x 9 && : >"$held" && exec sleep 120 ) &
	holder=$!
	n=0
	while [ ! -e "$held" ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
	test -e "$held"
}
release() { kill $holder; wait $holder 2>/dev/null; true; }

test_file 'a lock held longer than --wait is exit 75, try again; the store stays' '
	store_rm "$S" && convctl add --at 2026-01-01T00:00:00Z first >/dev/null &&
	keep_store "$S" &&
	hold_lock &&
	check() {
		fails_with 75 convctl --wait 0.3 add --at 2026-01-01T00:00:01Z second &&
		stderr_has "store '\''$S'\'' is locked by another convctl; gave up after 0.3 seconds (nothing was written; try again, or raise --wait)" &&
		CONVCTL_WAIT=0 fails_with 75 convctl end &&
		stderr_has "is locked by another convctl; gave up after 0 seconds (nothing was written; try again" &&
		store_kept "$S"
	}
	check; rc=$?; release; test $rc -eq 0 &&
	convctl --wait 5 add --at 2026-01-01T00:00:01Z second >/dev/null &&
	store_is "$S" -r ".conversations[0].messages | length" 2
'

test_file 'readers do not need the lock' '
	hold_lock &&
	convctl --wait 0 show >out; rc=$?; release;
	test $rc -eq 0 && line_starts "User: second" out
'

test_file 'a summary made while another writer holds the lock past --wait: exit 75, try again; the store stays' '
	store_rm "$S" && convctl add --at 2026-01-01T00:00:00Z first >/dev/null &&
	CONVCTL_NOW=2026-01-01T00:01:00Z convctl end --no-summary >/dev/null &&
	keep_store "$S" && store_jq "$S" -r ".conversations[0].id" >id.txt &&
	read -r id <id.txt &&
	hold_lock &&
	CONVCTL_WAIT=0 fails_with 75 convctl summarize --summarizer offline "$id"
	rc=$?; release; test $rc -eq 0 &&
	stderr_has "is locked by another convctl; gave up after 0 seconds (nothing was written; try again" &&
	stderr_has "summary of '\''$id'\'' not stored" &&
	store_kept "$S" &&
	convctl summarize --summarizer offline "$id" >/dev/null &&
	store_is "$S" -r ".conversations[0].title" First
'

test_expect 'writers running at once lose nothing' '
	store_rm "$S" &&
	i=0 && pids= &&
	while [ $i -lt 16 ]; do
		CONVCTL_NOW=2026-04-01T00:00:00Z convctl_exec --wait 60 add "writer $i" >/dev/null &
		pids="$pids $!"
		i=$((i + 1))
	done &&
	failed=0 &&
	for p in $pids; do wait $p || failed=$((failed + 1)); done &&
	test $failed -eq 0 &&
	store_is "$S" -r "(.conversations | length),
	    (.conversations[0].messages | length),
	    ([.conversations[0].messages[].content] | unique | length),
	    ([.conversations[0].messages[].id] | unique | length)" "1
16
16
16"
'

test_file 'a temporary file left by a killed writer is removed by the next' '
	echo torn >"$T/.store.json.convctl-tmp.Ab12Cd" &&
	echo keep >"$T/.store.json.notmine" &&
	CONVCTL_NOW=2026-04-01T00:00:01Z convctl add more >/dev/null &&
	test ! -e "$T/.store.json.convctl-tmp.Ab12Cd" &&
	test -e "$T/.store.json.notmine" &&
	store_is "$S" -r ".conversations[0].messages | length" 17
'

test_file 'a new store is created 0600 in directories made 0700' '
	umask 022 &&
	convctl -s "$T/new/a/b/store.json" add hi >/dev/null &&
	stat_is %a "700
700
700
600
600" new new/a new/a/b new/a/b/store.json new/a/b/store.json.lock &&
	names_are new/a/b "store.json store.json.lock "
'

test_file 'a rewrite keeps the mode the user gave the store' '
	chmod 640 new/a/b/store.json &&
	convctl -s "$T/new/a/b/store.json" add again >/dev/null &&
	stat_is %a 640 new/a/b/store.json
'

test_file 'a store that is a symbolic link is written through the link' '
	ln -s new/a/b/store.json link.json &&
	convctl -s link.json add third >/dev/null &&
	test -L link.json &&
	jq_is new/a/b/store.json -r ".conversations[0].messages | length" 3
'

test_file 'the store path: -s, then CONVCTL_STORE, then XDG_DATA_HOME, then HOME' '
	convctl -s flag.json add a >/dev/null && test -f flag.json &&
	CONVCTL_STORE=env.json convctl add a >/dev/null && test -f env.json &&
	CONVCTL_STORE=env.json convctl -s flag2.json add a >/dev/null && test -f flag2.json &&
	(unset CONVCTL_STORE; convctl add a >/dev/null) &&
	test -f "$XDG_DATA_HOME/convctl/store.json" &&
	(unset CONVCTL_STORE XDG_DATA_HOME; convctl add a >/dev/null) &&
	test -f "$HOME/.local/share/convctl/store.json"
'

test_file 'an empty store path is refused' '
	fails_with 1 convctl -s "" add hi &&
	stderr_has "convctl: add: the store path is empty" &&
	fails_with 1 convctl --store= show &&
	stderr_has "the store path is empty" &&
	test ! -e .lock
'

# idle_timeout: messages 15 minutes apart join when it is 30 or 20 and
# split when it is 10. two_messages N [OPTION...]: the two, the second
# added with the OPTIONs, make N conversations
two_messages() {
	tm_want=$1
	shift
	store_rm "$S" &&
	convctl add --at 2026-01-01T00:00:00Z one >/dev/null &&
	convctl "$@" add --at 2026-01-01T00:15:00Z two >/dev/null &&
	store_is "$S" -r ".conversations | length" "$tm_want"
}

test_expect 'idle_timeout: the default is 30 minutes' '
	two_messages 1
'

test_expect 'idle_timeout: the config file beats the default' '
	mkdir -p "$XDG_CONFIG_HOME/convctl" &&
	printf "# comment\n\nidle_timeout = 10\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	two_messages 2
'

test_expect 'idle_timeout: the environment beats the config file' '
	CONVCTL_IDLE_TIMEOUT=20 two_messages 1
'

test_expect 'idle_timeout: the flag beats the environment' '
	CONVCTL_IDLE_TIMEOUT=20 two_messages 2 --idle-timeout 10 &&
	two_messages 1 --idle-timeout 20
'

test_expect 'CONVCTL_CONFIG names another config file' '
	printf "idle_timeout = 20\n" >other.conf &&
	CONVCTL_CONFIG=$T/other.conf two_messages 1
'

test_expect 'a bad config file or setting is an error naming where it is' '
	store_rm "$S" && convctl add --at 2026-01-01T00:00:00Z x >/dev/null && keep_store "$S" &&
	printf "idle_timeout = 10\nidle timeout\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	fails_with 1 convctl add y &&
	stderr_has "$XDG_CONFIG_HOME/convctl/config:2: expected '\''key = value'\''" &&
	printf "idel_timeout = 10\nidle_timeout = soon\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	fails_with 1 convctl add y &&
	stderr_has "convctl: add: warning: $XDG_CONFIG_HOME/convctl/config:1: unknown setting '\''idel_timeout'\''" &&
	printf "idle_timeout = soon\n" >"$XDG_CONFIG_HOME/convctl/config" &&
	fails_with 1 convctl add y &&
	stderr_has "idle_timeout in '\''$XDG_CONFIG_HOME/convctl/config'\'' expects a whole number from 0 to 52560000, not '\''soon'\''" &&
	rm "$XDG_CONFIG_HOME/convctl/config" &&
	CONVCTL_IDLE_TIMEOUT=-5 fails_with 1 convctl add y &&
	stderr_has "CONVCTL_IDLE_TIMEOUT expects a whole number from 0 to 52560000, not '\''-5'\''" &&
	fails_with 2 convctl --idle-timeout x add y &&
	stderr_has "--idle-timeout expects a whole number from 0 to 52560000, not '\''x'\''" &&
	fails_with 2 convctl --wait forever add y &&
	store_kept "$S"
'

test_expect 'a parse error names the offending byte: 1-based line and byte column' '
	at() {	# at CONTENT WHERE: the store CONTENT is refused at WHERE
		printf "$1" >bad.json &&
		fails_with 1 convctl -s bad.json show &&
		stderr_has "convctl: show: '\''bad.json'\'':$2: " || { echo "for $1"; return 1; }
	}
	at "{\"version\":1,\n\n" 3:1 &&
	at "{\"version\":1,\"conversations\":[" 1:31 &&
	at "{\"version\":1,\n  \"conversations\":[{\"id\":\"\303\244\377\"}]}" 2:29 &&
	at "{\"version\":1,\"conversations\":[{\"id\":\"a\nb\"}]}" 1:39 &&
	at "{\"version\":1,\n\"conversations\":[]}x" 2:20 &&
	at "\n\n   {\"version\":1,\"conversations\":[],}" 3:36 &&
	at "{\"version\":1,\"conversations\":[{\"id\":\"a\tb\"}]}" 1:39
'

test_done
