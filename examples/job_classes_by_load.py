#!/usr/bin/env python3
"""Who pays as the load grows: a sweep of a log scaled to several offered loads under several schedulers, with the
mean wait of all jobs, of the short narrow ones and of the long wide ones (the job classes of `simulate --by-class`,
runtime at most 1 h and at most 8 processors; the sweep's class columns). Prints the Markdown table of
docs/simulator.md ("Metrics by job class").

usage: examples/job_classes_by_load.py [LOG] [--schedulers easy,easy-sjbf,conservative] [--loads 0.6,0.7,0.8,0.9]
(default log: the bundled KTH-SP2-1996-2)
"""
import argparse
import os

import schedlab

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", nargs="?", default=os.path.join(HERE, "..", "data", "KTH-SP2-1996-2.swf.gz"))
    ap.add_argument("--schedulers", default="easy,easy-sjbf,conservative")
    ap.add_argument("--loads", default="0.6,0.7,0.8,0.9")
    a = ap.parse_args()
    schedulers = a.schedulers.split(",")
    loads = [float(x) for x in a.loads.split(",")]
    # The spec as a dict: the library runs the product on all cores and returns one row per run.
    rows = schedlab.sweep({"logs": [os.path.abspath(a.log)], "schedulers": schedulers, "loads": loads})
    failed = rows[rows.status != "ok"]
    if len(failed):
        raise SystemExit(f"{len(failed)} runs failed: {failed.status.iloc[0]}")
    print("mean wait in seconds — all jobs / short narrow / long wide\n")
    print("| load | " + " | ".join(schedulers) + " |")
    print("|---" * (len(schedulers) + 1) + "|")
    for load in loads:
        cells = []
        for s in schedulers:
            r = rows[(rows.scheduler == s) & (rows.load == load)].iloc[0]
            cells.append(f"{r.wait_mean:,.0f} / {r.short_narrow_wait_mean:,.0f} / {r.long_wide_wait_mean:,.0f}")
        print(f"| {load:g} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
