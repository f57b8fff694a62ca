#!/usr/bin/env python3
"""searchprop.py [--db-only] STORES SEED [URI] - search's prefilter never
changes its output, nor does the engine.

Writes STORES random stores (some as convctl writes them, some with
messages out of time order) whose texts mix words in every case, characters
that fold to ASCII letters (U+017F long s, U+0131 dotless i) and ones that
do not (U+0130, U+212A Kelvin), accents, CJK, emoji, quotes, slashes,
backslashes, tabs, CR, LF and NUL, each character of each string written
raw or as a JSON escape at random (\\uXXXX in either hex case, surrogate
pairs, the short escapes); then runs `convctl search` on each with random
plain and -E queries, with and without --case-sensitive and --json, and
random --role, --since, --until, --tag, --tool and -n; each through the file
engine's fast path (the bytes looked at first, only what may match decoded)
with the store's index and without it (CONVCTL_NO_INDEX=1), and through
every conversation parsed (CONVCTL_SEARCH_NO_PREFILTER=1), and compares
standard output, standard error and exit status. A store's searches run
in one process, the test tool's (`test-tool run`, tests/tool/run.c), all
the stores' in one, when $CONVCTL_BIN is the tree's convctl and the tool
is built; else a process each. With URI (a PostgreSQL store's, without schema=; or sqlite:DIR, a
SQLite database in DIR each), each store is also copied into a schema of its
own there (the copy one more request of that one process), and each query is run on the database too, with the search done
in SQL and (CONVCTL_SEARCH_NO_PREFILTER=1) with every conversation loaded:
the same output as the file's, byte for byte; with --db-only, only that
(the file's fast path is left to another run, without URI: make check's
t3010-search-prefilter.t does so). Prints the first difference
and exits 1; prints the counts and exits 0 when there is none. convctl is
$CONVCTL_BIN, run through $CONVCTL_WRAPPER when set.
"""
import datetime
import json
import os
import random
import subprocess
import sys
import time

WORDS = ["milk", "MILK", "Milk", "mIlK", "session", "SESSION", "Session",
         "deploy", "server", "merge", "eggs", "kilo", "KILO", "café", "CAFÉ",
         "naïve", "Größe", "GRÖSSE", "日本語", "🙂", "\U0001F680", "Привет",
         "привет", "ſeſſion", "dıff", "DIFF", "İstanbul", "istanbul",
         "\u212Aelvin", "kelvin", "a/b", "\"quoted\"", "C:\\Users\\me",
         "tab\there", "line\nbreak", "crlf\r\nend", "nul\0byte", "x", "e",
         "é", "É", "ß", "SS"]
SHORT = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f",
         "\n": "\\n", "\r": "\\r", "\t": "\\t"}

PLAIN = ["milk", "MILK", "mil", "ilk", "session", "SESS", "ession", "kilo",
         "KI", "k", "s", "i", "I", "ſ", "ı", "İ", "\u212A", "K", "café", "CAFÉ",
         "é", "É", "ö", "Ö", "日本", "🙂", "привет", "ПРИВЕТ", "\"quoted\"",
         "a/b", "C:\\Users", "\\", "/", "\"", "tab\there", "\t", "crlf",
         "end", "nul", "ss", "SS", "ß", "deploy server", "x", "e", "ab",
         "no such words", "Me", "elvin"]
REGEX = ["mi.k", "ses+ion", "milk|eggs", "caf[eé]", "^milk", "milk$",
         "mil?k", "x{0}milk", "(milk)+", "[[:alpha:]]+ion", "s+e", "\\.",
         "a\\/b", "C:\\\\Users", "\\\"quoted", "k[aeiou]lo", "ſeſ", "dıf+",
         "İst", "\u212Aelv", "tab.here", "ilk\\b", "\\<milk", "e*", "(a|b)c",
         "mi(l)k", "[^a]ilk", "[]a]ilk", "ki{1,2}lo", "日本.", "🙂+",
         "deploy server", "SERVER M?erge", "ß", "a{2}b", "se.sion$",
         # where PostgreSQL's ARE reads otherwise: a backslash in brackets,
         # \b (backspace there), \w, \d, \s, back-references
         "[\\d]ilk", "C:[\\]Users", "\\w+ion", "\\d", "(l)\\1",
         "m\\Bilk", "\\s", "\\Sion", "[[:<:]]milk"]
TAGS = ["home", "food", "Home", "x y", "\"q\""]
TOOLS = ["read_file", "edit_file", "run"]


def esc_char(rng, ch):
    """ch as JSON string text, raw or escaped at random"""
    cp = ord(ch)
    if cp >= 0x10000:
        v = cp - 0x10000
        u = "\\u%04x\\u%04x" % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
    else:
        u = "\\u%04x" % cp
    if rng.random() < 0.5:
        u = u.upper().replace("\\U", "\\u")
    must = cp < 0x20 or ch in '"\\'
    if ch in SHORT and (must or rng.random() < 0.3):
        return SHORT[ch] if rng.random() < 0.7 else u
    if must or rng.random() < 0.15:
        return u
    return ch


