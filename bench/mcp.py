#!/usr/bin/env python3
"""mcp.py CONVCTL STORE ID [CALLS] - `convctl mcp` over a long session.

Starts `convctl -s STORE mcp`, initializes, then makes CALLS tool calls (1000
by default) that read: context, recent and show ID in turn, and a search
(which reads every conversation) the 5th call and every 50th after, so that
the first 10 calls have used each tool once. Its resident set (VmRSS, read from
/proc between calls, while the server waits for the next line) after the
10th call and after the last must not differ by more than 10 %: the server
keeps nothing from one call to the next. Then `context` answered in the
session against `convctl prompt` run as a command, each timed 20 times
(after 2 warm-ups) by this same clock: a call must take at most twice the
command. Prints a Markdown table, and exits 1 when a target is missed.
"""
import json
import statistics
import subprocess
import sys
import time

TIMED = 20


def rss_kib(pid):
    with open("/proc/%d/status" % pid, encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for %d" % pid)


class Session:
    def __init__(self, convctl, store):
        self.p = subprocess.Popen([convctl, "-s", store, "mcp"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.n = 0

    def ask(self, method, params):
        self.n += 1
        msg = {"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}
        self.p.stdin.write(json.dumps(msg).encode() + b"\n")
        self.p.stdin.flush()
        a = json.loads(self.p.stdout.readline())
        if "error" in a or a["result"].get("isError"):
            sys.exit("mcp.py: %s %s: %s" % (method, params, a))
        return a["result"]

    def call(self, name, args):
        return self.ask("tools/call", {"name": name, "arguments": args})

    def close(self):
        self.p.stdin.close()
        if self.p.wait(60) != 0:
            sys.exit("mcp.py: convctl mcp exited %d" % self.p.returncode)


def main():
    convctl, store, conv = sys.argv[1:4]
    total = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    cycle = [("context", {}), ("recent", {"limit": 10}), ("show", {"id": conv})]
    s = Session(convctl, store)
    s.ask("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "1"}})
    early = late = None
    trend = []
    for i in range(1, total + 1):
        if i % 50 == 5:
            s.call("search", {"query": "deploy server merge", "limit": 10})
        else:
            s.call(*cycle[i % len(cycle)])
        if i == 10:
            early = rss_kib(s.p.pid)
        if i in (100, 500):
            trend.append((i, rss_kib(s.p.pid)))
    late = rss_kib(s.p.pid)

    def timed(f):
        for _ in range(2):
            f()
        ts = []
        for _ in range(TIMED):
            t0 = time.perf_counter()
            f()
            ts.append((time.perf_counter() - t0) * 1000)
        return statistics.median(ts)

    context = timed(lambda: s.call("context", {}))
    s.close()
    prompt = timed(lambda: subprocess.run([convctl, "-s", store, "prompt"],
                                          stdout=subprocess.DEVNULL, check=True))
    growth = (late - early) / early * 100
    ratio = context / prompt
    ok_mem, ok_time = abs(growth) <= 10, ratio <= 2
    print("| measure | value | target | met |")
    print("|---|---:|---|---|")
    print("| RSS after 10 calls | %.1f MB | | |" % (early / 1024))
    for i, kib in trend:
        print("| RSS after %d calls | %.1f MB | | |" % (i, kib / 1024))
    print("| RSS after %d calls | %.1f MB (%+.1f %%) | within 10 %% | %s |"
          % (total, late / 1024, growth, "yes" if ok_mem else "NO"))
    print("| `context` per call, median | %.1f ms | | |" % context)
    print("| `convctl prompt`, median | %.1f ms | | |" % prompt)
    print("| context ÷ prompt | %.2f | at most 2 | %s |"
          % (ratio, "yes" if ok_time else "NO"))
    return 0 if ok_mem and ok_time else 1


if __name__ == "__main__":
    sys.exit(main())
