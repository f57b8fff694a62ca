#!/usr/bin/env python3
"""examples.py - the examples of the man pages and the README, as scripts.

usage: examples.py --out DIR --root DIR --stub URL [--pg URI] [--skip PATTERN]...
                   [--copy SRC DEST]... [--link TARGET NAME]... [--executable FILE]...
                   [--seed DIR --runs DIR --bin DIR RUN-OPTION...] FILE...
       examples.py run --seed DIR --runs DIR --bin DIR RUN-OPTION... EXAMPLE...
RUN-OPTION: --timeout S, --env NAME=VALUE, --source FILE, --set NAME=VALUE

Writes each example of each FILE to DIR/NNN.sh, its first line a comment
naming where it is ("# man/convctl-add.1:101"). An example is:
  - in a man page, each .Bd -literal block of its EXAMPLES section, the roff
    escapes read (\\e is a backslash, \\& nothing, \\(dq a double quote);
  - in a Markdown file, each block of lines indented by four spaces.
What a reader would do to run one is done for them: a crontab line's five
schedule fields are dropped (the command is run); the URL of an API
(OpenAI's own, a local Ollama or llama.cpp server) is replaced by --stub, the
stub LLM server, so nothing leaves the machine. A PostgreSQL example is
marked "# uses PostgreSQL" on its second line and, given --pg (a test
cluster's URI, user postgres), run on that cluster: a postgresql:// URI on
db.example.org becomes --pg with a schema of the example's own
("&schema=ex012"), single-quoted, and "sudo -u postgres " before a command
(createuser, createdb) becomes the cluster's PGHOST, PGPORT and PGUSER, its
user postgres. An example that reads "$CONVCTL_STORE", the shared store,
without setting it is one too: it first gets the lines that set it up, as the
README's "Sharing a store between machines" does (marked "# set up: ").
A line that starts with a --skip PATTERN is commented out (it builds or
installs, or needs a program that is not here); a PATTERN no example uses is
an error, so the list of what is not run cannot grow stale.
Each --copy SRC DEST copies the file or directory SRC to DEST (as cp -r
does; DEST's directory must exist), each --link TARGET NAME makes NAME a
symbolic link to TARGET (ln -s) and each --executable FILE is made
executable (chmod +x), before the examples are written: the seed's files
and the stand-ins in BIN, one process for all. Given --seed, it then runs
each example it wrote, as "run" does, but those marked "# uses PostgreSQL"
when there is no --pg: writing and running, one process. It prints how
many examples it wrote (before it runs them).

"run" runs each EXAMPLE (a file the first form wrote, DIR/NNN.sh) as the
test would with `cp -r SEED RUNS/run.NNN.sh` and `timeout S setsid bash -e
-o pipefail EXAMPLE`, in one process for all, a process an example: on a
fresh copy of SEED (RUNS/run.NNN.sh; its work/ the working directory,
its home/ HOME), with BIN first in PATH, XDG_DATA_HOME, XDG_CONFIG_HOME
and CONVCTL_STORE unset and each --env set, standard input /dev/null, in a
session of its own (no terminal), S seconds at most (60; then its process
group is killed and its status is 124, as timeout's). It leaves the
example's standard output and error in RUN/out and RUN/err and its exit
status in RUN/status (a line), for the test to read; an example that could
not be run has no RUN/status.
With --source FILE, each example's bash reads FILE before the example
(BASH_ENV, RUNS/bash-env, which unsets BASH_ENV: a bash the example starts
reads nothing), each --set NAME=VALUE a variable of that bash, not
exported: a test's tests/serve-client.sh, whose convctl function then runs
the example's convctl commands in the test file's server (its cv_serve,
CONVCTL_BIN and CONVCTL_WRAPPER set so), no process a command; what the
example runs by PATH (xargs convctl, an MCP client's convctl mcp, a
stand-in's) still finds BIN's convctl, and what it exports is what the
command is given, as a process would be.
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.parse

CRON = re.compile(r"^(?:[0-9*/,-]+\s+){5}")
APIS = ["https://api.openai.com/v1", "http://localhost:11434/v1",
        "http://localhost:8080/v1"]
# the URI with the quotes around it, if any, so it can be quoted anew
PG_URI = re.compile(r"""(['"]?)postgres(?:ql)?://[^\s'"]*db\.example\.org"""
                    r"""[^\s'"]*\1""")
PG_SUDO = "sudo -u postgres "
SHARED = '"$CONVCTL_STORE"'
SHARED_SETUP = ["# set up: the shared store, with the history copied into it",
                "export CONVCTL_STORE=%s",
                'convctl copy ~/.local/share/convctl/store.json "$CONVCTL_STORE"']


def roff_text(line):
    return (line.replace("\\e", "\\").replace("\\&", "")
            .replace("\\(dq", '"').replace("\\-", "-"))


def man_examples(path):
    section, block, out = None, None, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith(".Sh "):
                section = line[4:].strip()
            elif section == "EXAMPLES" and line.startswith(".Bd -literal"):
                block = (n + 1, [])
            elif block is not None and line.startswith(".Ed"):
                out.append(block)
                block = None
            elif block is not None:
                block[1].append(roff_text(line))
    return out


def markdown_examples(path):
    block, out = None, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("    "):
                if block is None:
                    block = (n, [])
                block[1].append(line[4:])
            elif block is not None and line.strip() == "":
                block[1].append("")    # a blank line inside a block
            elif block is not None:
                out.append(block)
                block = None
    if block is not None:
        out.append(block)
    return out


def copy(src, dest):
    if os.path.isdir(src):
        shutil.copytree(src, dest, symlinks=True, copy_function=shutil.copy)
    else:
        shutil.copy(src, dest)


def run_options(ap):
    ap.add_argument("--seed")
    ap.add_argument("--runs")
    ap.add_argument("--bin")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--source")
    ap.add_argument("--set", action="append", default=[])


def run_all(a, examples):
    env = dict(os.environ)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "CONVCTL_STORE"):
        env.pop(name, None)
    env["PATH"] = a.bin + os.pathsep + env.get("PATH", "")
    for e in a.env:
        name, _, value = e.partition("=")
        env[name] = value
    if a.source:
        env["BASH_ENV"] = os.path.join(a.runs, "bash-env")
        with open(env["BASH_ENV"], "w") as f:
            f.write("# examples.py --source: read by each example's bash "
                    "first\nunset BASH_ENV\n")
            for e in a.set:
                name, _, value = e.partition("=")
                f.write("%s=%s\n" % (name, shlex.quote(value)))
            f.write(". %s\n" % shlex.quote(a.source))
    for ex in examples:
        rundir = os.path.join(a.runs, "run." + os.path.basename(ex))
        copy(a.seed, rundir)
        env["HOME"] = os.path.join(rundir, "home")
        with open(os.path.join(rundir, "out"), "wb") as out, \
                open(os.path.join(rundir, "err"), "wb") as err:
            p = subprocess.Popen(["bash", "-e", "-o", "pipefail", ex],
                                 cwd=os.path.join(rundir, "work"), env=env,
                                 stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=err, start_new_session=True)
            try:
                status = p.wait(timeout=a.timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
                status = 124
                err.write(b"examples.py: killed after %g s\n" % a.timeout)
        if status < 0:    # a signal: as a shell says it
            status = 128 - status
        with open(os.path.join(rundir, "status"), "w") as f:
            f.write("%d\n" % status)


def run(argv):
    ap = argparse.ArgumentParser(prog="examples.py run")
    run_options(ap)
    ap.add_argument("examples", nargs="*")
    a = ap.parse_args(argv)
    if not (a.seed and a.runs and a.bin):
        ap.error("--seed, --runs and --bin are required")
    run_all(a, a.examples)


def main():
    if sys.argv[1:2] == ["run"]:
        run(sys.argv[2:])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--root", required=True, help="FILEs are named from it")
    ap.add_argument("--stub", required=True)
    ap.add_argument("--pg", default="",
                    help="the test cluster's URI; empty when there is none")
    ap.add_argument("--skip", action="append", default=[])
    ap.add_argument("--copy", action="append", nargs=2, default=[])
    ap.add_argument("--link", action="append", nargs=2, default=[])
    ap.add_argument("--executable", action="append", default=[])
    run_options(ap)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.seed and not (a.runs and a.bin):
        ap.error("--seed needs --runs and --bin")
    for src, dest in a.copy:
        copy(src, dest)
    for target, name in a.link:
        os.symlink(target, name)
    for path in a.executable:    # chmod +x
        os.chmod(path, os.stat(path).st_mode | 0o111)
    used = {p: 0 for p in a.skip}
    pg_env = ""
    if a.pg:
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(a.pg).query)
        pg_env = "PGHOST=%s PGPORT=%s PGUSER=postgres " % (q["host"][0],
                                                           q["port"][0])
    k, written = 0, []
    for path in a.files:
        name = os.path.relpath(path, a.root)
        found = (markdown_examples(path) if path.endswith(".md")
                 else man_examples(path))
        for first, lines in found:
            script, pg = [], False
            uri = "'%s&schema=ex%03d'" % (a.pg, k + 1)    # its own schema
            for line in lines:
                for p in a.skip:
                    if line.startswith(p):
                        used[p] += 1
                        line = "# not run: " + line
                line = CRON.sub("", line)
                for api in APIS:
                    line = line.replace(api, a.stub + "/v1")
                if PG_URI.search(line) or line.startswith(PG_SUDO):
                    pg = True
                    if a.pg:
                        line = PG_URI.sub(lambda m: uri, line)
                        if line.startswith(PG_SUDO):
                            line = pg_env + line[len(PG_SUDO):]
                script.append(line)
            if (any(SHARED in l for l in script)
                    and not any("CONVCTL_STORE=" in l for l in script)):
                pg = True
                if a.pg:
                    script = ([SHARED_SETUP[0], SHARED_SETUP[1] % uri,
                               SHARED_SETUP[2]] + script)
            while script and script[-1] == "":
                script.pop()
            if not any(l and not l.startswith("#") for l in script):
                continue    # nothing left to run
            k += 1
            out = os.path.join(a.out, "%03d.sh" % k)
            with open(out, "w", encoding="utf-8") as f:
                f.write("# %s:%d\n%s%s\n" % (name, first,
                        "# uses PostgreSQL\n" if pg else "",
                        "\n".join(script)))
            if a.pg or not pg:
                written.append(out)
    unused = [p for p, n in used.items() if n == 0]
    if unused:
        sys.exit("examples.py: no example has a line starting %s"
                 % ", ".join(repr(p) for p in unused))
    print(k, flush=True)
    if a.seed:
        run_all(a, written)


if __name__ == "__main__":
    main()