PLAIN_STORE = [False]     # this store's strings as jansson writes them


def jstr(rng, s):
    if PLAIN_STORE[0]:
        return json.dumps(s, ensure_ascii=False)
    return '"' + "".join(esc_char(rng, c) for c in s) + '"'


def text(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))


def ts(i):
    t = datetime.datetime(2026, 1, 1) + datetime.timedelta(minutes=i)
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def store(rng, path):
    """a store; some written as convctl writes them (then search may skip
    conversations by the times their bytes hold), some with messages out of
    time order"""
    convs = []
    t = 0
    PLAIN_STORE[0] = rng.random() < 0.4
    shuffled = rng.random() < 0.4
    n = rng.randint(1, 8)
    for c in range(n):
        msgs = []
        for k in range(rng.randint(0, 6)):
            t += 1
            when = rng.randint(0, 60) if shuffled and rng.random() < 0.3 else t
            m = ['"id":' + jstr(rng, "m-%d-%d" % (c, k)),
                 '"timestamp":' + jstr(rng, ts(when)),
                 '"role":' + jstr(rng, rng.choice(["user", "assistant",
                                                   "system", "tool"])),
                 '"content":' + jstr(rng, text(rng))]
            if rng.random() < 0.3:
                m.append('"toolsUsed":[' + ",".join(
                    jstr(rng, t) for t in rng.sample(TOOLS, rng.randint(1, 2)))
                    + "]")
            if rng.random() < 0.2:
                m.append('"note":' + jstr(rng, text(rng)))
            msgs.append("{" + ",".join(m) + "}")
        t += 1
        active = c == n - 1 and rng.random() < 0.5
        f = ['"id":' + jstr(rng, "conv-%d" % c),
             '"startedAt":' + jstr(rng, ts(0 if not msgs else t - len(msgs))),
             '"endedAt":' + ("null" if active else jstr(rng, ts(t))),
             '"title":' + (jstr(rng, text(rng)) if rng.random() < 0.5
                           else "null"),
             '"summary":' + (jstr(rng, text(rng)) if rng.random() < 0.5
                             else "null"),
             '"messages":[' + ",".join(msgs) + "]"]
        if rng.random() < 0.4:
            tags = rng.sample(TAGS, rng.randint(1, 2))
            f.insert(rng.randint(0, len(f)), '"tags":[' +
                     ",".join(jstr(rng, t) for t in tags) + "]")
        convs.append("{" + ",".join(f) + "}")
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"version":1,"conversations":[' + ",".join(convs) + "]}")


def env_of(prefilter, index=True):
    """the environment a run changes: None unsets; a prefilter of None
    changes nothing (a copy)"""
    if prefilter is None:
        return {}
    return {"CONVCTL_SEARCH_NO_PREFILTER": None if prefilter else "1",
            "CONVCTL_NO_INDEX": None if index else "1"}


def run(argv, prefilter, index=True):
    env = dict(os.environ)
    for k, v in env_of(prefilter, index).items():
        env.pop(k, None)
        if v is not None:
            env[k] = v
    p = subprocess.run(argv, env=env, capture_output=True)
    return p.returncode, p.stdout, p.stderr


HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "tool", "test-tool")


def tool_usable(binary):
    """the test tool runs the tree's convctl: only when that is the one
    under test"""
    tree = os.path.join(HERE, "..", "..", "convctl")
    return os.access(TOOL, os.X_OK) and \
        os.path.realpath(binary) == os.path.realpath(tree)


def run_all(wrapper, binary, reqs, work):
    """each (args, prefilter, index) of reqs run: (status, stdout, stderr)
    a request, in order; in the test tool's one process when it is usable"""
    if not tool_usable(binary):
        return [run(wrapper + [binary] + a, p, i) for a, p, i in reqs]
    out = os.path.join(work, "runs")
    os.makedirs(out, exist_ok=True)
    req = os.path.join(work, "runs.json")
    with open(req, "w", encoding="utf-8") as f:
        for a, p, i in reqs:
            f.write(json.dumps({"argv": a, "env": env_of(p, i)}) + "\n")
    r = subprocess.run(wrapper + [TOOL, "run", req, out], capture_output=True)
    if r.returncode != 0:
        sys.stderr.write("test-tool run: exit %d: %r\n" % (r.returncode, r.stderr))
        sys.exit(1)
    with open(os.path.join(out, "status")) as f:
        codes = [int(x) for x in f.read().split()]
    got = []
    for n, code in enumerate(codes):
        with open(os.path.join(out, "%d.out" % n), "rb") as f:
            o = f.read()
        with open(os.path.join(out, "%d.err" % n), "rb") as f:
            e = f.read()
        got.append((code, o, e))
    if len(got) != len(reqs):
        sys.stderr.write("test-tool run: %d results for %d runs\n" % (len(got), len(reqs)))
        sys.exit(1)
    return got


