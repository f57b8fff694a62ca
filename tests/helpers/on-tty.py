#!/usr/bin/env python3
"""on-tty.py [--stdout FILE] CMD [ARG...] - runs CMD on a pseudo-terminal.

CMD's standard input, output and error are the terminal (with --stdout,
its standard output goes to FILE instead, so a test can tell what was
printed from what was drawn on the terminal). Prints everything the
terminal saw and exits with CMD's exit status.
"""
import os
import pty
import signal
import sys

args = sys.argv[1:]
stdout = None
if args[:1] == ["--stdout"]:
    stdout, args = args[1], args[2:]
if not args:
    sys.exit(__doc__.splitlines()[0])

pid, fd = pty.fork()
if pid == 0:
    # as a login shell starts it: python ignores SIGPIPE, and an ignored
    # signal stays ignored across exec
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if stdout is not None:
        out = os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
    try:
        os.execvp(args[0], args)
    finally:
        os._exit(127)
seen = b""
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:  # EIO: the terminal's other side is closed
        break
    if not data:
        break
    seen += data
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(seen)
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status)
         else 128 + os.WTERMSIG(status))
