#!/usr/bin/env python3
"""badinput.py CATEGORY -- COMMAND...: generates the bad stores of CATEGORY
and runs every reader and writer of convctl (COMMAND is the wrapper and the
binary) on each. A case is refused or accepted:
  refused:  exit 1, stderr "convctl: CMD: " naming the store and the place
            (line:column or the JSON path), the store byte for byte unchanged,
            no temporary file left;
  accepted: readers exit 0, a write exits 0 and the result loads again.
Anything else (a crash, a signal, a sanitizer's exit status) fails. Prints
one line per failure and a summary; exit 1 when one failed.
Categories: truncated utf8 escapes duplicates types nesting nul crlf empty
notjson version big corpus (corpus DIR replays a directory of stores);
sources: bad migrate sources, each run through migrate (-f and detected).

badinput.py write DIR CATEGORY...: writes the inputs instead of running
them, for `tests/tool/test-tool badinput DIR/CATEGORY`, which runs every
command on each in one process: DIR/CATEGORY/N is input N, and
DIR/CATEGORY/list has a line "N<TAB>JSON<TAB>PLACE<TAB>WHAT" for each (JSON:
1 when the input is JSON as Python reads it; PLACE: the field a refusal
must name, or empty), for sources "N<TAB>FORMAT<TAB>NAME<TAB>WHAT".
CATEGORY:K writes every Kth input of CATEGORY only (BADINPUT_STRIDE=K, of
every category).
"""
import glob
import json
import os
import re
import subprocess
import sys

sys.setrecursionlimit(20000)

SMALL = {"version": 1, "conversations": [
    {"id": "conv-1", "startedAt": "2026-02-04T17:26:40.000Z",
     "endedAt": "2026-02-04T17:30:00.000Z", "title": "t", "summary": None,
     "messages": [{"id": "m-1", "timestamp": "2026-02-04T17:26:40.000Z",
                   "role": "user", "content": "Add milk"},
                  {"id": "m-2", "timestamp": "2026-02-04T17:26:41.250Z",
                   "role": "assistant", "content": "Added.",
                   "toolsUsed": ["edit_file"]}]},
    {"id": "conv-2", "startedAt": "2026-02-05T10:00:00.000Z", "endedAt": None,
     "title": None, "summary": None,
     "messages": [{"id": "m-3", "timestamp": "2026-02-05T10:00:00.000Z",
                   "role": "user", "content": "Hi"}]}],
    "lastMigrated": None}

READERS = [["show"], ["show", "--format", "json"], ["recent", "--json"],
           ["prompt"], ["prompt", "--format", "openai"]]
# every writer; migrate reads SOURCE, a good source written beside the store
WRITERS = [["add", "--at", "2026-03-01T00:00:00Z", "probe"],
           ["end"], ["prune", "--max", "0"], ["migrate", "SOURCE"],
           ["summarize", "--pending", "--summarizer", "offline"]]
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "..", "fixtures", "migrate")
# the migrate sources: (format, fixture, name the copy is given)
SOURCES = [("smarthole", "smarthole-history.json", "history.json"),
           ("smarthole", "data.json", "data.json"),
           ("messages", "messages.json", "messages.json"),
           ("jsonl", "sessions/sess-9f3e.jsonl", "sess-9f3e.jsonl"),
           ("jsonl", "sessions/sess-2b61/events.jsonl", "sess-2b61.jsonl"),
           ("chatsidian", "chatsidian/garden.json", "garden.json"),
           ("aiwhisperer", "aiwhisperer.json", "aiwhisperer.json")]


def dumps(v):
    return json.dumps(v, indent=1).encode()


def wrong_types(v, path=""):
    """(path, document) with the value at path replaced by each wrong type"""
    others = [None, True, 7, "x", [], {}]
    for o in others:
        if type(o) is not type(v) and not (v is None and o is None):
            yield path or "$", o
    if isinstance(v, dict):
        for k in v:
            for p, o in wrong_types(v[k], "%s.%s" % (path, k)):
                yield p, o
    elif isinstance(v, list):
        for i, x in enumerate(v[:3]):
            for p, o in wrong_types(x, "%s[%d]" % (path, i)):
                yield p, o


def replaced(v, path, o):
    """a copy of v with the value at path (as wrong_types names it) set to o"""
    if path == "$":
        return o
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", path)
    root = json.loads(json.dumps(v))
    cur = root
    for i, (k, n) in enumerate(parts):
        key = k if k else int(n)
        if i == len(parts) - 1:
            cur[key] = o
        else:
            cur = cur[key]
    return root


