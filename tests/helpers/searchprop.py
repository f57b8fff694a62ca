#!/usr/bin/env python3
"""searchprop.py STORES SEED [URI] - search's prefilter never changes its
output, nor does the engine.

Writes STORES random stores whose texts mix words in every case, characters
that fold to ASCII letters (U+017F long s, U+0131 dotless i) and ones that
do not (U+0130, U+212A Kelvin), accents, CJK, emoji, quotes, slashes,
backslashes, tabs, CR, LF and NUL, each character of each string written
raw or as a JSON escape at random (\\uXXXX in either hex case, surrogate
pairs, the short escapes); then runs `convctl search` on each with random
plain and -E queries, with and without --case-sensitive and --json, with
the prefilter and without (CONVCTL_SEARCH_NO_PREFILTER=1), and compares
standard output, standard error and exit status. With URI (a PostgreSQL
store's, without schema=), each store is also copied into a schema of its
own there, and each query, with random filters too (--role, --since,
--until, --tag, --tool, -n), is run on the file (with the prefilter) and on
the database, with the search done in SQL and (CONVCTL_SEARCH_NO_PREFILTER=1)
with no text condition in it: the same output, byte for byte. Prints the
first difference and exits 1; prints the counts and exits 0 when there is
none. convctl is $CONVCTL_BIN, run through $CONVCTL_WRAPPER when set.
"""
import datetime
import os
import random
import subprocess
import sys

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


def jstr(rng, s):
    return '"' + "".join(esc_char(rng, c) for c in s) + '"'


def text(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))


def ts(i):
    t = datetime.datetime(2026, 1, 1) + datetime.timedelta(minutes=i)
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def store(rng, path):
    convs = []
    t = 0
    n = rng.randint(1, 8)
    for c in range(n):
        msgs = []
        for k in range(rng.randint(0, 6)):
            t += 1
            m = ['"id":' + jstr(rng, "m-%d-%d" % (c, k)),
                 '"timestamp":' + jstr(rng, ts(t)),
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
            f.append('"tags":[' + ",".join(
                jstr(rng, t) for t in rng.sample(TAGS, rng.randint(1, 2))) +
                "]")
        convs.append("{" + ",".join(f) + "}")
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"version":1,"conversations":[' + ",".join(convs) + "]}")


def run(argv, prefilter):
    env = dict(os.environ)
    env.pop("CONVCTL_SEARCH_NO_PREFILTER", None)
    if not prefilter:
        env["CONVCTL_SEARCH_NO_PREFILTER"] = "1"
    p = subprocess.run(argv, env=env, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def filters(rng):
    """random search filters, or none"""
    f = []
    if rng.random() < 0.2:
        f += ["--role", rng.choice(["user", "assistant", "system", "tool"])]
    if rng.random() < 0.15:
        f += ["--since", ts(rng.randint(0, 40))]
    if rng.random() < 0.15:
        f += ["--until", ts(rng.randint(0, 40))]
    if rng.random() < 0.15:
        f += ["--tag", rng.choice(TAGS)]
    if rng.random() < 0.15:
        f += ["--tool", rng.choice(TOOLS)]
    if rng.random() < 0.3:
        f += ["-n", str(rng.randint(0, 6))]
    return f


def differ(i, seed, path, argv, a, b, what):
    sys.stderr.write("store %d of seed %d: %r\n%s: %r\nand %r\n" %
                     (i, seed, argv, what, a, b))
    with open(path, encoding="utf-8") as f:
        sys.stderr.write(f.read() + "\n")
    return 1


def main():
    nstores, seed = int(sys.argv[1]), int(sys.argv[2])
    uri = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(seed)
    binary = os.environ.get("CONVCTL_BIN", "convctl")
    wrapper = os.environ.get("CONVCTL_WRAPPER", "").split()
    path = os.path.join(os.environ.get("T", "."), "prop.json")
    runs = hits = 0
    for i in range(nstores):
        store(rng, path)
        if uri is not None:
            db = "%s&schema=prop%d_%d" % (uri, seed, i)
            p = subprocess.run(wrapper + [binary, "copy", path, db],
                               capture_output=True)
            if p.returncode != 0:
                sys.stderr.write("copy into %s: %r\n" % (db, p.stderr))
                return 1
        for _ in range(12):
            regex = rng.random() < 0.5
            q = rng.choice(REGEX if regex else PLAIN)
            opts = ["-E"] if regex else []
            opts += ["--case-sensitive"] if rng.random() < 0.3 else []
            opts += ["--json"] if rng.random() < 0.2 else []
            opts += filters(rng) if uri is not None else []
            argv = wrapper + [binary, "-s", path, "search"] + opts + [q]
            with_pf, without = run(argv, True), run(argv, False)
            runs += 1
            hits += with_pf[1].count(b"\n") if with_pf[0] == 0 else 0
            if with_pf != without:
                return differ(i, seed, path, argv, with_pf, without,
                              "with the prefilter and without")
            if uri is None:
                continue
            dargv = wrapper + [binary, "-s", db, "search"] + opts + [q]
            on_db = run(dargv, True)
            # the store's name aside, the same message
            got = (on_db[0], on_db[1], on_db[2].replace(db.encode(),
                                                        path.encode()))
            if got != with_pf:
                return differ(i, seed, path, dargv, with_pf, got,
                              "on the file and on PostgreSQL")
            on_db = run(dargv, False)
            got = (on_db[0], on_db[1], on_db[2].replace(db.encode(),
                                                        path.encode()))
            if got != with_pf:
                return differ(i, seed, path, dargv, with_pf, got,
                              "on the file and on PostgreSQL unfiltered")
    print("%d searches on %d stores, %d lines found, the same with and "
          "without the prefilter%s" % (runs, nstores, hits,
                                       ", on the file and on PostgreSQL"
                                       if uri else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
