#!/usr/bin/env python3
"""Writes deterministic Slurm accounting text, as `sacct -P -a -X --format=...` prints it (a benchmark of
`schedlab convert --from sacct`, not a model): jobs submitted 0-60 s apart from 2025-01-01, waiting up to an
hour, running 1 s to 2 hours, 1-16 CPUs, 300 users in 20 groups, 500 job names, all COMPLETED. Same arguments ->
byte-identical output.

usage: make_synthetic_sacct.py --jobs 1000000 --seed 1 -o sacct.txt
"""
import argparse
import datetime
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    t = datetime.datetime(2025, 1, 1)
    fmt = "%Y-%m-%dT%H:%M:%S"
    with open(a.output, "w") as f:
        f.write("JobID|JobName|User|Group|Partition|Submit|Start|End|Elapsed|Timelimit|State|AllocCPUS|ReqCPUS|"
                "NodeList\n")
        for i in range(a.jobs):
            t += datetime.timedelta(seconds=rng.randint(0, 60))
            start = t + datetime.timedelta(seconds=rng.randint(0, 3600))
            end = start + datetime.timedelta(seconds=rng.randint(1, 7200))
            cpus = rng.choice([1, 2, 4, 8, 16])
            f.write(f"{i + 1}|job{i % 500}|user{i % 300}|grp{i % 20}|batch|{t.strftime(fmt)}|{start.strftime(fmt)}|"
                    f"{end.strftime(fmt)}|01:00:00|02:00:00|COMPLETED|{cpus}|{cpus}|node1\n")


if __name__ == "__main__":
    main()