def one_line(err, cmd):
    """err is one line 'convctl: CMD: ...' without a control character"""
    line = err[:-1] if err.endswith("\n") else err
    return line.startswith("convctl: %s: " % cmd) and \
        not any(ord(c) < 0x20 or ord(c) == 0x7f for c in line)


def source_cases():
    """(what, format, name, bytes) bad migrate sources from the fixtures"""
    for fmt, fix, name in SOURCES:
        with open(os.path.join(FIXTURES, fix), "rb") as f:
            good = f.read()
        tag = "%s %s" % (fmt, fix)
        step = max(1, len(good) // 40)
        for n in range(0, len(good) - 1, step):
            doc = good[:n]
            # jsonl: a line torn at the end is skipped (documented); tear
            # a middle one instead
            if fmt == "jsonl":
                cut = good.find(b"\n", n)
                if cut < 0 or cut == len(good) - 1:
                    continue
                doc = good[:n] + good[cut:]
            yield "%s: truncated at byte %d" % (tag, n), fmt, name, doc
        for bname, b in [("lone continuation", b"\x80"), ("overlong", b"\xc0\xaf"),
                         ("encoded surrogate", b"\xed\xa0\x80"), ("byte 0xff", b"\xff"),
                         ("above U+10FFFF", b"\xf4\x90\x80\x80"), ("truncated 3-byte", b"\xe2\x82"),
                         # quoted by jansson's error: must not break the line
                         ("escaped ESC", b"\\\x1b[31m")]:
            at = good.find(b'"', good.find(b'"content"') + 10) + 1
            yield "%s: bad bytes in a string (%s)" % (tag, bname), fmt, name, good[:at] + b + good[at:]
        if fmt == "jsonl":
            lines = good.split(b"\n")
            for li, line in enumerate(lines):
                if not line.strip():
                    continue
                rec = json.loads(line)
                for p, o in wrong_types(rec):
                    out = list(lines)
                    out[li] = json.dumps(replaced(rec, p, o)).encode()
                    yield "%s: line %d %s is %r" % (tag, li + 1, p, o), fmt, name, b"\n".join(out)
        else:
            v = json.loads(good)
            for p, o in wrong_types(v):
                yield "%s: %s is %r" % (tag, p, o), fmt, name, json.dumps(replaced(v, p, o)).encode()
        for depth in (100, 10000, 100000):
            yield "%s: nested %d deep" % (tag, depth), fmt, name, b"[" * depth + b"]" * depth
        if fmt != "jsonl":
            v = json.loads(good)
            deep = json.loads("[" * 50 + "1" + "]" * 50)
            for p, o in list(wrong_types(v))[:8:2]:
                yield "%s: %s nested 50 deep" % (tag, p), fmt, name, json.dumps(replaced(v, p, deep)).encode()


def load_error(prefix, env, writer):
    """None when the store WRITER wrote loads (recent --json), else why not.
    The check runs the bare binary, not its wrapper (valgrind): the writer
    was what the wrapper watched, and loading a store is what every reader
    of the file does under it"""
    check = subprocess.run(prefix[-1:] + ["recent", "--json"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if check.returncode == 0:
        return None
    return "a store %s wrote does not load: %s" % (writer, check.stderr.decode())


def run_sources(prefix, store, env):
    """every bad source through migrate -f FORMAT and through detection: a
    refusal (1 or 2) names the file and a line:column or a JSON path and
    leaves the store as it was; an acceptance leaves a store that loads"""
    src_dir = os.path.join(os.path.dirname(store), "sources")
    os.makedirs(src_dir, exist_ok=True)
    start = dumps(SMALL)
    n = bad = refused = accepted = 0
    stride = int(os.environ.get("BADINPUT_STRIDE", "1"))
    for i, (what, fmt, name, doc) in enumerate(source_cases()):
        if i % stride:
            continue
        n += 1
        src = os.path.join(src_dir, name)
        with open(src, "wb") as f:
            f.write(doc)
        for args in (["migrate", "-f", fmt, src], ["migrate", src]):
            with open(store, "wb") as f:
                f.write(start)
            r = subprocess.run(prefix + args, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
            with open(store, "rb") as f:
                after = f.read()
            err = r.stderr.decode("utf-8", "replace")
            why = None
            if r.returncode not in (0, 1, 2):
                why = "exit status %d" % r.returncode
            elif temps(store):
                why = "temporary file left"
            elif r.returncode != 0:
                if after != start:
                    why = "store changed by a refused migrate"
                elif not one_line(err, "migrate"):
                    why = "error is not one printable line 'convctl: migrate: ...'"
                elif name not in err:
                    why = "error does not name the file"
                elif not re.search(r"(:\d+:\d+: )|(:\d+: )|(': line \d+: )|(at the top)|(': [^ ]*[\[.][^ ]*: )|(': \$?[\w-]+: )|(not (a|an|one of) )|(no .* in it)|(cannot tell)", err):
                    why = "error names no line:column and no JSON path"
            else:
                why = load_error(prefix, env, "migrate")
            if why:
                bad += 1
                print("FAIL %s: convctl %s: %s; stderr: %s" % (what, " ".join(args[:-1]), why, err.strip()[:300]))
            elif r.returncode:
                refused += 1
            else:
                accepted += 1
    print("sources: %d inputs, %d refused, %d accepted, %d failures" % (n, refused, accepted, bad))
    return bad


def cases(cat):
    small = dumps(SMALL)
    if cat == "truncated":
        small = json.dumps(SMALL, separators=(",", ":")).encode()
        for n in range(len(small)):
            yield "truncated at byte %d" % n, small[:n]
    elif cat == "utf8":
        bad = {"lone continuation": b"\x80", "lone lead byte": b"\xc3",
               "overlong 2-byte '/'": b"\xc0\xaf", "overlong 2-byte NUL": b"\xc0\x80",
               "overlong 3-byte": b"\xe0\x80\xaf", "overlong 4-byte": b"\xf0\x80\x80\xaf",
               "encoded surrogate": b"\xed\xa0\x80", "encoded low surrogate": b"\xed\xbf\xbf",
               "above U+10FFFF": b"\xf4\x90\x80\x80", "5-byte form": b"\xf8\x88\x80\x80\x80",
               "byte 0xff": b"\xff", "byte 0xfe": b"\xfe", "truncated 3-byte": b"\xe2\x82",
               "truncated 4-byte": b"\xf0\x9f\x98", "latin-1 text": b"caf\xe9"}
        for what, b in bad.items():
            for field in ("content", "title", "id", "unknown key"):
                doc = small.replace(b'"Added."', b'"x' + b + b'y"') if field == "content" else \
                    small.replace(b'"title": "t"', b'"title": "' + b + b'"') if field == "title" else \
                    small.replace(b'"m-1"', b'"m' + b + b'"') if field == "id" else \
                    small.replace(b'"lastMigrated"', b'"k' + b + b'": 1, "lastMigrated"')
                yield "%s in %s" % (what, field), doc
    elif cat == "escapes":
        for what, esc in (("lone high surrogate", r"\ud800"), ("lone low surrogate", r"\udc00"),
                          ("reversed pair", r"\udc00\ud800"), ("high then text", r"\ud83dx"),
                          ("bad escape", r"\q"), ("short \\u", r"\u12"), ("raw tab", "\t"),
                          ("raw newline", "\n"), ("raw control", "\x01"),
                          # jansson's error quotes these: still one line
                          ("escaped raw newline", "\\\n"), ("escaped ESC", "\\\x1b[31m")):
            yield what, small.replace(b'"Added."', ('"a%sb"' % esc).encode())
        # a refused value is quoted in the error: still one printable line
        yield "newline and ESC in a role", small.replace(b'"role": "assistant"', b'"role": "as\\nsi\\u001b[31m"')
        yield "newline and ESC in a time", small.replace(b'"2026-02-05T10:00:00.000Z"', b'"2026-02-05\\n\\u001b[31m"', 1)
    elif cat == "duplicates":
        yield "duplicate top key", small.replace(b'"lastMigrated": null', b'"lastMigrated": null, "lastMigrated": null')
        yield "duplicate conversation key", small.replace(b'"title": "t"', b'"title": "t", "title": "u"')
        yield "duplicate message key", small.replace(b'"content": "Hi"', b'"content": "Hi", "content": "Bye"')
        yield "duplicate conversation id", small.replace(b'"conv-2"', b'"conv-1"')
        yield "duplicate key in unknown field", small.replace(b'"lastMigrated"', b'"x": {"a": 1, "a": 2}, "lastMigrated"')
    elif cat == "types":
        values = [1, -1, 1.5, "s", "", None, True, [], {}, ["a"], {"k": 1}]
        paths = [["version"], ["conversations"], ["conversations", 0], ["lastMigrated"]]
        for k in ("id", "startedAt", "endedAt", "title", "summary", "messages"):
            paths.append(["conversations", 0, k])
        paths.append(["conversations", 0, "messages", 0])
        for k in ("id", "timestamp", "role", "content", "toolsUsed"):
            paths.append(["conversations", 0, "messages", 1, k])
        paths.append(["conversations", 0, "messages", 1, "toolsUsed", 0])
        for p in paths:
            for v in values:
                doc = json.loads(json.dumps(SMALL))
                o = doc
                for k in p[:-1]:
                    o = o[k]
                o[p[-1]] = v
                last = p[-1] if isinstance(p[-1], str) else "[%d]" % p[-1]
                yield "%s = %s" % ("/".join(map(str, p)), json.dumps(v)), dumps(doc), last
    elif cat == "nesting":
        for depth in (100, 2000, 2049, 100000):
            yield "unknown field nested %d deep" % depth, small.replace(
                b'"lastMigrated"', b'"deep": ' + b"[" * depth + b"]" * depth + b', "lastMigrated"')
            yield "objects nested %d deep" % depth, small.replace(
                b'"lastMigrated"', b'"deep": ' + b'{"a":' * depth + b"1" + b"}" * depth + b', "lastMigrated"')
        yield "unclosed 100000 deep", b"[" * 100000
    elif cat == "nul":
        yield "raw NUL in a string", small.replace(b'"Added."', b'"Add\x00ed."')
        yield "raw NUL between tokens", small.replace(b'"lastMigrated"', b'\x00"lastMigrated"')
        yield "NUL at the end", small + b"\x00"
        yield "escaped NUL in content", small.replace(b'"Added."', b'"Add\\u0000ed."')
        yield "escaped NUL in a key", small.replace(b'"lastMigrated"', b'"a\\u0000b": 1, "lastMigrated"')
    elif cat == "crlf":
        yield "CRLF line ends", small.replace(b"\n", b"\r\n")
        yield "CR line ends", small.replace(b"\n", b"\r")
        yield "UTF-8 BOM", b"\xef\xbb\xbf" + small
    elif cat == "empty":
        yield "empty file", b""
        yield "only spaces", b"   \n"
        yield "only a newline", b"\n"
    elif cat == "notjson":
        yield "plain text", b"hello world\n"
        yield "binary", bytes(range(256))
        yield "a JSON array", b"[]"
        yield "a JSON string", b'"store"'
        yield "a JSON number", b"1"
        yield "two objects", b"{}{}"
        yield "trailing garbage", small + b"x"
        yield "JSON lines", b'{"a":1}\n{"b":2}\n'
    elif cat == "version":
        for v in (0, 2, 99, -1, "1", 1.0, 1e300):
            doc = json.loads(json.dumps(SMALL))
            doc["version"] = v
            yield "version %s" % json.dumps(v), dumps(doc)
        yield "version 1 of 2^64", small.replace(b'"version": 1', b'"version": 18446744073709551617')
    elif cat == "big":
        # 50 MB, or 10 in make check (neither TEST_FULL nor BADINPUT_FULL)
        mb = 50 if os.environ.get("BADINPUT_FULL") or os.environ.get("TEST_FULL") else 10
        doc = json.loads(json.dumps(SMALL))
        doc["conversations"][1]["messages"][0]["content"] = "\u00e9" * (mb // 2 * 1024 * 1024)
        yield "a %d MB message" % mb, dumps(doc)
    elif cat.startswith("corpus="):
        for f in sorted(glob.glob(os.path.join(cat[7:], "*"))):
            with open(f, "rb") as fh:
                yield "corpus %s" % os.path.basename(f), fh.read()


def temps(store):
    d, b = os.path.split(store)
    return glob.glob(os.path.join(d, "." + b + ".*"))


def loads_as_json(doc):
    try:
        json.loads(doc.decode("utf-8"))
        return True
    except (ValueError, RecursionError):
        return False


def write(top, cats):
    """the inputs of each category of cats as files under top/CATEGORY, and
    top/CATEGORY/list (see the docstring)"""
    stride = int(os.environ.get("BADINPUT_STRIDE", "1"))
    os.makedirs(top, exist_ok=True)
    # the good migrate source the writers' migrate reads; the store the
    # sources are migrated into
    with open(os.path.join(FIXTURES, "messages.json"), "rb") as f:
        good_source = f.read()
    with open(os.path.join(top, "source.json"), "wb") as f:
        f.write(good_source)
    with open(os.path.join(top, "start.json"), "wb") as f:
        f.write(dumps(SMALL))
    for cat in cats:
        every = stride
        if re.search(r":\d+$", cat):
            cat, every = cat.rsplit(":", 1)
            every = int(every)
        d = os.path.join(top, cat.split("=")[0])
        os.makedirs(d, exist_ok=True)
        gen = source_cases() if cat == "sources" else cases(cat)
        with open(os.path.join(d, "list"), "w") as lst:
            for i, case in enumerate(gen):
                if i % every:
                    continue
                if cat == "sources":
                    what, fmt, name, doc = case
                    line = "%d\t%s\t%s\t%s\n" % (i, fmt, name, what)
                else:
                    what, doc = case[0], case[1]
                    place = case[2] if len(case) > 2 else ""
                    json_ok = 1 if loads_as_json(doc.replace(b"\r", b"")) else 0
                    line = "%d\t%d\t%s\t%s\n" % (i, json_ok, place, what)
                with open(os.path.join(d, str(i)), "wb") as f:
                    f.write(doc)
                lst.write(line)


def main():
    argv = sys.argv[1:]
    if argv[0] == "write":
        write(argv[1], argv[2:])
        return
    cat = argv[0]
    prefix = argv[argv.index("--") + 1:]
    store = os.environ["CONVCTL_STORE"]
    env = dict(os.environ, CONVCTL_NOW="2026-06-01T00:00:00Z")
    if cat == "sources":
        sys.exit(1 if run_sources(prefix, store, env) else 0)
    source = os.path.join(os.path.dirname(store), "source.json")
    with open(os.path.join(FIXTURES, "messages.json"), "rb") as f:
        good_source = f.read()
    n = bad = refused = accepted = 0
    # BADINPUT_STRIDE=K tries every Kth input only (for slow wrappers)
    stride = int(os.environ.get("BADINPUT_STRIDE", "1"))
    for i, case in enumerate(cases(cat)):
        if i % stride:
            continue
        what, doc = case[0], case[1]
        # where the error must point: the field, or a line and column
        place = case[2] if len(case) > 2 else None
        n += 1
        results = []
        # every byte of a store: the readers that must succeed, two writers
        cmds = READERS[2:] + WRITERS[:2] if cat == "truncated" else READERS + WRITERS
        # the 50 MB store costs seconds a command: one reader and one writer
        # unless BADINPUT_FULL asks for every command (make stress, CI)
        if cat == "big" and not (os.environ.get("BADINPUT_FULL") or os.environ.get("TEST_FULL")):
            cmds = [READERS[2], WRITERS[0]]
        for args in cmds:
            with open(store, "wb") as f:
                f.write(doc)
            with open(source, "wb") as f:
                f.write(good_source)
            # under a wrapper (valgrind), once the first command refused the
            # store, the rest run bare but the first writer: the others are
            # refused by the same load, which the wrapper has watched
            run = prefix
            if results and results[0] == 1 and args != WRITERS[0]:
                run = prefix[-1:]
            r = subprocess.run(run + [source if a == "SOURCE" else a for a in args], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
            with open(store, "rb") as f:
                after = f.read()
            err = r.stderr.decode("utf-8", "replace")
            results.append(r.returncode)
            why = None
            if r.returncode not in (0, 1):
                why = "exit status %d" % r.returncode
            elif temps(store):
                why = "temporary file left"
            elif r.returncode == 1:
                if after != doc:
                    why = "store changed by a refused %s" % args[0]
                elif not one_line(err, args[0]):
                    why = "error is not one printable line 'convctl: %s: ...'" % args[0]
                elif store not in err:
                    why = "error does not name the store"
                elif "no conversations in" in err:
                    pass
                elif place is not None and place not in err:
                    why = "error does not name the field %s" % place
                elif place is None and not re.search(r"(:\d+:\d+: )|(conversations|version|lastMigrated|at the top)", err):
                    why = "error names no line:column and no JSON path"
            elif args in WRITERS:
                why = load_error(prefix, env, args[0])
            if why:
                bad += 1
                print("FAIL %s: convctl %s: %s; stderr: %s" % (what, " ".join(args), why, err.strip()[:300]))
        # recent and prompt succeed on any store that loads (show fails
        # on one without conversations): they say whether it was accepted
        if all(rc == 1 for rc in results):
            refused += 1
        elif all(rc == 0 for a, rc in zip(cmds, results) if a in READERS[2:]):
            accepted += 1
        else:
            bad += 1
            print("FAIL %s: readers disagree: %s" % (what, results))
        # a store accepted by a reader must be JSON; refused by one, by all
        if 0 in results and doc.strip() and not loads_as_json(doc.replace(b"\r", b"")):
            bad += 1
            print("FAIL %s: accepted, yet it is not JSON" % what)
    print("%s: %d inputs, %d refused, %d accepted, %d failures" % (cat, n, refused, accepted, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
