#!/bin/sh
# convctl run keeps a long answer in an unnamed temporary file as it comes,
# not in memory: what is recorded is still the answer byte for byte, the
# store is what `add` of the same text writes, and nothing is left behind.
# check: pg sqlite valgrind (the spooled answer copied into the database)
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2030-01-01T00:00:00.000Z CONVCTL_IDLE_TIMEOUT=52560000

# the answer: $n bytes or so of text every escape of JSON needs (quotes,
# backslashes, every control character, NUL too) and characters of 2, 3 and
# 4 bytes, ending in newlines chomp drops but for a "\r", in big.txt; and,
# made by the same python (not a cp, head or wc a file): cut (big.txt and a
# character cut short), bad (and a bad last byte), part (its first 1000000
# bytes), fits (300000 bytes: its text to a character, then x's) and over
# (fits and a y); big.txt's size in big.size
# 1.5 MB in make check and on PostgreSQL (the spool is read the same
# whatever the engine), 3.5 at full counts (TEST_FULL=1): either is many
# reads, and more than the 1 MB the kill cases wait for
n=$(counts 1500000 3500000)
! is_pg "$CONVCTL_STORE" || n=1500000
python3 - "$n" "$T" <<'EOP'
import sys
n, t = int(sys.argv[1]), sys.argv[2]
piece = ('say "hi" \\ C:\\dir\\ caf\u00e9 \u65e5\u672c\u8a9e \U0001f642 '
         + ''.join(chr(c) for c in range(32)) + '\u2028 end\n').encode()
