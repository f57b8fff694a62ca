#!/usr/bin/env python3
"""gen-aider.py MB SEED OUT - writes an .aider.chat.history.md of about MB
megabytes, as aider appends to it (aider/io.py).

Sessions of 3 to 15 exchanges (text from gen.py): aider's start-up lines,
then for each exchange the person's lines ("#### ", two spaces at the end),
the model's reply (some with a SEARCH/REPLACE edit block) and aider's own
lines ("> ": tokens, edits applied, commits). For migrate's speed and memory
on a large log.
"""
import datetime

from gen import text
from sources import arguments


def main():
    mb, rng, out = arguments()
    want = int(mb * 1000 * 1000)
    t = 1735689600
    n = 0
    with open(out, "w", encoding="utf-8") as f:
        while n < want:
            when = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
            s = ["", "# aider chat started at %s" % when.strftime("%Y-%m-%d %H:%M:%S"),
                 "", "> aider --model sonnet  ", "> Aider v0.86.1  ",
                 "> Git repo: .git with 40 files  ", ""]
            for k in range(rng.randint(3, 15)):
                said = [ln.strip() or "-" for ln in text(rng)[:300].splitlines()]
                s += ["#### %s  " % ln for ln in said] + [""]
                reply = [ln if not ln.startswith(("#", ">")) else "- " + ln
                         for ln in text(rng).splitlines()]
                s += reply + [""]
                if rng.random() < 0.4:
                    s += ["app.py", "```python", "<<<<<<< SEARCH",
                          "    return x", "=======", "    return x + 1",
                          ">>>>>>> REPLACE", "```", "",
                          "> Tokens: 3.2k sent, 118 received.  ",
                          "> Applied edit to app.py  ",
                          "> Commit %07x fix: add one  " % rng.getrandbits(28), ""]
            t += rng.randint(3600, 86400)
            chunk = "\n".join(s) + "\n"
            f.write(chunk)
            n += len(chunk.encode())


if __name__ == "__main__":
    main()
