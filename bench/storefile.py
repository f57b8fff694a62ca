"""storefile.py - what bench/gen.py and bench/gen-mixed.py share: convctl's
time format and the store file laid out as convctl writes it (one
conversation a line), so that the first write does not change its size."""
import json
import time


def ts(ms):
    """ms since the epoch as convctl writes a time: 2025-01-01T00:00:00.000Z"""
    sec, milli = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)) + ".%03dZ" % milli


def write_store(path, convs, n=None):
    """writes convs (a list, or an iterator of n) to path; prints, for the
    bench, the id of the conversation in the middle and the time of the
    last message"""
    if n is None:
        n = len(convs)
    mid = last = None
    with open(path, "w", encoding="utf-8") as f:
        f.write('{\n  "version": 1,\n  "conversations": [')
        for i, c in enumerate(convs):
            f.write(",\n    " if i else "\n    ")
            f.write(json.dumps(c, ensure_ascii=False, separators=(",", ":")))
            if i == n // 2:
                mid = c["id"]
            last = c
        f.write("\n  ]" if last is not None else "]")
        f.write("\n}\n")
    print(mid, last["messages"][-1]["timestamp"])