data = piece * (n // len(piece) + 1)
big = data[:n - 200].rsplit(b'\n', 1)[0] + b'\ntail\r\r\n\n'
d = big[:299999].decode("utf-8", "ignore").encode()
fits = d + b"x" * (300000 - len(d))
assert len(fits) == 300000
for name, text in [("big.txt", big), ("cut", big + b"\346\227"),
                   ("bad", big + b"\377"), ("part", big[:1000000]),
                   ("fits", fits), ("over", fits + b"y")]:
    with open(t + "/" + name, "wb") as f:
        f.write(text)
with open(t + "/big.size", "w") as f:
    f.write("%d\n" % len(big))
EOP
read -r big_size <"$T/big.size"

# slowly_py FILE: FILE on standard output in slices of 65521 bytes, a prime,
# so reads end inside characters; some slices end mid-character and wait, so
# the next read starts inside one for sure
slowly_py='import os, sys, time
data = open(sys.argv[1], "rb").read()
i, k = 0, 0
while i < len(data):
    j = min(i + 65521, len(data))
    os.write(1, data[i:j])
    i, k = j, k + 1
    if k % 8 == 0:
        while i < len(data) and data[i] < 0xc0:
            os.write(1, data[i:i + 1]); i += 1
        os.write(1, data[i:i + 1]); i += 1
        time.sleep(0.05)'

# last_roles: the roles of the latest conversation's messages, one a line,
# from what message_is showed last ($T/shown)
last_roles() {
	jq -r '.messages[].role' "$T/shown"
}

test_expect 'a long answer with every escape, cut between reads: recorded byte for byte' '
	convctl run --prompt long -- python3 -c "$slowly_py" "$T/big.txt" >out &&
	cmp out "$T/big.txt" && message_is -1 "$T/big.txt" &&
	printf "user\nassistant\n" >want && last_roles >got && same_file want got
'

test_expect 'an answer of exactly max_message_bytes is recorded; one byte more is not' '
	CONVCTL_MAX_MESSAGE_BYTES=300000 convctl run --prompt at -- sh -c "cat fits" >out &&
	cmp out fits && message_is -1 fits &&
	CONVCTL_MAX_MESSAGE_BYTES=300000 fails_with 0 convctl run --prompt over -- sh -c "cat over" &&
	cmp "$T/stdout" over &&
	stderr_has "run: recorded the prompt, not its answer: 300001 bytes, larger than the limit of 300000 bytes (the max_message_bytes setting)" &&
	convctl show --format json >shown &&
	jq_is shown -r ".messages[-1] | .role + \": \" + .content" "user: over"
'

test_expect 'invalid UTF-8 at the very end: a character cut short, a bad last byte' '
	fails_with 0 convctl run --prompt cut -- sh -c "cat cut" && cmp "$T/stdout" cut &&
	stderr_has "not its answer: not valid UTF-8 at byte $big_size; all of it went to standard output" &&
	fails_with 0 convctl run --prompt bad -- sh -c "cat bad" && cmp "$T/stdout" bad &&
	stderr_has "not valid UTF-8 at byte $big_size" &&
	convctl show --format json >shown &&
	jq_is shown -r ".messages[-2:][] | .role + \": \" + .content" "user: cut
user: bad"
'

test_expect 'CMD killed mid-stream: the partial answer recorded only with --keep-partial' '
	fails_with 137 convctl run --prompt killed -- sh -c "cat part; kill -9 \$\$" &&
	cmp "$T/stdout" part &&
	stderr_has "was killed by signal 9" &&
	stderr_has "recorded the prompt, not its partial answer" &&
	convctl show --format json >shown &&
	jq_is shown -r ".messages[-1] | .role + \": \" + .content" "user: killed" &&
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
	python3 -c "import hashlib, os, re, sys
a, b = open(sys.argv[1], \"rb\").read(), open(sys.argv[2], \"rb\").read()
ids = iter(re.findall(rb\"m-[0-9]+-[0-9a-f]{8}\", b))
a = re.sub(rb\"m-[0-9]+-[0-9a-f]{8}\", lambda m: next(ids), a)
# the store'\''s index (its real path'\''s SHA-256), and when it was written
ix = os.path.join(os.environ[\"HOME\"], \".cache/convctl/index\",
                  hashlib.sha256(os.path.realpath(sys.argv[1]).encode()).hexdigest())
print(ix)
print(os.stat(ix).st_mtime_ns if os.path.exists(ix) else -1)
sys.exit(0 if a == b else \"the stores differ\")" "$s" "$a" >ix &&
	{ read -r ix && read -r before; } <ix &&
	test -s "$ix" &&
	for r in "recent --json" "show --format json" "prompt --format jsonl"; do
		# shellcheck disable=SC2086
		convctl -s "$s" $r >with || return 1
		# shellcheck disable=SC2086
		CONVCTL_NO_INDEX=1 convctl -s "$s" $r >without || return 1
		cmp without with || return 1
	done &&
	stat -c %.9Y "$ix" >after && read -r after <after &&
	test "${after%.*}${after#*.}" = "$before"
'

test_expect 'convctl killed mid-stream: no file left beside the store nor in TMPDIR' '
	mkdir -p tmp d && export TMPDIR=$T/tmp &&
	if is_pg "$CONVCTL_STORE"; then s=$CONVCTL_STORE where=$T/tmp/
	else s=$T/d/store.json where=$T/d/; fi || return 1
	(exec $CONVCTL_WRAPPER "$CONVCTL_BIN" -s "$s" run --prompt stop -- sh -c "
	    cat part; echo \$\$ >cmd.pid; while [ ! -e never ]; do sleep 0.05; done
	" >out 2>err) &
	pid=$! && wait_until "[ -s cmd.pid ] && cmp -s out part" &&
	spool_fds $pid links "$where" &&
	{ test "$spool_in" -gt 0 || { echo "no unnamed file in $where:"; cat links; return 1; }; } &&
	read -r cmd <cmd.pid && spool_fds "$cmd" cmdlinks "$where" &&
	{ test ! -s cmdlinks || { cat cmdlinks; return 1; }; } &&
	kill -9 $pid && { wait $pid; test $? -eq 137; } &&
	kill "$cmd" && dir_empty tmp vgdb &&
	dir_empty d && cmp out part
'

test_file 'no directory for the store yet: the spool goes to TMPDIR' '
	mkdir -p tmp2 && export TMPDIR=$T/tmp2 || return 1
	(exec $CONVCTL_WRAPPER "$CONVCTL_BIN" -s "$T/new/dir/s.json" run --prompt first -- sh -c "
	    cat part; echo \$\$ >cmd2.pid; while [ ! -e go2 ]; do sleep 0.05; done
	" >out2) &
	pid=$! && wait_until "[ -s cmd2.pid ] && cmp -s out2 part" &&
	spool_fds $pid links "$T/tmp2/" &&
	{ test "$spool_in" -gt 0 || { echo "no unnamed file in $T/tmp2/:"; cat links; return 1; }; } &&
	: >go2 && wait $pid && dir_empty tmp2 &&
	CONVCTL_STORE=$T/new/dir/s.json message_is -1 part
'

test_done
