#!/usr/bin/env python3
"""Song et al. Tables 5 and 6 with schedlab: the runtime-conditioned estimate model trained on each log (and
combinations), applied to every log's own runtimes, compared with the real estimates (KS, d_SA).

usage: examples/song_tables.py [--schedlab build-model/schedlab] [--seed 1] [--traces DIR] [LOG ...]
Paper (KTH, SDSC SP2, CTC): self-trained KS .06 .14 .15, d_SA 15% -9% 34% (60 h cap for every log).
Here each model's cap is the largest estimate of its training logs (the spec's rule).
"""
import argparse, itertools, json, os, subprocess, sys, tempfile

DEFAULT = ["KTH-SP2-1996-2.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz", "SDSC-DS-2004-2.1-cln.swf.gz",
           "HPC2N-2002-2.2-cln.swf.gz"]


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schedlab", default=os.path.join(os.path.dirname(__file__), "..", "build-model", "schedlab"))
    ap.add_argument("--traces", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "traces"))
    ap.add_argument("--seed", default="1")
    ap.add_argument("--max-combo", type=int, default=3)
    ap.add_argument("logs", nargs="*", default=DEFAULT)
    a = ap.parse_args()
    logs = [os.path.join(a.traces, l) for l in a.logs]
    names = [os.path.basename(l).split("-")[0] for l in a.logs]
    tmp = tempfile.mkdtemp()
    trainings = [c for k in range(1, min(a.max_combo, len(logs)) + 1) for c in itertools.combinations(range(len(logs)), k)]
    rows = []
    for combo in trainings:
        model = os.path.join(tmp, "m.json")
        run([a.schedlab, "estimates", "fit", "--model", "song", "-o", model] + [logs[i] for i in combo])
        row = []
        for t, log in enumerate(logs):
            out = os.path.join(tmp, "g.swf")
            run([a.schedlab, "estimates", "generate", log, "--model", "song", "--params", model, "--seed", a.seed, "-o", out])
            c = json.loads(run([a.schedlab, "estimates", "compare", log, out, "--json"]))
            row.append((c["d_sa"], c["ks"]))
        rows.append((",".join(names[i] for i in combo), row))
    w = max(len(r[0]) for r in rows)
    print("Self-trained (Table 5): log, KS, d_SA")
    for i, n in enumerate(names):
        d, k = rows[i][1][i]
        print(f"  {n:10} KS {k:.3f}  d_SA {100 * d:+.0f}%")
    print("\nCross-training (Table 6): rows = training logs, columns = tested log")
    print(f"{'':{w}}  " + " ".join(f"{'dSA ' + n:>10}" for n in names) + "   " + " ".join(f"{'KS ' + n:>9}" for n in names))
    for label, row in rows:
        print(f"{label:{w}}  " + " ".join(f"{100 * d:>+9.0f}%" for d, _ in row) + "   " + " ".join(f"{k:>9.3f}" for _, k in row))


if __name__ == "__main__":
    sys.exit(main())
