#!/usr/bin/env python3
"""table.py RAW RSS WORKDIR [IMPORT] - the benchmark's one table, as Markdown.

RAW lines: command, N, which (convctl, floor, jq, python), median wall ms,
mean CPU ms (user + system).
RSS lines: command, N, peak RSS in KiB. WORKDIR holds base-N.json.
Rows whose "which" is "stream" make a second table: `convctl run -- cat`
against the plain `cat` it wraps (BASE says which), and against its floor:
that cat, then "stream-floor", `floor write` of the store the run left.
IMPORT lines: command, source bytes, peak RSS in KiB, the store's bytes: a
table of each import's peak memory over its source's size (target: 3x).
"""
import os
import sys

WRITES = ("add", "end")
TARGET_FLOOR = {"add": 2, "end": 2, "prompt": 3, "recent -n 10": 3, "show ID": 3}
# each `convctl run` row, and the plain cat it is measured against
BASE = {"run --prompt FILE -- cat": "cat FILE",
        "the same, not kept": "cat FILE",
        "run -- cat < FILE": "cat < FILE"}


def main():
    raw, rss, work = sys.argv[1:4]
    imports = sys.argv[4] if len(sys.argv) > 4 else None
    t = {}
    cpu = {}
    for line in open(raw, encoding="utf-8"):
        cmd, n, which, ms, cms = line.rstrip("\n").split("\t")
        t[(cmd, n, which)] = float(ms)
        cpu[(cmd, n, which)] = float(cms)
    mem = {}
    for line in open(rss, encoding="utf-8"):
        cmd, n, kb = line.rstrip("\n").split("\t")
        mem[(cmd, n)] = int(kb)
    rows = []
    order = []
    for (cmd, n, which) in t:
        if which == "convctl" and (cmd, n) not in order:
            order.append((cmd, n))
    print("| command | N | store MB | convctl ms | floor ms | x floor | jq ms "
          "| jq / convctl | python3 ms | convctl CPU ms | floor CPU ms "
          "| peak RSS MB | RSS limit MB | targets |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for cmd, n in order:
        ms = t[(cmd, n, "convctl")]
        size = 0
        if n != "-":
            size = os.path.getsize(os.path.join(work, "base-%s.json" % n))
        fkey = ("floor-write" if cmd in WRITES else
                "floor-read" if n != "-" else "start", n, "floor")
        fl = t.get(fkey)
        jq = t.get((cmd, n, "jq"))
        py = t.get((cmd, n, "python"))
        kb = mem.get((cmd, n))
        limit = 1.5 * size / 2**20 + 8
        notes = []
        if fl and cmd in TARGET_FLOOR and n in ("1000", "5000"):
            ok = ms / fl <= TARGET_FLOOR[cmd]
            notes.append("floor %s" % ("ok" if ok else "MISSED"))
        if jq and n in ("1000", "-") and cmd != "--version":
            notes.append("jq %s" % ("ok" if jq / ms >= 10 else "MISSED"))
        if kb is not None:
            notes.append("rss %s" % ("ok" if kb / 1024 <= limit else "MISSED"))
        if cmd == "--version":
            notes.append("2 ms %s" % ("ok" if ms <= 2 else "MISSED"))
        print("| %s | %s | %s | %.2f | %s | %s | %s | %s | %s | %.1f | %s | %s | %.1f | %s |" % (
            cmd, n, "%.1f" % (size / 2**20) if size else "-", ms,
            "%.2f" % fl if fl else "-", "%.2f" % (ms / fl) if fl else "-",
            "%.1f" % jq if jq else "-", "%.1f" % (jq / ms) if jq else "-",
            "%.1f" % py if py else "-", cpu[(cmd, n, "convctl")],
            "%.1f" % cpu[fkey] if fkey in cpu else "-",
            "%.1f" % (kb / 1024) if kb is not None else "-", limit,
            ", ".join(notes)))
    stream(t, cpu, mem)
    ratios(t, cpu)
    if imports:
        imported(imports)


IMPORT_TARGET = 3


def imported(path):
    """migrate's time and peak RSS against its source's size (issue 40,
    item 11; issue 45: each importer with a generator)"""
    rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8")
            if line.strip()]
    if not rows:
        return
    print()
    print("| import | source MiB | store MiB | s | MiB/s | peak RSS MiB "
          "| x source | target |")
    print("|---|---|---|---|---|---|---|---|")
    for cmd, size, kb, store, secs in rows:
        r = int(kb) * 1024 / int(size)
        s = float(secs)
        print("| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | <= %dx %s |" % (
            cmd, int(size) / 2**20, int(store) / 2**20, s,
            int(size) / 2**20 / s if s > 0 else 0, int(kb) / 1024, r,
            IMPORT_TARGET, "ok" if r <= IMPORT_TARGET else "MISSED"))


