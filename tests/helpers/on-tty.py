#!/usr/bin/env python3
"""on-tty.py [--stdout FILE] CMD [ARG...] - runs CMD on a pseudo-terminal.

CMD's standard input, output and error are the terminal (with --stdout,
its standard output goes to FILE instead, so a test can tell what was
printed from what was drawn on the terminal). Prints everything the
terminal saw and exits with CMD's exit status. One command of
on-ttys.py's, which runs many.
"""
import importlib
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
run = importlib.import_module("on-ttys").run

args = sys.argv[1:]
stdout = None
if args[:1] == ["--stdout"]:
    stdout, args = args[1], args[2:]
if not args:
    sys.exit(__doc__.splitlines()[0])
seen, status = run(args, dict(os.environ), stdout)
sys.stdout.buffer.write(seen)
sys.exit(status)
