#!/usr/bin/env python3
"""crashkill.py - kill convctl writes at random moments; check what is left.

Usage: crashkill.py --store PATH --before FILE --trials N [--seed S]
                    [--follow ARG]... --cases FILE --out DIR -- PROGRAM...

FILE has a line per case, its fields split by tabs: NAME, then how the
state between is told ("-" for none, "between" or "between-env"), then its
value ("-" for none), then the case's arguments (split at white space).
Each case's COMMAND is PROGRAM (convctl, with a wrapper's words before
it) with the case's arguments; the cases run one after the other, in this
one process (not a python a case), and each leaves its one line in
DIR/NAME.out. For each: first COMMAND runs to completion on a copy of
FILE: that gives the state after, and how long a run takes. Then, N times:
the store is reset to FILE (stale temporary and lock files of earlier
trials are left where they are), COMMAND is started and sent SIGKILL after
a random delay up to 1.3 times that duration. The store must then be byte
for byte the state before, or parse and equal the state after (message
ids, which are random, aside), or the state a between command leaves
(PROGRAM with the value's words as arguments, for "between", or COMMAND
itself under the value's NAME=VALUE variable, for "between-env", run on
FILE): a step COMMAND documents, such as `end` having written the end but
not yet the summary. Then the follow-up command (PROGRAM with the --follow
arguments) must succeed and leave no temporary file, so nothing a killed
run left blocks or confuses the next one. A case's line is one summary
line; on failure "FAIL", the seed and the trial, so `--seed S` replays it
exactly. Exits 1 when a case failed.
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


class Failed(Exception):
    pass


def run_case(a, program, between_kind, between_value, args, seed):
    """One case: its summary line; raises Failed with the failure's line."""
    cmd = program + args
    prefix = len(program)
    name = " ".join(args)
    rng = random.Random(seed)

    def fail(trial, why):
        raise Failed("FAIL %s: trial %d: %s (replay: --seed %d)" % (name, trial, why, seed))

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
    if between_kind != "-":
        shutil.copyfile(a.before, a.store)
        env = dict(os.environ)
        if between_kind == "between-env":
            env.update([between_value.split("=", 1)])
        r = subprocess.run(cmd[:prefix] + between_value.split()
                           if between_kind == "between" else cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=env)
        if r.returncode != 0:
            fail(-1, "--between run exited %d: %s" % (r.returncode, r.stderr.decode()))
        with open(a.store, "rb") as f:
            between = normal(f.read())

    seen = {"before": 0, "after": 0, "between": 0, "mid-write": 0}
    follow = cmd[:prefix] + a.follow
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
    return ("%s: %d kills (seed %d): %d left the state before, %d the state "
            "after, %d the state between, %d left a temporary file"
            % (name, a.trials, seed, seen["before"], seen["after"],
               seen["between"], seen["mid-write"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--before", required=True)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--follow", action="append", default=[])
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    program = a.program[1:] if a.program[:1] == ["--"] else a.program
    os.makedirs(a.out, exist_ok=True)
    status = 0
    with open(a.cases, encoding="utf-8") as f:
        cases = [line.rstrip("\n").split("\t", 3) for line in f if line.strip()]
    for case_name, between_kind, between_value, args in cases:
        # a seed a case, as a process a case drew its own
        seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 30)
        try:
            line = run_case(a, program, between_kind, between_value,
                            args.split(), seed)
        except Failed as e:
            line, status = str(e), 1
        except Exception as e:  # a case that could not run: its line says why
            line, status = "FAIL %s: %s: %s" % (case_name, type(e).__name__, e), 1
        with open(os.path.join(a.out, case_name + ".out"), "w", encoding="utf-8") as f:
            f.write(line + "\n")
    sys.exit(status)


if __name__ == "__main__":
    main()
