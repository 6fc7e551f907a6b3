#!/usr/bin/env python3
"""Tsafrir, Etsion & Feitelson (2005), Fig. 16, as one `schedlab sweep` (the sweep port of
examples/estimate_models_experiment.py): EASY backfilling, jobs killed at their estimate, on each log with its
real estimates and with each model's; random models over --seeds seeds (mean and mean absolute deviation).

The script only writes the spec (the per-log "tsafrir improved" model — the log's 2 most popular estimates
besides T_max — as [[include]] runs; f = 0 and the real estimates, which do not depend on the seed, excluded
beyond seed 1), runs it, and prints the table from the CSV. Every log is read once.

usage: examples/estimate_models_sweep.py [--seeds 30] [--schedlab build/schedlab] [--threads 0] [LOG ...]
"""
import argparse, csv, json, os, statistics, subprocess, sys, tempfile, time

DEFAULT = ["KTH-SP2-1996-2.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz", "SDSC-DS-2004-2.1-cln.swf.gz",
           "LANL-CM5-1994-4.1-cln.swf.gz", "Sandia-Ross-2001-1.1-cln.swf.gz", "LLNL-Atlas-2006-2.1-cln.swf.gz",
           "LLNL-Thunder-2007-1.1-cln.swf.gz", "HPC2N-2002-2.2-cln.swf.gz", "CEA-Curie-2011-2.1-cln.swf.gz"]
MODELS = [("shfl", "shfl"), ("tsafrir vanilla", "tsafrir"), ("song", "song")] + \
         [(f"f={f}", f"f:f={f}") for f in (0, 1, 3, 10, 100, 300)] + [("feit", "feit")]


def improved_bins(sl, log, tmp):
    """The log's 2 most popular estimates besides T_max, as the tsafrir model's bins text."""
    out = os.path.join(tmp, "fit.json")
    subprocess.run([sl, "estimates", "fit", log, "--model", "tsafrir", "--top", "2", "-o", out], check=True,
                   capture_output=True)
    fit = json.load(open(out))
    return "/".join(f"{b['time']}:{b['share']:.6g}" for b in fit.get("bins", []))


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--schedlab", default=os.path.join(here, "..", "build", "schedlab"))
    ap.add_argument("--traces", default=os.path.join(here, "..", "..", "shared", "traces"))
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("logs", nargs="*", default=DEFAULT)
    a = ap.parse_args()
    sl = a.schedlab
    tmp = tempfile.mkdtemp()
    logs = [os.path.join(a.traces, n) for n in a.logs]
    seeds = list(range(1, a.seeds + 1))
    spec = ["# Written by examples/estimate_models_sweep.py", "scheduler = 'easy'",
            f"logs = {json.dumps(logs)}", "schedulers = ['easy']", "kill_at_estimate = true",
            f"estimate_models = {json.dumps(['real'] + [m for _, m in MODELS])}", f"seeds = {seeds}"]
    spec = [l for l in spec if not l.startswith("scheduler =")]
    for s in seeds[1:]:
        for m in ("real", "f:f=0"):
            spec += ["[[exclude]]", f"estimate_model = '{m}'", f"seed = {s}"]
    for log in logs:
        bins = improved_bins(sl, log, tmp)
        for s in seeds:
            spec += ["[[include]]", f"log = {json.dumps(log)}", f"estimate_model = 'tsafrir:bins={bins}'", f"seed = {s}"]
    spec_path = os.path.join(tmp, "fig16.toml")
    open(spec_path, "w").write("\n".join(spec) + "\n")
    out = os.path.join(tmp, "fig16.csv")
    t0 = time.time()
    subprocess.run([sl, "sweep", spec_path, "-o", out, "--threads", str(a.threads)], check=True)
    print(f"sweep: {time.time() - t0:.1f} s", file=sys.stderr)

    rows = list(csv.DictReader(open(out)))
    by = {}
    for r in rows:
        model = r["estimate_model"]
        label = "tsafrir improved" if model.startswith("tsafrir:bins") else \
            next((l for l, m in MODELS if m == model), model)
        by.setdefault((r["log"], label), []).append(r)
    for log in logs:
        name = os.path.basename(log)
        real = by[(log, "real")][0]
        rw, rb = float(real["wait_mean"]), float(real["bounded_slowdown_mean"])
        print(f"\n{name}: EASY, jobs killed at their estimate; random models over {a.seeds} seeds (mean +- MAD)")
        print(f"  {'model':18} {'mean wait (s)':>22} {'vs real':>8} {'mean bsld':>18} {'vs real':>8} {'runs':>5}")
        for label in ["real"] + [l for l, _ in MODELS[:2]] + ["tsafrir improved"] + [l for l, _ in MODELS[2:]]:
            rs = [r for r in by.get((log, label), []) if r["status"] == "ok"]
            if not rs:
                print(f"  {label:18} {'infeasible':>22}")
                continue
            ws, bs = [float(r["wait_mean"]) for r in rs], [float(r["bounded_slowdown_mean"]) for r in rs]
            w, b = statistics.mean(ws), statistics.mean(bs)
            mw = statistics.mean(abs(x - w) for x in ws)
            mb = statistics.mean(abs(x - b) for x in bs)
            print(f"  {label:18} {w:>13.0f} +- {mw:>5.0f} {100 * (w - rw) / rw:>+7.1f}% {b:>10.2f} +- {mb:>4.2f} "
                  f"{100 * (b - rb) / rb:>+7.1f}% {len(rs):>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