def stream(t, cpu, mem):
    """the run-overhead table: targets 1.2x cat's wall time, +1 MB RSS; and
    the same against the floor: cat, then `floor write` of the store the
    run left (rows "stream-floor"), times added, peak RSS the larger"""
    rows = [(cmd, n) for (cmd, n, which) in t if which == "stream"]
    if not rows:
        return
    print()
    print("| command (10 MiB stream) | ms | x cat | floor ms | x floor "
          "| CPU ms | floor CPU ms | peak RSS MB | + over cat MB "
          "| floor RSS MB | + over floor MB | targets |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for cmd, n in rows:
        ms, kb = t[(cmd, n, "stream")], mem.get((cmd, n))
        base = BASE.get(cmd)
        bms = t.get((base, n, "stream")) if base else None
        bkb = mem.get((base, n)) if base else None
        wms = t.get((cmd, n, "stream-floor"))
        wkb = mem.get((cmd + " (floor)", n))
        fms = bms + wms if bms and wms else None
        fcpu = (cpu[(base, n, "stream")] + cpu[(cmd, n, "stream-floor")]
                if fms else None)
        fkb = max(bkb, wkb) if bkb is not None and wkb is not None else None
        notes = []
        if bms:
            notes.append("1.2x %s" % ("ok" if ms / bms <= 1.2 else "MISSED"))
        if kb is not None and bkb is not None:
            notes.append("+1 MB %s" % ("ok" if (kb - bkb) / 1024 <= 1
                                       else "MISSED"))
        if fms:
            notes.append("1.2x floor %s" % ("ok" if ms / fms <= 1.2
                                             else "MISSED"))
        if kb is not None and fkb is not None:
            notes.append("+1 MB over floor %s" % (
                "ok" if (kb - fkb) / 1024 <= 1 else "MISSED"))

        def mb(v):
            return "%.1f" % (v / 1024) if v is not None else "-"
        print("| %s | %.1f | %s | %s | %s | %.1f | %s | %s | %s | %s | %s "
              "| %s |" % (
                  cmd, ms, "%.2f" % (ms / bms) if bms else "-",
                  "%.1f" % fms if fms else "-",
                  "%.2f" % (ms / fms) if fms else "-",
                  cpu[(cmd, n, "stream")],
                  "%.1f" % fcpu if fcpu is not None else "-", mb(kb),
                  mb(kb - bkb) if kb is not None and bkb is not None
                  else "-", mb(fkb),
                  mb(kb - fkb) if kb is not None and fkb is not None
                  else "-", ", ".join(notes)))


# issue 18's ratios: (row, its convctl command, the other command and which
# measured it, the target the ratio is held to: at most, or below)
RATIOS = [("search / grep -ci", "search", "search", "grep", 3),
          ("search / jq", "search", "search", "jq", 1),
          ("end / add", "end", "add", "convctl", None)]


def ratios(t, cpu):
    """convctl's time over another's, wall and CPU, for each N measured"""
    rows = []
    for name, cmd, other, which, target in RATIOS:
        for (c, n, w) in t:
            if w != "convctl" or not (c == cmd or c.startswith(cmd + " '")):
                continue
            o = other if c == cmd else c
            if (o, n, which) not in t:
                continue
            r = t[(c, n, w)] / t[(o, n, which)]
            rc = cpu[(c, n, w)] / cpu[(o, n, which)] if cpu[(o, n, which)] else 0
            note = "-" if target is None else \
                "%s %s" % ("<=" if target > 1 else "<", "ok" if (
                    r <= target if target > 1 else r < target) else "MISSED")
            rows.append("| %s | %s | %s | %.1f | %.1f | %.2f | %.2f | %s |" % (
                name, c if c != cmd else cmd, n, t[(c, n, w)],
                t[(o, n, which)], r, rc, note))
    if not rows:
        return
    print()
    print("| ratio | command | N | convctl ms | other ms | x wall | x CPU "
          "| target |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
