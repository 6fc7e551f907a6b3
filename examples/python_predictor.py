#!/usr/bin/env python3
"""A runtime predictor of one's own, written in Python, beside the built-in ones: prediction accuracy on the log's
own schedule (`predict`) and EASY's wait and bounded slowdown with each (`simulate`, Tsafrir's correction), as a
Markdown table.

The predictor here: the median of the user's last three runtimes at the same size, else the mean of the user's
last two runtimes, else the estimate; never above the estimate. Replace `SameSize` with your own model.

usage: PYTHONPATH=build/python /usr/bin/python3 examples/python_predictor.py [LOG]   (default: the bundled KTH log)
"""
import collections
import os
import statistics
import sys

import schedlab

here = os.path.dirname(os.path.abspath(__file__))
log = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "data", "KTH-SP2-1996-2.swf.gz")


class SameSize(schedlab.Predictor):
    name = "same-size"

    def __init__(self):
        self.by_size = collections.defaultdict(lambda: collections.deque(maxlen=3))  # (user, procs) -> runtimes
        self.by_user = collections.defaultdict(lambda: collections.deque(maxlen=2))  # user -> runtimes

    def __deepcopy__(self, memo):  # each run starts from an empty history (the lambdas cannot be deep-copied)
        return SameSize()

    def on_termination(self, now, job, start):
        self.by_size[job.user, job.procs].append(now - start)
        self.by_user[job.user].append(now - start)

    def on_arrival(self, now, job):
        same = self.by_size.get((job.user, job.procs))
        if same:
            guess = int(statistics.median(same))
        elif self.by_user.get(job.user):
            guess = sum(self.by_user[job.user]) // len(self.by_user[job.user])
        else:
            return job.estimate
        return min(job.estimate, guess)


log = schedlab.read_log(log)  # read once, used by every run
rows = []
for predictor in ("estimate", "user-last2", "ruh", "sbh", SameSize()):
    accuracy = schedlab.predict(log, predictor=predictor)["accuracy"]
    easy = schedlab.simulate(log, "easy", predictor=predictor, warmup_fraction=0.01,
                             correction="" if predictor == "estimate" else "tsafrir").metrics["metrics"]
    name = predictor if isinstance(predictor, str) else predictor.name
    rows.append((name, accuracy["relative_accuracy"]["mean"], accuracy["underestimated_share"],
                 easy["wait"]["mean"] / 60, easy["bounded_slowdown"]["mean"]))

print(f"{os.path.basename(log.path)}: accuracy on the log's own schedule; EASY with each predictor (Tsafrir's "
      "correction; 1% warm-up)\n")
print("| predictor | relative accuracy | underestimated | EASY wait (min) | EASY bounded slowdown |")
print("|---|---|---|---|---|")
for name, acc, under, wait, bsld in rows:
    print(f"| `{name}` | {acc:.3f} | {under:.3f} | {wait:.1f} | {bsld:.1f} |")
