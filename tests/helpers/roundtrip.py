#!/usr/bin/env python3
"""roundtrip.py - random stores through convctl, compared by an independent parser.

  roundtrip.py gen SEED FILE...  writes a random store: unknown fields at every
                                 level (top, conversation, message, nested)
                                 holding numbers of every shape, strings with
                                 NUL and keys with NUL, whitespace or not;
                                 SEED FILE again for each store more
  roundtrip.py check OLD NEW     NEW is OLD after a write: every value and every
                                 number's text kept, the active conversation
                                 only grown (messages appended, endedAt set),
                                 nothing else changed, version 1 at the top;
                                 OLD NEW again for each pair more
  roundtrip.py conv OLD ID JSON  JSON (show --format json) is conversation ID
                                 of OLD, number texts included; OLD ID JSON
                                 again for each more
A failure names the files it was found in.

Python's json module reads numbers as their text here (parse_int, parse_float
and parse_constant), so 0.1, 1e400, -0 and 1.0 compare as written.
"""
import json
import random
import sys

NUMBERS = ["0", "-0", "1", "-5", "0.1", "1.0", "-0.0", "1e400", "-1E-400",
           "2.5E+3", "123456789012345678901234567890",
           "-99999999999999999999", "9223372036854775807",
           "9223372036854775808", "3.141592653589793238462643383279",
           "1e-7", "100", "0.30000000000000004", "5e0"]


def load(text):
    def pairs(p):
        return ("obj", tuple(p))
    return json.loads(text, parse_int=lambda t: ("num", t),
                      parse_float=lambda t: ("num", t),
                      parse_constant=lambda t: ("num", t),
                      object_pairs_hook=pairs)


def get(obj, key, default=None):
    for k, v in obj[1]:
        if k == key:
            return v
    return default


def without(obj, *keys):
    return ("obj", tuple((k, v) for k, v in obj[1] if k not in keys))


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def num(self):
        return self.r.choice(NUMBERS)

    def key(self):
        return self.r.choice(["x", "n", "k\\u0000", "\\u0000", "deep", "é",
                              "m" + str(self.r.randrange(100))])

    def value(self, depth=0):
        c = self.r.randrange(8 if depth < 3 else 4)
        if c <= 1:
            return self.num()
        if c == 2:
            return self.r.choice(['"s"', '"\\u0000a"', '"0.1"', "true",
                                  "null", '"\\u0000N1"'])
        if c == 3:
            return "[" + ",".join(self.num() for _ in range(3)) + "]"
        if c <= 5:
            return "[" + self.sep().join(self.value(depth + 1)
                                          for _ in range(self.r.randrange(4))) + "]"
        return self.obj([], depth + 1)

    def sep(self):
        return self.r.choice([",", ", ", ",\n  "])

    def obj(self, fields, depth=0):
        keys = {k for k, _ in fields}
        fields = list(fields)
        for _ in range(self.r.randrange(4)):
            k = self.key()
            if k not in keys and k.replace("\\u0000", "\0") not in keys:
                keys.add(k)
                fields.insert(self.r.randrange(len(fields) + 1),
                              (k, self.value(depth)))
        colon = self.r.choice([":", ": "])
        return "{" + self.sep().join('"%s"%s%s' % (k, colon, v)
                                     for k, v in fields) + "}"

    def store(self):
        convs = []
        n = self.r.randrange(1, 5)
        t = 1770000000
        for i in range(n):
            msgs = []
            for j in range(self.r.randrange(4)):
                t += 60
                msgs.append(self.obj([
                    ("id", '"m%d-%d"' % (i, j)),
                    ("timestamp", '"%s"' % stamp(t)),
                    ("role", '"%s"' % self.r.choice(["user", "assistant"])),
                    ("content", '"c%d \\u0000 %d"' % (i, j))]))
            start = stamp(t - 600)
            active = i == n - 1 and self.r.random() < 0.7
            convs.append(self.obj([
                ("id", '"c%d"' % i), ("startedAt", '"%s"' % start),
                ("endedAt", "null" if active else '"%s"' % stamp(t + 1)),
                ("title", "null"), ("summary", "null"),
                ("messages", "[" + ",".join(msgs) + "]")]))
            t += 3600
        return self.obj([("version", "1"),
                         ("conversations", "[" + ",\n".join(convs) + "]")])


def stamp(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(t))


def fail(msg):
    print("%s: %s" % (" ".join(CURRENT), msg))
    sys.exit(1)


CURRENT = []


def check(old_path, new_path):
    old = load(open(old_path, encoding="utf-8").read())
    new = load(open(new_path, encoding="utf-8").read())
    if get(new, "version") != ("num", "1"):
        fail("no version 1 at the top")
    if without(old, "version", "conversations") != without(new, "version", "conversations"):
        fail("top-level fields differ:\n%r\n%r" % (old, new))
    oc = {get(c, "id"): c for c in get(old, "conversations")}
    nc = {get(c, "id"): c for c in get(new, "conversations")}
    for cid, c in oc.items():
        if cid not in nc:
            fail("conversation %s lost" % cid)
        d = nc[cid]
        if get(c, "endedAt") is None:
            c, d = without(c, "endedAt"), without(d, "endedAt")
        om, nm = get(c, "messages"), get(d, "messages")
        if without(c, "messages") != without(d, "messages"):
            fail("conversation %s's fields differ:\n%r\n%r" % (cid, c, d))
        if list(nm[:len(om)]) != list(om):
            fail("conversation %s's messages differ:\n%r\n%r" % (cid, om, nm))


def main():
    if sys.argv[1] == "gen":
        for seed, path in zip(sys.argv[2::2], sys.argv[3::2]):
            with open(path, "w", encoding="utf-8") as f:
                f.write(Gen(int(seed)).store() + "\n")
    elif sys.argv[1] == "check":
        for old, new in zip(sys.argv[2::2], sys.argv[3::2]):
            CURRENT[:] = [old, new]
            check(old, new)
    elif sys.argv[1] == "conv":
        args = sys.argv[2:]
        for old_path, cid, json_path in zip(args[0::3], args[1::3], args[2::3]):
            CURRENT[:] = [old_path, cid, json_path]
            old = load(open(old_path, encoding="utf-8").read())
            want = [c for c in get(old, "conversations") if get(c, "id") == cid][0]
            got = load(open(json_path, encoding="utf-8").read())
            if got != want:
                fail("show differs:\n%r\n%r" % (want, got))


main()
