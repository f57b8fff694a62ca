#!/bin/sh
# Files convctl creates are private whatever the umask; the temporary file is
# made safely beside the store; a store that is a symlink is followed.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2026-06-01T00:00:00Z
# modes_are WANT PATH...: the PATHs' modes, one a line, are WANT (one stat
# for them all, read by the shell)
modes_are() {
	ma_want=$1
	shift
	stat -c %a "$@" >"$T/.modes" && file_is "$ma_want" "$T/.modes"
}

for m in 000 022 077; do
	test_file "umask $m: directories 0700, store and lock 0600" '
		umask '$m' &&
		S=$T/u'$m'/a/b/store.json &&
		convctl -s "$S" add hello >/dev/null &&
		modes_are "700
700
700
600
600" "$T/u'$m'" "$T/u'$m'/a" "$T/u'$m'/a/b" "$S" "$S.lock" &&
		convctl -s "$S" add again >/dev/null && modes_are 600 "$S"
	'
done

test_file 'a mode the user gave the store is kept across rewrites' '
	convctl add x >/dev/null && chmod 640 "$CONVCTL_STORE" &&
	convctl add y >/dev/null && modes_are 640 "$CONVCTL_STORE"
'

test_file 'a symlink planted at a temporary name is never followed' '
	echo secret >"$T/victim" &&
	# the eight links made by one process, not an ln each
	python3 -c "import os, sys
for s in sys.argv[2:]:
    for name in (\".store.json.\" + s, \".store.json.convctl-tmp.\" + s):
        os.symlink(sys.argv[1], os.path.join(os.path.dirname(sys.argv[1]), name))
" "$T/victim" AAAAAA aaaaaa 000000 XXXXXX &&
	convctl add "not into the victim" >/dev/null &&
	file_is secret "$T/victim" &&
	convctl show --format json >"$T/shown" &&
	jq_is "$T/shown" -r ".messages[-1].content" "not into the victim"
'

test_file 'a symlink planted at the lock path is refused, not followed' '
	rm -f "$CONVCTL_STORE.lock" && ln -s "$T/victim2" "$CONVCTL_STORE.lock" &&
	keep_store "$CONVCTL_STORE" &&
	fails_with 1 convctl add x && stderr_has "cannot open lock" &&
	test ! -e "$T/victim2" && store_kept "$CONVCTL_STORE" &&
	rm "$CONVCTL_STORE.lock"
'

# tmp_name TRACE: tn, the six characters of the temporary name TRACE's
# openat(..., O_EXCL) made (its names, a line each, if many); tn_mode 1 if
# a line naming it holds 0600. Read by the shell, not grep and cut
tmp_name() {
	tn= tn_mode=
	while IFS= read -r l; do
		case $l in
		*'.store.json.convctl-tmp.'[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]'"'*O_EXCL*) ;;
		*) continue ;;
		esac
		tn_l=${l#*.store.json.convctl-tmp.}
		case ${tn_l%%)*} in *O_EXCL*) ;; *) continue ;; esac	# [^)]*O_EXCL
		tn="$tn${tn:+
}${tn_l%"${tn_l#??????}"}"
	done <"$1"
	[ -n "$tn" ] || return 0
	while IFS= read -r l; do
		case $l in *".store.json.convctl-tmp.$tn\""*0600*) tn_mode=1 ;; esac
	done <"$1"
}
# (LeakSanitizer cannot run under ptrace: leak checks are off for these runs)
if command -v strace >/dev/null 2>&1 && [ -z "${CONVCTL_WRAPPER:-}" ]; then
	test_file 'the temporary file has a fresh unpredictable name, O_EXCL' '
		ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$T/trace" "$CONVCTL_BIN" add one >/dev/null &&
		ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o "$T/trace2" "$CONVCTL_BIN" add two >/dev/null &&
		tmp_name "$T/trace" && a=$tn && tmp_name "$T/trace2" && b=$tn &&
		test -n "$a" && test -n "$b" && test "$a" != "$b" &&
		test "$tn_mode" = 1 || { echo "names: $a and $b"; return 1; }
	'
else
	test_n=$((test_n + 1))
	echo "ok $test_n # SKIP temporary file name: strace is not installed"
fi

test_file 'a store that is a symlink: the target is replaced, the link kept' '
	mkdir -p "$T/real" && convctl -s "$T/real/target.json" add first >/dev/null &&
	ln -s real/target.json "$T/link.json" &&
	convctl -s "$T/link.json" add second >/dev/null &&
	test -L "$T/link.json" &&
	jq -e "[.conversations[0].messages[].content] == [\"first\", \"second\"]" \
	    "$T/real/target.json" >/dev/null &&
	for f in "$T"/.link.json.*; do
		[ ! -e "$f" ] && [ ! -L "$f" ] || { echo "left: $f"; return 1; }
	done
