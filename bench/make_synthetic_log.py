#!/usr/bin/env python3
"""Writes a deterministic synthetic SWF log for benchmarks (not a workload model: see the model module).

Jobs: Poisson arrivals tuned to an offered load, log-uniform runtimes (10 s .. 36 h), power-of-two sizes
biased to small jobs (one in ten uniform over the machine), estimates = runtime rounded up to a popular value
(sometimes far above), 500 users. Same arguments -> byte-identical output.

The log must fit the SWF's 32-bit fields: its span is total work / (procs x load), so the script refuses
arguments that would put a submit time past 2^31 - 1 s (with one in five jobs machine-wide, as it once had,
a million jobs on 1,024 processors spanned 74 years and no reader could load it).

usage: make_synthetic_log.py --jobs 1000000 --procs 1024 --load 0.7 --seed 1 -o synthetic.swf
"""
import argparse
import math
import random

POPULAR_ESTIMATES = [60, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400, 129600]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1_000_000)
    ap.add_argument("--procs", type=int, default=1024)
    ap.add_argument("--load", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    max_log2 = int(math.log2(a.procs))
    jobs = []
    work = 0.0
    for _ in range(a.jobs):
        runtime = int(math.exp(rng.uniform(math.log(10), math.log(36 * 3600))))
        size = 1 << min(max_log2, int(rng.expovariate(0.45)))
        if rng.random() < 0.1:
            size = rng.randint(1, a.procs)
        est = next((e for e in POPULAR_ESTIMATES if e >= runtime), POPULAR_ESTIMATES[-1])
        if rng.random() < 0.3:
            est = POPULAR_ESTIMATES[-1]
        jobs.append((runtime, size, max(est, runtime)))
        work += runtime * size
    # Mean inter-arrival so that work / (procs * span) = load.
    mean_gap = work / (a.procs * a.load * a.jobs)
    span = mean_gap * a.jobs
    if span > 0.9 * (2**31 - 1):
        raise SystemExit(f"make_synthetic_log.py: the log would span about {span:.3g} s, past the SWF's 32-bit "
                         "submit times; use fewer jobs, more processors or a higher load")
    t = 0.0
    with open(a.output, "w") as f:
        f.write("; Version: 2.2\n; Computer: synthetic\n")
        f.write(f"; Note: make_synthetic_log.py --jobs {a.jobs} --procs {a.procs} --load {a.load} --seed {a.seed}\n")
        f.write(f"; MaxJobs: {a.jobs}\n; MaxRecords: {a.jobs}\n; MaxNodes: {a.procs}\n; MaxProcs: {a.procs}\n")
        for i, (runtime, size, est) in enumerate(jobs, start=1):
            user = int(rng.paretovariate(1.2)) % 500 + 1
            f.write(f"{i} {int(t)} -1 {runtime} {size} -1 -1 {size} {est} -1 1 {user} {user % 50 + 1} "
                    f"{rng.randint(1, 200)} 1 -1 -1 -1\n")
            t += rng.expovariate(1.0 / mean_gap)


if __name__ == "__main__":
    main()
