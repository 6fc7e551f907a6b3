#!/usr/bin/env python3
"""Why the thesis's user classes do not come out of these logs: how many users work mostly on weekends or on
workday nights, the traits of its two short-term classes (Talby's thesis Table 23, section 9.5).

usage: examples/user_classes_vs_thesis.py [SCHEDLAB] [TRACES_DIR]
Runs `schedlab sessions --classify --users-output` on the cleaned logs pooled, as docs/analysis.md does, and
prints per log the share of users whose jobs are mostly on weekends (%W < 0.5, %W = share on workdays) and
mostly at night on workdays (%D < 0.3 and %W > 0.8), beside the k-means classes' means. The thesis's short-term
weekend users (10% of its users) have a mean %W of 0.22, its short-term workday users (15%) a mean %D of 0.18
and %W of 0.90: k-means can only find such classes if that many users behave so.
"""
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

cli = sys.argv[1] if len(sys.argv) > 1 else "./build/schedlab"
traces = sys.argv[2] if len(sys.argv) > 2 else "../shared/traces"
logs = sorted(glob.glob(os.path.join(traces, "*-cln.swf.gz")))
THESIS = {"LTLU": (0.55, 0.82, 0.80), "LTHU": (0.20, 0.66, 0.72), "STWE": (0.10, 0.60, 0.22),
          "STWD": (0.15, 0.18, 0.90)}  # share, mean %D, mean %W (Table 23)

with tempfile.TemporaryDirectory() as tmp:
    users_csv = os.path.join(tmp, "users.csv")
    out = subprocess.run([cli, "sessions", *logs, "--classify", "--json", "--users-output", users_csv],
                         check=True, capture_output=True, text=True).stdout
    study = json.loads(out)
    with open(users_csv, newline="") as f:
        rows = list(csv.DictReader(f))


def weekend(r):
    return float(r["PW"]) < 0.5


def workday_night(r):
    return float(r["PD"]) < 0.3 and float(r["PW"]) > 0.8


print(f"{'log':<34} {'users':>6} {'weekend':>8} {'wd night':>9}")
for log in [os.path.basename(p) for p in logs] + ["all"]:
    mine = [r for r in rows if log in ("all", r["log"])]
    n = len(mine)
    print(f"{log:<34} {n:>6} {100 * sum(map(weekend, mine)) / n:>7.1f}% {100 * sum(map(workday_night, mine)) / n:>8.1f}%")

print(f"\n{'class':<6} {'share':>7} {'thesis':>7} {'%D':>6} {'thesis':>7} {'%W':>6} {'thesis':>7}")
for name, c in study["user_classes"].items():
    share, d, w = THESIS[name]
    print(f"{name:<6} {100 * c['share']:>6.1f}% {100 * share:>6.0f}% {c['means']['PD']:>6.2f} {d:>7.2f} "
          f"{c['means']['PW']:>6.2f} {w:>7.2f}")
