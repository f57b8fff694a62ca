#!/usr/bin/env python3
"""bigstore.py N [ACTIVE] - a valid store of N ended conversations (and one
active one when ACTIVE is 1), large enough that writing it takes a while."""
import json
import sys

n = int(sys.argv[1])
active = len(sys.argv) > 2 and sys.argv[2] == "1"
convs = []
base = 1767225600000  # 2026-01-01T00:00:00Z


def ts(ms):
    s, ms = divmod(ms, 1000)
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + ".%03dZ" % ms


for i in range(n + (1 if active else 0)):
    t = base + i * 3600000
    msgs = [{"id": "m-%d-%d" % (i, k), "timestamp": ts(t + k * 1000),
             "role": "user" if k % 2 == 0 else "assistant",
             "content": ("message %d of conversation %d, caf\u00e9 \u2603 " % (k, i)) * 8}
            for k in range(6)]
    convs.append({"id": "conv-%d" % t, "startedAt": ts(t),
                  "endedAt": None if i == n else ts(t + 10000),
                  "title": "t%d" % i, "summary": None, "messages": msgs,
                  "x-unknown": {"kept": i}})
# dumps, not dump: dump writes through the pure-Python encoder, bit by
# bit, and takes twice as long for the same bytes
sys.stdout.write(json.dumps({"version": 1, "conversations": convs,
                             "extra": [1, 2]}, ensure_ascii=False))
