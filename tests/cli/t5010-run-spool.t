#!/bin/sh
# convctl run keeps a long answer in an unnamed temporary file as it comes,
# not in memory: what is recorded is still the answer byte for byte, the
# store is what `add` of the same text writes, and nothing is left behind.
# check: pg sqlite valgrind (the spooled answer copied into the database)
. "$(dirname "$0")/../lib.sh"

export CONVCTL_NOW=2030-01-01T00:00:00.000Z CONVCTL_IDLE_TIMEOUT=52560000

# answer.py N FILE: N bytes or so of text every escape of JSON needs (quotes,
# backslashes, every control character, NUL too) and characters of 2, 3 and
# 4 bytes, ending in newlines chomp drops but for a "\r"
cat >"$T/answer.py" <<'EOP'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
piece = ('say "hi" \\ C:\\dir\\ caf\u00e9 \u65e5\u672c\u8a9e \U0001f642 '
         + ''.join(chr(c) for c in range(32)) + '\u2028 end\n').encode()
data = piece * (n // len(piece) + 1)
with open(path, 'wb') as f:
    f.write(data[:n - 200].rsplit(b'\n', 1)[0] + b'\ntail\r\r\n\n')
EOP

# slowly.py FILE: FILE on standard output in slices of 65521 bytes, a prime,
# so reads end inside characters; some slices end mid-character and wait, so
# the next read starts inside one for sure
cat >"$T/slowly.py" <<'EOP'
import os, sys, time
data = open(sys.argv[1], 'rb').read()
i, k = 0, 0
while i < len(data):
    j = min(i + 65521, len(data))
    os.write(1, data[i:j])
    i, k = j, k + 1
    if k % 8 == 0:
        while i < len(data) and data[i] < 0xc0:
            os.write(1, data[i:i + 1]); i += 1
        os.write(1, data[i:i + 1]); i += 1
        time.sleep(0.05)
EOP

# last_roles: the roles of the latest conversation's messages, one a line,
# from what message_is showed last ($T/shown)
last_roles() {
	jq -r '.messages[].role' "$T/shown"
}

# 1.5 MB in make check and on PostgreSQL (the spool is read the same
# whatever the engine), 3.5 at full counts (TEST_FULL=1): either is many
# reads, and more than the 1 MB the kill cases wait for
n=$(counts 1500000 3500000)
! is_pg "$CONVCTL_STORE" || n=1500000
python3 "$T/answer.py" "$n" "$T/big.txt"

test_expect 'a long answer with every escape, cut between reads: recorded byte for byte' '
	convctl run --prompt long -- python3 "$T/slowly.py" "$T/big.txt" >out &&
	cmp out "$T/big.txt" && message_is -1 "$T/big.txt" &&
	printf "user\nassistant\n" >want && last_roles >got && test_cmp want got
'

test_expect 'an answer of exactly max_message_bytes is recorded; one byte more is not' '
	python3 -c "import sys
d = open(sys.argv[1], \"rb\").read(299999).decode(\"utf-8\", \"ignore\").encode()
sys.stdout.buffer.write(d + b\"x\" * (300000 - len(d)))" "$T/big.txt" >fits &&
	test "$(wc -c <fits)" -eq 300000 &&
	CONVCTL_MAX_MESSAGE_BYTES=300000 convctl run --prompt at -- sh -c "cat fits" >out &&
	cmp out fits && message_is -1 fits &&
	cp fits over && printf y >>over &&
	CONVCTL_MAX_MESSAGE_BYTES=300000 fails_with 0 convctl run --prompt over -- sh -c "cat over" &&
	cmp "$T/stdout" over &&
	stderr_has "run: recorded the prompt, not its answer: 300001 bytes, larger than the limit of 300000 bytes (the max_message_bytes setting)" &&
	convctl show --format json | jq -r ".messages[-1] | .role + \": \" + .content" >got &&
	echo "user: over" >want && test_cmp want got
'

test_expect 'invalid UTF-8 at the very end: a character cut short, a bad last byte' '
	cp "$T/big.txt" cut && printf "\346\227" >>cut &&
	fails_with 0 convctl run --prompt cut -- sh -c "cat cut" && cmp "$T/stdout" cut &&
	stderr_has "not its answer: not valid UTF-8 at byte $(($(wc -c <cut) - 2)); all of it went to standard output" &&
	cp "$T/big.txt" bad && printf "\377" >>bad &&
	fails_with 0 convctl run --prompt bad -- sh -c "cat bad" && cmp "$T/stdout" bad &&
	stderr_has "not valid UTF-8 at byte $(($(wc -c <bad) - 1))" &&
	convctl show --format json | jq -r ".messages[-2:][] | .role + \": \" + .content" >got &&
	printf "user: cut\nuser: bad\n" >want && test_cmp want got
'

test_expect 'CMD killed mid-stream: the partial answer recorded only with --keep-partial' '
	head -c 1000000 "$T/big.txt" >part &&
	fails_with 137 convctl run --prompt killed -- sh -c "cat part; kill -9 \$\$" &&
	cmp "$T/stdout" part &&
	stderr_has "was killed by signal 9" &&
	stderr_has "recorded the prompt, not its partial answer" &&
	convctl show --format json | jq -r ".messages[-1] | .role + \": \" + .content" >got &&
	echo "user: killed" >want && test_cmp want got &&
	fails_with 137 convctl run --keep-partial --prompt kept -- sh -c "cat part; kill -9 \$\$" &&
	stderr_has "recorded the prompt and the partial answer" &&
	message_is -1 part
'

test_file 'the store is what add writes for the same exchange; its index trusted and right' '
	s=$T/spool.json a=$T/added.json &&
	convctl -s "$s" add "an earlier one" && convctl -s "$s" end &&
	convctl -s "$s" add --at 2029-12-31T00:00:00Z "active" &&
	cp "$s" "$a" &&
	convctl -s "$s" run --tool t1 --prompt "say it" -- sh -c "cat big.txt" >/dev/null &&
	convctl -s "$a" add "say it" &&
	convctl -s "$a" add -r assistant --tool t1 <"$T/big.txt" &&
	python3 -c "import re, sys
a, b = open(sys.argv[1], \"rb\").read(), open(sys.argv[2], \"rb\").read()
ids = iter(re.findall(rb\"m-[0-9]+-[0-9a-f]{8}\", b))
a = re.sub(rb\"m-[0-9]+-[0-9a-f]{8}\", lambda m: next(ids), a)
sys.exit(0 if a == b else \"the stores differ\")" "$s" "$a" &&
	ix=$HOME/.cache/convctl/index/$(realpath "$s" | tr -d "\n" | sha256sum | cut -c1-64) &&
	test -s "$ix" && before=$(stat -c %y "$ix") &&
	for r in "recent --json" "show --format json" "prompt --format jsonl"; do
		# shellcheck disable=SC2086
		convctl -s "$s" $r >with || return 1
		# shellcheck disable=SC2086
		CONVCTL_NO_INDEX=1 convctl -s "$s" $r >without || return 1
		test_cmp without with || return 1
	done &&
	test "$(stat -c %y "$ix")" = "$before"
'

test_expect 'convctl killed mid-stream: no file left beside the store nor in TMPDIR' '
	mkdir -p tmp d && export TMPDIR=$T/tmp &&
	if is_pg "$CONVCTL_STORE"; then s=$CONVCTL_STORE where=$T/tmp/
	else s=$T/d/store.json where=$T/d/; fi || return 1
	(exec $CONVCTL_WRAPPER "$CONVCTL_BIN" -s "$s" run --prompt stop -- sh -c "
	    cat part; echo \$\$ >cmd.pid; while [ ! -e never ]; do sleep 0.05; done
	" >out 2>err) &
	pid=$! && wait_until "[ -s cmd.pid ] && [ \$(wc -c <out) -ge 1000000 ]" &&
	spool_links $pid >links && cat links &&
	test -n "$(unnamed_in "$where" links)" &&
	spool_links "$(cat cmd.pid)" >cmdlinks && cat cmdlinks && test ! -s cmdlinks &&
	kill -9 $pid && { wait $pid; test $? -eq 137; } &&
	kill "$(cat cmd.pid)" && test -z "$(left_in tmp)" &&
	test -z "$(ls -A d)" && cmp out part
'

test_file 'no directory for the store yet: the spool goes to TMPDIR' '
	mkdir -p tmp2 && export TMPDIR=$T/tmp2 || return 1
	(exec $CONVCTL_WRAPPER "$CONVCTL_BIN" -s "$T/new/dir/s.json" run --prompt first -- sh -c "
	    cat part; echo \$\$ >cmd2.pid; while [ ! -e go2 ]; do sleep 0.05; done
	" >out2) &
	pid=$! && wait_until "[ -s cmd2.pid ] && [ \$(wc -c <out2) -ge 1000000 ]" &&
	spool_links $pid >links && cat links &&
	test -n "$(unnamed_in "$T/tmp2/" links)" &&
	touch go2 && wait $pid && test -z "$(ls -A tmp2)" &&
	CONVCTL_STORE=$T/new/dir/s.json message_is -1 part
'

test_done
