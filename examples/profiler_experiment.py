#!/usr/bin/env python3
"""Gibbons (1997) Table 6.4: twelve scheduler/knowledge variants on the synthetic profiler workload.

For each seed: `schedlab generate profiler-experiment` makes the 200-job workload of Tables 6.1/6.2 (16
processors) and a training log with 25 runs of each executable; every variant is simulated with
`schedlab simulate --json`. "act" = actual runtimes (predictor `perfect`), "pro" = the profiler's upper 95%
bound, trained on the 25 runs per executable and learning online (predictor `profiler`). FCFS and
FCFS-fill need no runtime knowledge. Prints the mean over seeds of response, wait, total time (makespan),
utilization, kills and suspensions beside the thesis's figures (one random sequence there: compare orderings,
not digits), then checks the thesis's conclusions on the averages.

Usage: examples/profiler_experiment.py [--seeds 20] [--cli build/schedlab] [--resume-delay 0]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

PRO = "profiler:train={train};bound=upper;confidence=0.95"
VARIANTS = [  # name, scheduler, predictor
    ("FCFS", "fcfs", "estimate"),
    ("FCFS-fill", "fcfs-fill", "estimate"),
    ("EASY-act", "easy-kill", "perfect"),
    ("EASY-pre-pro", "easy-preemptive", PRO),
    ("LEWF-act", "lewf", "perfect"),
    ("LEWF-pro", "lewf", PRO),
    ("LEWF-fill-act", "lewf-fill", "perfect"),
    ("LEWF-fill-pro", "lewf-fill", PRO),
    ("LERWF-act", "lerwf", "perfect"),
    ("LERWF-pro", "lerwf", PRO),
    ("LERWF-fill-act", "lerwf-fill", "perfect"),
    ("LERWF-fill-pro", "lerwf-fill", PRO),
]
# Table 6.4: response, wait, total, utilization %.
THESIS = {
    "FCFS": (6480, 6251, 43986, 64.6), "FCFS-fill": (2284, 2056, 37609, 75.0),
    "EASY-act": (2361, 2138, 36684, 74.7), "EASY-pre-pro": (2429, 1864, 40130, 69.9),
    "LEWF-act": (1031, 804, 41760, 67.3), "LEWF-pro": (2965, 2738, 39116, 71.6),
    "LEWF-fill-act": (926, 697, 39271, 72.0), "LEWF-fill-pro": (1259, 1031, 38234, 74.0),
    "LERWF-act": (908, 469, 44456, 63.7), "LERWF-pro": (2404, 1565, 48017, 61.5),
    "LERWF-fill-act": (855, 267, 42684, 67.3), "LERWF-fill-pro": (1678, 389, 45441, 65.8),
}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--cli", default=os.path.join(os.path.dirname(__file__), "..", "build", "schedlab"))
    ap.add_argument("--resume-delay", type=int, default=0, help="seconds a resumed job waits (preemptive schedulers)")
    args = ap.parse_args()
    results = {name: [] for name, _, _ in VARIANTS}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            log = os.path.join(tmp, f"w{seed}.swf")
            train = os.path.join(tmp, f"t{seed}.swf")
            run([args.cli, "generate", "profiler-experiment", "--seed", str(seed), "-o", log,
                 "--training-runs", "25", "--training-out", train])
            for name, scheduler, predictor in VARIANTS:
                if args.resume_delay and scheduler in ("lerwf", "lerwf-fill", "easy-preemptive"):
                    scheduler += f":resume_delay={args.resume_delay}"
                out = run([args.cli, "simulate", log, "--scheduler", scheduler, "--predictor",
                           predictor.format(train=train), "--seed", str(seed), "--check", "--json"])
                d = json.loads(out)
                m = d["metrics"]
                results[name].append((m["response"]["mean"], m["wait"]["mean"], m["makespan"],
                                      100 * m["utilization"], m["kills"], m["suspensions"]))
    mean = {k: [statistics.fmean(col) for col in zip(*v)] for k, v in results.items()}
    print(f"Mean over {args.seeds} seeds (thesis Table 6.4 in parentheses: one random sequence)\n")
    print(f"| variant | response s | wait s | total s | util % | kills | suspensions |")
    print(f"|---|---|---|---|---|---|---|")
    for name, _, _ in VARIANTS:
        r, w, t, u, k, s = mean[name]
        tr, tw, tt, tu = THESIS[name]
        print(f"| {name} | {r:.0f} ({tr}) | {w:.0f} ({tw}) | {t:.0f} ({tt}) | {u:.1f} ({tu}) | {k:.1f} | {s:.1f} |")

    resp = {k: v[0] for k, v in mean.items()}
    checks = []
    for a, b in [("FCFS-fill", "FCFS"), ("LEWF-fill-act", "LEWF-act"), ("LEWF-fill-pro", "LEWF-pro"),
                 ("LERWF-fill-act", "LERWF-act"), ("LERWF-fill-pro", "LERWF-pro")]:
        checks.append((f"filling helps: {a} < {b}", resp[a] < resp[b], resp[a], resp[b]))
    for a, b in [("LEWF-act", "FCFS"), ("LEWF-pro", "FCFS"), ("LEWF-fill-act", "FCFS-fill"),
                 ("LEWF-fill-pro", "FCFS-fill")]:
        checks.append((f"LEWF beats FCFS: {a} < {b}", resp[a] < resp[b], resp[a], resp[b]))
    for kind in ("LEWF", "LEWF-fill", "LERWF", "LERWF-fill"):
        a, b = f"{kind}-act", f"{kind}-pro"
        checks.append((f"actual beats profiler: {a} < {b}", resp[a] < resp[b], resp[a], resp[b]))
    for a, b in [("LEWF-pro", "FCFS"), ("LEWF-fill-pro", "FCFS-fill")]:
        checks.append((f"profiler beats no knowledge: {a} < {b}", resp[a] < resp[b], resp[a], resp[b]))
    for a, b in [("LERWF-act", "LEWF-act"), ("LERWF-pro", "LEWF-pro"), ("LERWF-fill-act", "LEWF-fill-act")]:
        checks.append((f"preemption helps: {a} < {b}", resp[a] < resp[b], resp[a], resp[b]))
    checks.append(("thesis exception: LERWF-fill-pro is NOT better than LEWF-fill-pro",
                   resp["LERWF-fill-pro"] >= resp["LEWF-fill-pro"], resp["LERWF-fill-pro"], resp["LEWF-fill-pro"]))
    print("\nConclusions (mean response time):")
    for text, ok, x, y in checks:
        print(f"  {'holds' if ok else 'DOES NOT HOLD'}: {text} ({x:.0f} vs {y:.0f})")


if __name__ == "__main__":
    main()