'

test_file 'a dangling store symlink: its target is created, the link kept' '
	ln -s made/later.json "$T/dangling.json" && mkdir "$T/made" &&
	convctl -s "$T/dangling.json" add hello >/dev/null &&
	test -L "$T/dangling.json" && test -f "$T/made/later.json" &&
	modes_are 600 "$T/made/later.json"
'

test_file 'a chain of symlinks is followed to the end' '
	ln -s link.json "$T/chain.json" &&
	convctl -s "$T/chain.json" add third >/dev/null &&
	test -L "$T/chain.json" && test -L "$T/link.json" &&
	jq -e ".conversations[0].messages | length == 3" "$T/real/target.json" >/dev/null
'

test_file 'a symlink loop is a clear error' '
	ln -s loop2.json "$T/loop1.json" && ln -s loop1.json "$T/loop2.json" &&
	fails_with 1 convctl -s "$T/loop1.json" add x &&
	test -L "$T/loop1.json" && test -L "$T/loop2.json"
'

# every command; summarize and migrate runs join this list as they land
KEY_RUNS='add x
add --at nonsense x
end
show
show --format json
show no-such-id
recent --json
prompt --format openai
prune --dry-run
prune --max nope
summarize
migrate /nonexistent'
test_expect 'the API key never shows in output or errors' '
	key=sk-FAKE-KEY-4f1c9a7e2b &&
	mkdir -p "$XDG_CONFIG_HOME/convctl" &&
	printf "api_key = %s\nidle_timeout = 30\n" "$key" >"$XDG_CONFIG_HOME/convctl/config" &&
	chmod 600 "$XDG_CONFIG_HOME/convctl/config" &&
	while read -r args; do
		CONVCTL_API_KEY=$key OPENAI_API_KEY=$key ANTHROPIC_API_KEY=$key \
		    convctl $args >"$T/o" 2>&1
		lacks "$key" "$T/o" || { echo "in: $args"; return 1; }
	done <<-EOF &&
	$KEY_RUNS
	EOF
	chmod 644 "$XDG_CONFIG_HOME/convctl/config" &&
	fails_with 1 convctl recent && stderr_has "holds an API key" &&
	lacks "$key" "$T/err" &&
	rm "$XDG_CONFIG_HOME/convctl/config"
'

