#!/usr/bin/env python3
"""The experiment of Tsafrir, Etsion & Feitelson (2005), Fig. 16, with schedlab: EASY backfilling (jobs killed
at their estimate, as in the paper) on each log with its real estimates and with the estimates of each model;
the random models are averaged over --seeds seeds (mean and mean absolute deviation, MAD).

usage: examples/estimate_models_experiment.py [--seeds 30] [--schedlab build-model/schedlab] [LOG ...]
Models: real, shfl, tsafrir vanilla (N, T_max, its share), tsafrir improved (+ the 2 most popular other values),
song (self-trained), f = 0 1 3 10 100 300, feit. A tsafrir run the model cannot assign (a runtime above the
generated estimates; see `schedlab estimates generate`) is reported as infeasible.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

DEFAULT = ["KTH-SP2-1996-2.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz", "SDSC-DS-2004-2.1-cln.swf.gz",
           "LANL-CM5-1994-4.1-cln.swf.gz", "Sandia-Ross-2001-1.1-cln.swf.gz", "LLNL-Atlas-2006-2.1-cln.swf.gz",
           "LLNL-Thunder-2007-1.1-cln.swf.gz", "HPC2N-2002-2.2-cln.swf.gz", "CEA-Curie-2011-2.1-cln.swf.gz"]


class Infeasible(Exception):
    pass


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        if "infeasible" in r.stderr:
            raise Infeasible(r.stderr.strip())
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def simulate(sl, log):
    j = json.loads(run([sl, "simulate", log, "--scheduler", "easy", "--kill-at-estimate", "--json"]))
    return j["metrics"]["wait"]["mean"], j["metrics"]["bounded_slowdown"]["mean"]


def mad(xs):
    m = statistics.mean(xs)
    return statistics.mean(abs(x - m) for x in xs)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--schedlab", default=os.path.join(here, "..", "build-model", "schedlab"))
    ap.add_argument("--traces", default=os.path.join(here, "..", "..", "shared", "traces"))
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("logs", nargs="*", default=DEFAULT)
    a = ap.parse_args()
    sl = a.schedlab
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "g.swf")
    for name in a.logs:
        log = os.path.join(a.traces, name)
        vanilla, improved = os.path.join(tmp, "v.json"), os.path.join(tmp, "i.json")
        run([sl, "estimates", "fit", log, "--model", "tsafrir", "--top", "0", "-o", vanilla])
        run([sl, "estimates", "fit", log, "--model", "tsafrir", "--top", "2", "-o", improved])
        models = [("shfl", "shfl", []), ("tsafrir-vanilla", "tsafrir", ["--params", vanilla]),
                  ("tsafrir-improved", "tsafrir", ["--params", improved]), ("song", "song", [])]
        models += [(f"f={f}", "f", ["--params", f"f={f}"]) for f in (0, 1, 3, 10, 100, 300)]
        models += [("feit", "feit", [])]
        real_w, real_b = simulate(sl, log)
        rows = [("real", real_w, 0.0, real_b, 0.0, 1)]
        for label, model, extra in models:
            seeds = 1 if label == "f=0" else a.seeds  # f = 0 is deterministic (E = R)
            ws, bs = [], []
            try:
                for s in range(1, seeds + 1):
                    run([sl, "estimates", "generate", log, "--model", model, "--seed", str(s), "-o", out] + extra)
                    w, b = simulate(sl, out)
                    ws.append(w)
                    bs.append(b)
            except Infeasible:
                rows.append((label, None, None, None, None, 0))
                continue
            rows.append((label, statistics.mean(ws), mad(ws), statistics.mean(bs), mad(bs), len(ws)))
        print(f"\n{name}: EASY, jobs killed at their estimate; random models over {a.seeds} seeds (mean +- MAD)")
        print(f"  {'model':18} {'mean wait (s)':>22} {'vs real':>8} {'mean bsld':>18} {'vs real':>8} {'runs':>5}")
        best = None
        for label, w, wm, b, bm, n in rows:
            if w is None:
                print(f"  {label:18} {'infeasible':>22}")
                continue
            dw, db = (w - real_w) / real_w, (b - real_b) / real_b
            print(f"  {label:18} {w:>13.0f} +- {wm:>5.0f} {100 * dw:>+7.1f}% {b:>10.2f} +- {bm:>4.2f} {100 * db:>+7.1f}% {n:>5}")
            if label not in ("real", "shfl"):
                score = abs(dw) + abs(db)
                if best is None or score < best[0]:
                    best = (score, label)
        if best:
            print(f"  closest to the real estimates (|d wait| + |d bsld|): {best[1]}")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
