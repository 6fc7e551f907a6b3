#!/usr/bin/env python3
"""Writes a deterministic SWF log of jobs all submitted at t = 0 (a benchmark, not a model).

Every job waits at once: the queue starts as long as the log and empties only as jobs end, which is where a
scheduler's cost per call in the queue's length shows (docs/performance.md: easy-sjbf's index, maui's rules).
Runtimes 1 s to 10 h, estimates the runtime plus up to 10 h, sizes 1 to 256 (a third of them 1), users 1 to 100,
on 1,024 processors. Same arguments -> byte-identical output.

usage: make_burst_log.py --jobs 50000 --seed 5 -o burst.swf
"""
import argparse
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.output, "w") as out:
        out.write("; MaxProcs: 1024\n; MaxNodes: 1024\n")
        for i in range(1, a.jobs + 1):
            run = rng.randint(1, 36000)
            procs = rng.choice([1, 1, 2, 4, 8, 16, 32, 64, 128, 256])
            est = run + rng.randint(0, 36000)
            out.write(f"{i} 0 -1 {run} {procs} -1 -1 {procs} {est} -1 1 {rng.randint(1, 100)} 1 1 1 1 -1 -1\n")


if __name__ == "__main__":
    main()
