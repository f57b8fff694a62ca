#!/usr/bin/env python3
"""on-ttys.py DIR <REQUESTS - runs many commands, each on a pseudo-terminal
of its own as on-tty.py runs one, in one process (a process a command).

REQUESTS, one command after another, each a block of lines:
  run NAME        starts the block of command NAME
  env NAME=VALUE  NAME is VALUE in the command's environment (else the
                  environment is this process's)
  stdout FILE     the command's standard output goes to FILE, not the
                  terminal (on-tty.py's --stdout)
  arg WORD        the command's next word: the rest of the line, blanks too
and, between two blocks (or before the first),
  write PATH TEXT PATH holds TEXT and a newline (only a newline without
                  TEXT) from the next command on
The commands run in their order, each once the one before it ended. What
the terminal of command NAME saw goes to DIR/NAME.tty, its exit status
(128 + N for a signal N) to DIR/NAME.status, as on-tty.py prints and exits.
"""
import os
import pty
import signal
import sys


def run(argv, env, stdout):
    pid, fd = pty.fork()
    if pid == 0:
        # as a login shell starts it: python ignores SIGPIPE, and an
        # ignored signal stays ignored across exec
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        if stdout is not None:
            out = os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                          0o644)
            os.dup2(out, 1)
        try:
            os.execvpe(argv[0], argv, env)
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
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return seen, (os.WEXITSTATUS(status) if os.WIFEXITED(status)
                  else 128 + os.WTERMSIG(status))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[0])
    out_dir = sys.argv[1]
    blocks, writes = [], []
    for line in sys.stdin.read().split("\n"):
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "run":
            blocks.append({"name": rest, "env": {}, "write": writes,
                           "stdout": None, "argv": []})
            writes = []
        elif word == "write":
            path, _, text = rest.partition(" ")
            writes.append((path, text))
        elif not blocks:
            sys.exit("on-ttys.py: %r before a run line" % line)
        elif word == "env":
            name, _, value = rest.partition("=")
            blocks[-1]["env"][name] = value
        elif word == "stdout":
            blocks[-1]["stdout"] = rest
        elif word == "arg":
            blocks[-1]["argv"].append(rest)
        else:
            sys.exit("on-ttys.py: what is %r?" % line)
    if writes:
        sys.exit("on-ttys.py: write after the last command")
    for b in blocks:
        for path, text in b["write"]:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        env = dict(os.environ)
        env.update(b["env"])
        seen, status = run(b["argv"], env, b["stdout"])
        with open(os.path.join(out_dir, b["name"] + ".tty"), "wb") as f:
            f.write(seen)
        with open(os.path.join(out_dir, b["name"] + ".status"), "w") as f:
            f.write("%d\n" % status)


if __name__ == "__main__":
    main()
