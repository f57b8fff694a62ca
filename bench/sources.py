"""sources.py - what bench's generators share: their arguments (SIZE SEED
OUT: how much, the seed of the one random.Random they draw from, where),
the ids the tools give (UUID version 4, from that generator), and a JSON
array written an item at a time up to a size. The text is bench/gen.py's
text(); convctl's store is bench/storefile.py's."""
import json
import random
import sys
import uuid


def arguments(size=float):
    """SIZE (megabytes, or conversations with size=int), the generator
    seeded with SEED, and OUT, from the command line"""
    return size(sys.argv[1]), random.Random(int(sys.argv[2])), sys.argv[3]


def uid(rng):
    """a UUID version 4 drawn from rng"""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def spaced(rng, make, t=1735689600.0):
    """make(t) -> (item, the time it ends) again and again, each an hour to
    a day after the one before, from 2025-01-01: the items"""
    while True:
        item, t = make(t)
        t += rng.uniform(3600, 86400)
        yield item


def write_array(path, want, items):
    """a JSON array of items (an iterator, drawn from only while the file
    is under want bytes) written to path, as one line"""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        f.write("[")
        while n < want:
            s = json.dumps(next(items), ensure_ascii=False)
            f.write((", " if n else "") + s)
            n += len(s.encode()) + 2
        f.write("]")