def filters(rng):
    """random --role, --since, --until, --tag, --tool and -n options"""
    out = []
    if rng.random() < 0.2:
        out += ["--role", rng.choice(["user", "assistant", "system", "tool"])]
    if rng.random() < 0.2:
        out += ["--since", ts(rng.randint(0, 40))]
    if rng.random() < 0.2:
        out += ["--until", ts(rng.randint(5, 60))]
    if rng.random() < 0.15:
        out += ["--tag", rng.choice(TAGS + ["none"])]
    if rng.random() < 0.15:
        out += ["--tool", rng.choice(TOOLS)]
    if rng.random() < 0.2:
        out += ["-n", str(rng.randint(0, 6))]
    return out


def differ(i, seed, path, argv, a, b, what):
    sys.stderr.write("store %d of seed %d: %r\n%s: %r\nand %r\n" %
                     (i, seed, argv, what, a, b))
    with open(path, encoding="utf-8") as f:
        sys.stderr.write(f.read() + "\n")
    return 1


def main():
    args = sys.argv[1:]
    db_only = args[:1] == ["--db-only"]
    if db_only:
        args = args[1:]
    nstores, seed = int(args[0]), int(args[1])
    uri = args[2] if len(args) > 2 else None
    db_only = db_only and uri is not None
    engine = "SQLite" if uri and uri.startswith("sqlite:") else "PostgreSQL"
    rng = random.Random(seed)
    binary = os.environ.get("CONVCTL_BIN", "convctl")
    wrapper = os.environ.get("CONVCTL_WRAPPER", "").split()
    work = os.environ.get("T", ".")
    runs = hits = 0
    # every store written and its runs planned first, all the stores' runs
    # made at once (one process: run_all), then compared in the order
    # they ran
    reqs = []
    plan = []
    for i in range(nstores):
        path = os.path.join(work, "prop%d.json" % i)
        store(rng, path)
        db = None
        if uri is not None:
            if uri.startswith("sqlite:"):	# sqlite:DIR: a file each
                db = "%s/prop%d_%d.db" % (uri, seed, i)
            else:
                db = "%s&schema=prop%d_%d" % (uri, seed, i)
            reqs.append((["copy", path, db], None, None))
        # a store older than the clock's tick: the first reader writes its
        # index (one written in the current tick is not trusted)
        past = time.time() - 10
        os.utime(path, (past, past))
        queries = []
        for _ in range(12):
            regex = rng.random() < 0.5
            q = rng.choice(REGEX if regex else PLAIN)
            opts = ["-E"] if regex else []
            opts += ["--case-sensitive"] if rng.random() < 0.3 else []
            opts += ["--json"] if rng.random() < 0.2 else []
            opts += filters(rng)
            fargs = ["-s", path, "search"] + opts + [q]
            dargs = ["-s", db, "search"] + opts + [q] if uri is not None else None
            queries.append((fargs, dargs))
            reqs.append((fargs, False, True))
            for index in () if db_only else (True, False):
                reqs.append((fargs, True, index))
            if uri is not None:
                for prefilter in (True, False):
                    reqs.append((dargs, prefilter, True))
        plan.append((i, path, db, queries))
    results = iter(run_all(wrapper, binary, reqs, work))
    for i, path, db, queries in plan:
        if db is not None:
            p = next(results)
            if p[0] != 0:
                sys.stderr.write("copy into %s: %r\n" % (db, p[2]))
                return 1
        for fargs, dargs in queries:
            argv = wrapper + [binary] + fargs
            without = next(results)
            runs += 1
            hits += without[1].count(b"\n") if without[0] == 0 else 0
            for index in () if db_only else (True, False):
                with_pf = next(results)
                if with_pf != without:
                    return differ(i, seed, path, argv, with_pf, without,
                                  "fast path (index %s) and every "
                                  "conversation parsed" % index)
            if uri is None:
                continue
            dargv = wrapper + [binary] + dargs
            for prefilter in (True, False):
                on_db = next(results)
                # the store's name aside, the same message
                got = (on_db[0], on_db[1],
                       on_db[2].replace(db.encode(), path.encode()))
                if got != without:
                    return differ(i, seed, path, dargv, without, got,
                                  "on the file and on %s%s" % (engine,
                                  "" if prefilter else " unfiltered"))
    if db_only:
        print("%d searches on %d stores, %d lines found, the same on the "
              "file (every conversation parsed) and on %s (in SQL and "
              "every conversation loaded)" % (runs, nstores, hits, engine))
    else:
        print("%d searches on %d stores, %d lines found, the same by the "
              "fast path (with the index and without) and with every "
              "conversation parsed%s" % (runs, nstores, hits,
                                        ", on the file and on " + engine
                                        if uri else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
