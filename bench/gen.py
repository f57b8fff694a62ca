#!/usr/bin/env python3
"""gen.py N SEED OUT - writes a realistic convctl store of N conversations.

Each conversation has about 20 messages of 50 to 3000 characters mixing
ASCII prose with accents, emoji, CJK, quotes, newlines, tabs and
backslashes; some assistant messages carry toolsUsed; the last conversation
is active. The file is laid out as convctl writes it (one conversation a
line), so the first write does not change its size. Prints, for the bench,
the id of the conversation in the middle and the time of the last message.
"""

from sources import arguments
from storefile import ts, write_store

WORDS = (
    "the of and to in is that for it as with was on be at by this had not are "
    "but from or have an they which one you were her all she there would their "
    "we him been has when who will more no if out so said what up its about "
    "into than them can only other new some could time these two may then do "
    "first any my now such like our over man me even most made after also did "
    "list file note grocery milk eggs bread meeting calendar reminder project "
    "function return value error build test commit branch merge deploy server"
).split()
SPICE = [
    "café", "naïve", "Größe", "façade", "señor", "crème brûlée", "Ærø", "jalapeño",
    "🙂", "🚀", "👍🏽", "🇫🇷", "❤️", "✅", "🤖",
    "日本語", "中文字符", "한국어", "東京都", "漢字テスト", "Привет", "Ελληνικά", "עברית",
    '"quoted"', "'single'", "“curly”", "«guillemets»",
    "C:\\Users\\me\\notes.md", "regex \\d+\\s*", "a\\b", "\\n literally",
    "\n", "\n\n", "\t", "- item\n- item\n",
]
TOOLS = ["read_file", "edit_file", "write_file", "search", "list_dir", "run_shell", "web_fetch"]


def text(rng):
    want = int(rng.triangular(50, 3000, 350))
    # rng.choice(seq) is seq[rng._randbelow(len(seq))]: the same draws,
    # without a call through choice for each of the 2e8 words at 100,000
    random, below = rng.random, rng._randbelow
    nspice, nwords = len(SPICE), len(WORDS)
    out = []
    n = 0
    while n < want:
        w = SPICE[below(nspice)] if random() < 0.12 else WORDS[below(nwords)]
        out.append(w)
        n += len(w) + 1
    s = " ".join(out)
    return s[:want].strip() or "ok"


def conversations(n, rng):
    """the n conversations, made one at a time (at 100,000 the store is
    2.6 GB: it is written as it is made, not held)"""
    t = 1735689600000  # 2025-01-01T00:00:00.000Z
    for i in range(n):
        t += rng.randint(3600, 86400) * 1000
        start = t
        msgs = []
        for k in range(rng.randint(15, 25)):
            t += rng.randint(2000, 120000)
            role = "user" if k % 2 == 0 else "assistant"
            m = {"id": "m-%d-%08x" % (t, rng.getrandbits(32)), "timestamp": ts(t),
                 "role": role, "content": text(rng)}
            if role == "assistant" and rng.random() < 0.3:
                m["toolsUsed"] = rng.sample(TOOLS, rng.randint(1, 3))
            msgs.append(m)
        active = i == n - 1
        titled = not active and rng.random() < 0.6
        c = {"id": "conv-%d" % start, "startedAt": ts(start),
             "endedAt": None if active else ts(t + 60000),
             "title": ("Talk %d about %s" % (i, rng.choice(SPICE).strip() or "x")) if titled else None,
             "summary": text(rng)[:300] if titled else None,
             "messages": msgs}
        yield c


def main():
    n, rng, out = arguments(int)
    write_store(out, conversations(n, rng), n)


if __name__ == "__main__":
    main()
