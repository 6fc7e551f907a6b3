#!/usr/bin/env python3
"""Compares the start times of a peer simulator (lines: id submit start runtime estimate size user) with schedlab's
per-job CSV of the same jobs; prints one Markdown row: jobs, jobs that start at another time, mean waits, Tsafrir
et al.'s averages, the first few that differ."""
import csv
import sys

peer_path, schedlab_path, label = sys.argv[1], sys.argv[2], sys.argv[3]
peer = {}
for line in open(peer_path):
    f = line.split()
    peer[f[0]] = (int(f[1]), int(f[2]), int(f[3]))  # submit, start, runtime
ours = {r["job_id"]: int(r["start"]) for r in csv.DictReader(open(schedlab_path))}
if set(ours) != set(peer):
    sys.exit(f"{label}: the two runs have different jobs ({len(peer)} and {len(ours)})")
differ = [j for j in peer if peer[j][1] != ours[j]]
mean = lambda start: sum(start(j) - peer[j][0] for j in peer) / len(peer)


def tsafrir(start):
    """Tsafrir et al. 2007's averages: wait in minutes and bounded slowdown (tau 10 s), the first 1% of jobs to end
    left out (ends in time order, ties by job number)."""
    ends = sorted(peer, key=lambda j: (start(j) + peer[j][2], int(j)))
    kept = ends[len(ends) // 100:]
    wait = sum(start(j) - peer[j][0] for j in kept) / len(kept) / 60
    bsld = sum(max(1, (start(j) - peer[j][0] + peer[j][2]) / max(10, peer[j][2])) for j in kept) / len(kept)
    return f"{wait:.2f} / {bsld:.2f}"


print(f"| {label} | {len(peer):,} | {len(differ):,} | {mean(lambda j: peer[j][1]):.1f} | {mean(lambda j: ours[j]):.1f} |"
      f" {tsafrir(lambda j: peer[j][1])} | {tsafrir(lambda j: ours[j])} | {' '.join(differ[:3])} |")
