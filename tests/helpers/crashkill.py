#!/usr/bin/env python3
"""crashkill.py - kill a convctl write at random moments; check what is left.

Usage: crashkill.py --store PATH --before FILE --trials N --seed S
                    [--follow ARG]... -- COMMAND...

First COMMAND runs to completion on a copy of FILE: that gives the state
after, and how long a run takes. Then, N times: the store is reset to FILE
(stale temporary and lock files of earlier trials are left where they are),
COMMAND is started and sent SIGKILL after a random delay up to 1.3 times that
duration. The store must then be byte for byte the state before, or parse and
equal the state after (message ids, which are random, aside), or the state
a --between command leaves (COMMAND's first words with the --between
arguments, or COMMAND itself under the --between-env NAME=VALUE variables,
run on FILE): a step COMMAND documents, such as `end` having
written the end but not yet the summary. Then the
follow-up command (COMMAND's first words with the --follow arguments) must
succeed and leave no temporary file, so nothing a killed run left blocks or
confuses the next one. Prints one summary line; on failure, the seed and the
trial, so `--seed S` replays it exactly.
"""
import argparse
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time


def normal(text):
    doc = json.loads(text)
    for c in doc.get("conversations", []):
        for m in c.get("messages", []):
            m.pop("id", None)
    return doc


def temps(store):
    d, b = os.path.split(store)
    return glob.glob(os.path.join(d or ".", "." + b + ".*"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--before", required=True)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--prefix", type=int, default=1,
                    help="how many words of COMMAND are the program")
    ap.add_argument("--follow", action="append", default=[])
    ap.add_argument("--between", action="append", default=[])
    ap.add_argument("--between-env", action="append", default=[])
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 30)
    rng = random.Random(seed)
    name = " ".join(cmd[a.prefix:])

    def fail(trial, why):
        print("FAIL %s: trial %d: %s (replay: --seed %d)" % (name, trial, why, seed))
        sys.exit(1)

    with open(a.before, "rb") as f:
        before = f.read()
    shutil.copyfile(a.before, a.store)
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.monotonic() - t0
    if r.returncode != 0:
        fail(-1, "reference run exited %d: %s" % (r.returncode, r.stderr.decode()))
    with open(a.store, "rb") as f:
        after = normal(f.read())
    if after == normal(before):
        fail(-1, "the command changes nothing; the test would prove nothing")

    between = None
    if a.between or a.between_env:
        shutil.copyfile(a.before, a.store)
        env = dict(os.environ)
        env.update(v.split("=", 1) for v in a.between_env)
        r = subprocess.run(cmd[:a.prefix] + a.between if a.between else cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=env)
        if r.returncode != 0:
            fail(-1, "--between run exited %d: %s" % (r.returncode, r.stderr.decode()))
        with open(a.store, "rb") as f:
            between = normal(f.read())

    seen = {"before": 0, "after": 0, "between": 0, "mid-write": 0}
    follow = cmd[:a.prefix] + a.follow
    for trial in range(a.trials):
        shutil.copyfile(a.before, a.store)
        delay = rng.uniform(0, took * 1.3)
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
        if temps(a.store):
            seen["mid-write"] += 1
        with open(a.store, "rb") as f:
            got = f.read()
        if got == before:
            seen["before"] += 1
        else:
            try:
                doc = normal(got)
            except ValueError as e:
                fail(trial, "torn store after a kill at %.4fs: %s" % (delay, e))
            if doc == after:
                seen["after"] += 1
            elif between is not None and doc == between:
                seen["between"] += 1
            else:
                fail(trial, "store is neither the state before nor after "
                     "(kill at %.4fs)" % delay)
        r = subprocess.run(follow, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if r.returncode != 0:
            fail(trial, "the next run failed after a kill at %.4fs: %s"
                 % (delay, r.stderr.decode().strip()))
        if temps(a.store):
            fail(trial, "temporary files left after the next run: %s" % temps(a.store))
    print("%s: %d kills (seed %d): %d left the state before, %d the state "
          "after, %d the state between, %d left a temporary file"
          % (name, a.trials, seed, seen["before"], seen["after"],
             seen["between"], seen["mid-write"]))


if __name__ == "__main__":
    main()