# the summarizers against the stub LLM server and a refused connection: the
# key, from each place it may come from, never shows, not even in --verbose
# logs nor in a provider's error that quotes it back
. "$top/tests/llm-stub.sh"
REFUSED=http://127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')/v1
cp "$top/tests/fixtures/migrate/messages.json" "$T/source.json"
# replies: a good one, a 401 quoting the key (OpenAI and Anthropic shape),
# a non-JSON page with the key
KEY=sk-FAKE-KEY-4f1c9a7e2b
REPLIES="[{\"reply\": \"TITLE: Milk\\nSUMMARY: Milk was added.\"}]
[{\"status\": 401, \"body\": {\"error\": {\"message\": \"Incorrect API key provided: $KEY\"}}}]
[{\"status\": 401, \"body\": {\"type\": \"error\", \"error\": {\"type\": \"authentication_error\", \"message\": \"bad x-api-key $KEY\"}}}]
[{\"status\": 200, \"headers\": {\"Content-Type\": \"text/html\"}, \"body\": \"<p>$KEY</p>\"}]"
# its first line (the good reply) and its second (the 401 quoting the key)
REPLY1=${REPLIES%%"
"*}
REPLY2=${REPLIES#*"
"}
REPLY2=${REPLY2%%"
"*}
# canary_seed: the store canary_run starts from, one conversation ended and
# one active, made once and kept in $T/canary.json (on a file store, in
# $canary too, read by the shell: canary_run writes it back with printf, no
# cat a run; a database's copied from the file)
canary_seed() {
	store_rm "$CONVCTL_STORE" &&
	CONVCTL_NOW=2026-02-04T17:26:40Z convctl add "Add milk" >/dev/null &&
	CONVCTL_NOW=2026-02-04T17:27:00Z convctl end --no-summary >/dev/null &&
	CONVCTL_NOW=2026-02-04T18:26:40Z convctl add "Add eggs" >/dev/null &&
	if [ "$engine" = file ]; then
		canary=
		while IFS= read -r l; do canary="$canary$l
"; done <"$CONVCTL_STORE"
		canary="$canary$l"	# a last line without its newline
	else
		store_json >"$T/canary.json"
	fi
}
# canary_run ARGS...: that store afresh, then convctl ARGS with the key in
# every variable and the config; the key is in neither output
canary_run() {
	if [ "$engine" = file ]; then
		printf %s "$canary" >"$CONVCTL_STORE"
	else	# store_seed's copy, from the file kept (no cat a run)
		store_rm "$CONVCTL_STORE" &&
		convctl copy "$T/canary.json" "$CONVCTL_STORE" 2>"$T/e" ||
		    { cat "$T/e"; return 1; }
	fi &&
	CONVCTL_API_KEY=$KEY OPENAI_API_KEY=$KEY ANTHROPIC_API_KEY=$KEY \
	    CONVCTL_NOW=2026-02-04T18:30:00Z convctl "$@" >"$T/o" 2>"$T/e"
	case $? in 0|1|3) ;; *) echo "exit status $? for $*"; cat "$T/e"; return 1 ;; esac
	lacks "$KEY" "$T/o" "$T/e" || { echo "key shown by: $*"; return 1; }
}
test_expect 'the API key never shows from summarize, end, migrate --summarize (stub, refused, --verbose)' '
	mkdir -p "$XDG_CONFIG_HOME/convctl" &&
	printf "api_key = %s\n" "$KEY" >"$XDG_CONFIG_HOME/convctl/config" &&
	chmod 600 "$XDG_CONFIG_HOME/convctl/config" &&
	canary_seed &&
	for api in openai anthropic; do
		for base in "$STUB/v1" "$REFUSED"; do
			# a refused connection gets no reply: one pass is all
			replies=$REPLIES &&
			{ [ "$base" != "$REFUSED" ] || replies=$REPLY1; } &&
			while read -r reply; do
				stub_script "$reply" &&
				for v in "" --verbose; do
					canary_run summarize $v --summarizer $api --api-base "$base" &&
					canary_run end $v --summarizer $api --api-base "$base" &&
					canary_run migrate --summarize $v --summarizer $api \
					    --api-base "$base" "$T/source.json" || return 1
				done
			done <<-EOF || return 1
			$replies
			EOF
		done
	done &&
	# the runs did reach the stub, and the verbose log shows the request
	stub_script "$REPLY2" &&
	canary_run summarize --verbose --summarizer openai --api-base "$STUB/v1" &&
	test -s "$STUB_LOG" && holds "Incorrect API key provided" "$T/e" || { cat "$T/e"; return 1; }
	
	rm "$XDG_CONFIG_HOME/convctl/config"
'

test_expect 'a password in api_base never shows: config, a refused or failed request, --verbose, a bad URL' '
	pw=pw-FAKE-URL-9d2e &&
	canary_seed &&
	for base in "${STUB%%://*}://u:$pw@${STUB#*://}/v1" \
	    "${REFUSED%%://*}://u:$pw@${REFUSED#*://}"; do
		stub_script "$REPLY2" &&
		for v in "" --verbose; do
			canary_run summarize $v --summarizer openai --api-base "$base" &&
			lacks "$pw" "$T/o" "$T/e" && holds "u:***@127.0.0.1" "$T/e" ||
			    { cat "$T/e"; return 1; }
		done
	done &&
	CONVCTL_API_BASE="https://u:$pw@api.example/v1" convctl config >out &&
	CONVCTL_API_BASE="https://u:$pw@api.example/v1" convctl config --json >out.json &&
	lacks "$pw" out out.json &&
	api_base_shown=no &&
	while IFS= read -r l; do	# ^api_base  *https://u:***@... (no grep)
		case $l in "api_base "*) ;; *) continue ;; esac
		l=${l#api_base }
		while :; do case $l in " "*) l=${l# } ;; *) break ;; esac; done
		case $l in "https://u:***@api.example/v1  (environment CONVCTL_API_BASE)"*)
			api_base_shown=yes ;;
		esac
	done <out &&
	test $api_base_shown = yes &&
	jq -e ".settings.api_base.value == \"https://u:***@api.example/v1\"" out.json >/dev/null &&
	fails_with 1 convctl summarize --pending --summarizer openai --api-base "ftp://u:$pw@api.example/v1" &&
	stderr_has "invalid --api-base '\''ftp://u:***@api.example/v1'\''" && lacks "$pw" "$T/err"
'

test_done
