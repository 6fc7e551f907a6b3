#!/usr/bin/env python3
"""Writes a deterministic SWF log that keeps tens of thousands of jobs running at once (a benchmark, not a model).

A 100,000-processor machine fed a serial job (1 processor, 6-33 hours) about every second, and every 2,000th job
a wide one (60-95% of the machine, under an hour): the serial jobs pile up to ~50,000 running (offered load
1.35: the queue grows through the log too), and a wide job
at the head of the queue makes EASY look for the time when tens of thousands of them will have ended — the
case where a walk over the running jobs per scheduling pass, and a sorted vector of them, cost O(running) per
event (docs/performance.md, "Many jobs running at once"). Same arguments -> byte-identical output.

usage: make_wide_log.py --jobs 200000 --seed 7 -o wide.swf
"""
import argparse
import random

PROCS = 100_000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.output, "w") as out:
        out.write(f"; MaxProcs: {PROCS}\n; MaxNodes: {PROCS}\n")
        t = 0
        for i in range(1, a.jobs + 1):
            t += rng.randint(0, 2)
            if i % 2000 == 0:
                procs, run = rng.randint(60_000, 95_000), rng.randint(100, 3000)
            else:
                procs, run = 1, rng.randint(20_000, 120_000)
            out.write(f"{i} {t} -1 {run} {procs} -1 -1 {procs} {2 * run} -1 1 {1 + i % 50} 1 1 1 -1 -1 -1\n")


if __name__ == "__main__":
    main()
