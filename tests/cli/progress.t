#!/bin/sh
# progress on stderr: only when stderr is a terminal
. "$(dirname "$0")/../lib.sh"

i=0
while [ $i -lt 5 ]; do
	CONVCTL_NOW=2026-02-0$((i + 1))T10:00:00Z convctl add "m $i" >/dev/null
	i=$((i + 1))
done

# runs "$@" with stderr on a pseudo-terminal, stdout to $T/stdout; prints
# what the terminal saw
stderr_on_tty() {
	python3 - "$@" <<-\PY
	import os, pty, sys
	pid, fd = pty.fork()
	if pid == 0:
	    out = os.open(os.environ["T"] + "/stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
	    os.dup2(out, 1)
	    os.execvp(sys.argv[1], sys.argv[1:])
	seen = b""
	while True:
	    try:
	        d = os.read(fd, 4096)
	    except OSError:
	        break
	    if not d:
	        break
	    seen += d
	_, status = os.waitpid(pid, 0)
	sys.stdout.buffer.write(seen)
	sys.exit(os.WEXITSTATUS(status))
	PY
}
export T

test_expect 'prune shows its progress when stderr is a terminal' '
	cp "$CONVCTL_STORE" keep.json &&
	stderr_on_tty "$CONVCTL_BIN" prune --max 1 >tty &&
	grep -q "convctl: prune: removing 3/3" tty &&
	test "$(wc -l <"$T/stdout")" -eq 3
'

test_expect 'and not a byte of it when stderr is a file or a pipe' '
	cp keep.json "$CONVCTL_STORE" &&
	convctl prune --max 1 >out 2>err &&
	test "$(wc -l <out)" -eq 3 && test ! -s err
'

test_expect 'one conversation is no progress worth showing' '
	stderr_on_tty "$CONVCTL_BIN" prune --max 0 >tty &&
	test "$(wc -l <"$T/stdout")" -eq 1 && ! grep -q removing tty
'
test_done
