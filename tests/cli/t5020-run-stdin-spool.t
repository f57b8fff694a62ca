#!/bin/sh
# convctl run with the prompt on standard input keeps it in unnamed temporary
# files before CMD runs, never whole in memory: CMD still gets it byte for
# byte, the store records it byte for byte, and the limits and refusals are
# those of a prompt read into memory.
case $0 in */*) . "${0%/*}/../lib.sh" ;; *) . ../lib.sh ;; esac	# (no dirname)

export CONVCTL_NOW=2030-01-01T00:00:00.000Z CONVCTL_IDLE_TIMEOUT=52560000

# the prompt: about $n bytes of text every escape of JSON needs (quotes,
# backslashes, every control character, NUL too) and characters of 2, 3 and
# 4 bytes, one of them across each boundary of convctl's 256 KiB reads, ending
# in newlines chomp drops but for a "\r", in big.txt; and, made by the same
# python (not a cp, head, tr or wc a file): cut (big.txt and a character cut
# short), bad (and a bad last byte), fits (300000 bytes: its text to a
# character, then x's), over (fits and a y), split-N (N a's, then a
# character cut short, then an x); big.txt's size in big.size
#
# a few 256 KiB reads under valgrind, in make check and on PostgreSQL (the
# spool is read the same whatever the engine), a dozen at full counts
# (TEST_FULL=1)
n=$(counts 800000 3000000)
[ -z "$CONVCTL_WRAPPER" ] && ! is_pg "$CONVCTL_STORE" || n=800000

python3 - $n "$T" <<'EOP'
import sys
n, t = int(sys.argv[1]), sys.argv[2]
chars = list('say "hi" \\ C:\\dir\\ caf\u00e9 \u65e5\u672c\u8a9e \U0001f642 '
             + ''.join(chr(c) for c in range(32)) + '\u2028 end\n')
wide = ['\u00e9', '\u65e5', '\U0001f642']
out, i, k = bytearray(), 0, 1
while len(out) < n:
    b, w = 262144 * k, wide[k % 3].encode()
    cut = len(w) - 1		# bytes of it before the boundary
    while len(out) < b - cut:
        c = chars[i % len(chars)].encode()
        i += 1
        out += c if len(out) + len(c) <= b - cut else b'x' * (b - cut - len(out))
    out += w
    k += 1
    assert out[b - 1] >= 0x80 and out[b] >= 0x80 and out[b] < 0xc0
big = bytes(out) + b'\ntail\r\r\n\n'
d = big[:299999].decode("utf-8", "ignore").encode()
fits = d + b"x" * (300000 - len(d))
assert len(fits) == 300000
for name, text in [("big.txt", big), ("cut", big + b"\346\227"),
                   ("bad", big + b"\377"), ("fits", fits), ("over", fits + b"y"),
                   ("split-262142", b"a" * 262142 + b"\346\227x"),
                   ("split-262143", b"a" * 262143 + b"\346\227x")]:
    with open(t + "/" + name, "wb") as f:
        f.write(text)
with open(t + "/big.size", "w") as f:
    f.write("%d\n" % len(big))
EOP
read -r big_size <"$T/big.size"

# refused ERROR: convctl run, its prompt on standard input, failed with ERROR
# before CMD ran (it would have made the file ran), and recorded nothing:
# the store is what snapshot saved last (a case takes one before its
# refusals, not a copy of the store each)
refused() {
	fails_with 1 convctl run -- sh -c "touch ran; cat" &&
	stderr_has "run: $1" && test ! -e ran && test ! -s "$T/stdout" &&
	unchanged "$CONVCTL_STORE"
}

test_expect 'a long prompt on standard input, a character across each read: passed on and recorded byte for byte' '
	convctl add "before" &&
	convctl run -- cat <"$T/big.txt" >out &&
	cmp out "$T/big.txt" && message_is -2 "$T/big.txt" &&
	message_is -1 "$T/big.txt" &&
	jq_is "$T/shown" -r ".messages[].role" "user
user
assistant"
'

test_expect '--context: the conversation, a blank line, then the prompt' '
	convctl prompt --format text >want && echo >>want &&
	cat "$T/big.txt" >>want &&
	convctl run --context -- sh -c "cat >fed; echo ok" <"$T/big.txt" &&
	cmp fed want && message_is -2 "$T/big.txt"
'

test_expect 'a prompt of exactly max_message_bytes is taken; one byte more is refused before CMD runs' '
	CONVCTL_MAX_MESSAGE_BYTES=300000 convctl run -- cat <fits >out &&
	cmp out fits && message_is -2 fits &&
	snapshot "$CONVCTL_STORE" &&
	CONVCTL_MAX_MESSAGE_BYTES=300000 refused "'"'"'standard input'"'"' is larger than the limit of 300000 bytes (the max_message_bytes setting)" <over
'

test_expect 'invalid UTF-8 at the very end, or cut by a read: refused before CMD runs, at its byte' '
	snapshot "$CONVCTL_STORE" &&
	refused "message text is not valid UTF-8 at byte $big_size" <cut &&
	refused "message text is not valid UTF-8 at byte $big_size" <bad &&
	for at in 262142 262143; do
		refused "message text is not valid UTF-8 at byte $at" <split-$at ||
		return 1
	done
'

test_expect 'empty standard input, or newlines only: refused before CMD runs' '
	snapshot "$CONVCTL_STORE" &&
	refused "empty message" </dev/null &&
	printf "\r\n\n" >nl && refused "empty message" <nl
'

test_file 'both spooled, prompt and answer: the store is what add writes; its index right' '
	s=$T/spool.json a=$T/added.json &&
	convctl -s "$s" add "an earlier one" && convctl -s "$s" end &&
	convctl -s "$s" add --at 2029-12-31T00:00:00Z "active" &&
	cp "$s" "$a" &&
	convctl -s "$s" run --tool t1 -- sh -c "cat; echo \"the \\\"end\\\"\"" <"$T/big.txt" >answer &&
	convctl -s "$a" add <"$T/big.txt" &&
	convctl -s "$a" add -r assistant --tool t1 <answer &&
	python3 -c "import re, sys
a, b = open(sys.argv[1], \"rb\").read(), open(sys.argv[2], \"rb\").read()
ids = iter(re.findall(rb\"m-[0-9]+-[0-9a-f]{8}\", b))
a = re.sub(rb\"m-[0-9]+-[0-9a-f]{8}\", lambda m: next(ids), a)
sys.exit(0 if a == b else \"the stores differ\")" "$s" "$a" &&
	for r in "recent --json" "show --format json" "prompt --format jsonl"; do
		# shellcheck disable=SC2086
		convctl -s "$s" $r >with || return 1
		# shellcheck disable=SC2086
		CONVCTL_NO_INDEX=1 convctl -s "$s" $r >without || return 1
		cmp without with || return 1
	done
'

test_expect 'convctl killed while CMD runs: no file left beside the store nor in TMPDIR' '
	mkdir -p tmp d && export TMPDIR=$T/tmp &&
	if is_pg "$CONVCTL_STORE"; then s=$CONVCTL_STORE where=$T/tmp/
	else s=$T/d/store.json where=$T/d/; fi || return 1
	(exec $CONVCTL_WRAPPER "$CONVCTL_BIN" -s "$s" run -- sh -c "
	    cat >fed; echo \$\$ >cmd.pid; while [ ! -e never ]; do sleep 0.05; done
	" <"$T/big.txt" >out 2>err) &
	pid=$! && wait_until "[ -s cmd.pid ]" &&
	spool_fds $pid links "$where" &&
	{ test "$spool_in" -eq 3 || { echo "$spool_in unnamed files in $where, want 3:"; cat links; return 1; }; } &&
	kill -9 $pid && { wait $pid; test $? -eq 137; } &&
	read -r cmd <cmd.pid && kill "$cmd" && dir_empty d &&
	dir_empty tmp vgdb && cmp fed "$T/big.txt"
'

test_done
