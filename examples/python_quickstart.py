#!/usr/bin/env python3
"""schedlab from Python: read a log, look at it with pandas, simulate three schedulers on it, compare them and plot
their waits per month (matplotlib) into a PNG.

usage: PYTHONPATH=build/python /usr/bin/python3 examples/python_quickstart.py [OUT.png]   (make python first)
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

import schedlab

here = os.path.dirname(os.path.abspath(__file__))
log = os.path.join(here, "..", "data", "KTH-SP2-1996-2.swf.gz")
out = sys.argv[1] if len(sys.argv) > 1 else "quickstart.png"

df, header = schedlab.read_swf(log)
print(f"{len(df):,} jobs, {df.user_id.nunique()} users; runtime median {df.run_time.median():.0f} s, "
      f"size median {df.requested_procs.median():.0f}")
print(df.groupby("requested_procs").size().sort_values(ascending=False).head(5).to_string())

results = {s: schedlab.simulate(df, scheduler=s, warmup_fraction=0.01) for s in ("fcfs", "easy", "conservative")}
table = pd.DataFrame({s: {"wait mean (s)": r.metrics["metrics"]["wait"]["mean"],
                          "bounded slowdown": r.metrics["metrics"]["bounded_slowdown"]["mean"],
                          "utilization": r.metrics["metrics"]["utilization"]} for s, r in results.items()}).T
print(table.round(2).to_string())

fig, ax = plt.subplots(figsize=(8, 4))
for s, r in results.items():
    j = r.jobs
    month = (j.submit // (30 * 86400)).rename("month")
    j.groupby(month)["wait"].mean().plot(ax=ax, label=s)
ax.set_yscale("log")
ax.set_xlabel("month of the log")
ax.set_ylabel("mean wait (s)")
ax.legend()
fig.tight_layout()
fig.savefig(out, dpi=100)
print(f"wrote {out}")
