#!/usr/bin/env python3
"""Validation of Talby's user/session model (docs/generate.md "Talby's user/session model").

For machine sizes 128, 512 and 1,024 and three seeds: a two-year log from `schedlab generate talby --procs MS`
(the job layer fitted on the bundled KTH log), measured by schedlab's own analyses:
  1. jobs per day and offered load beside Table 28's values for that machine size;
  2. session-class shares generated vs. found by `schedlab sessions --classify` on the generated log, and the
     user-class shares drawn vs. Table 30's;
  3. daily / weekly cycles and Hurst averages (`analyze temporal`) beside a real log of a similar size
     (NASA-iPSC 128, CTC-SP2 512 of 430 nodes, LANL-CM5 1,024);
  4. locality of sampling of the runtime (`analyze locality`, 3-day slices): M'_med against its bootstrap baseline;
  5. KS distances (`analyze distance`) of runtime, size, CPU work and inter-arrival against KTH, the fitted log.
Prints Markdown tables. usage: examples/talby_validation.py [build/schedlab] [--seeds 3] [--rounds 200]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KTH = os.path.join(ROOT, "data", "KTH-SP2-1996-2.swf.gz")
TRACES = os.path.join(ROOT, "..", "shared", "traces")
REAL = {128: "NASA-iPSC-1993-3.1-cln.swf.gz", 512: "CTC-SP2-1996-3.1-cln.swf.gz", 1024: "LANL-CM5-1994-4.1-cln.swf.gz"}
SESSION_CLASSES = ["IWD", "IWN", "IW", "BHP", "BHD"]
USER_CLASSES = ["LTLU", "LTHU", "STWE", "STWD"]


def run(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True)
    return out.stdout


def run_json(cli, *args):
    return json.loads(run(cli, *args, "--json"))


def pct(x):
    return f"{100 * x:.1f}%"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli", nargs="?", default=os.path.join(ROOT, "build", "schedlab"))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=200, help="bootstrap rounds of the locality baseline")
    ap.add_argument("--sizes", default="100,128,512,1024")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tmp = tempfile.mkdtemp()
    model = os.path.join(tmp, "kth-job-model.json")
    run(args.cli, "generate", "talby", "--fit", KTH, "--save-job-model", model)

    rows = {}
    for ms in sizes:
        for seed in range(1, args.seeds + 1):
            path = os.path.join(tmp, f"talby-{ms}-{seed}.swf")
            gen = json.loads(run(args.cli, "generate", "talby", "--procs", str(ms), "--weeks", "104", "--seed",
                                 str(seed), "--job-model", model, "-o", path, "--json"))
            ses = run_json(args.cli, "sessions", path, "--classify")
            tem = run_json(args.cli, "analyze", "temporal", path)
            loc = run_json(args.cli, "analyze", "locality", path, "--attr", "runtime", "--bootstrap",
                           str(args.rounds))
            dist = run_json(args.cli, "analyze", "distance", KTH, path)
            rows[(ms, seed)] = (gen, ses, tem, loc, dist)

    print("### 1. Jobs per day and offered load (two years; Table 28's values for the machine size)\n")
    print("| procs | seed | jobs | users (start + new) | jobs/day | Table 28 | offered load | Table 28 | sessions "
          "dropped |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (ms, seed), (gen, *_rest) in rows.items():
        p, j, u, s = gen["parameters"], gen["jobs"], gen["users"], gen["sessions"]
        print(f"| {ms} | {seed} | {j['total']:,} | {u['at_start']} + {u['new']} | {j['per_day']:.1f} | "
              f"{p['jobs_per_day']:.1f} | {j['offered_load']:.3f} | {p['load']:.3f} | "
              f"{pct(s['dropped'] / max(1, s['dropped'] + s['total']))} |")

    print("\n### 2. Classes: generated vs. found by `schedlab sessions --classify` on the generated log\n")
    print("| procs | seed | sessions IWD / IWN / IW / BHP / BHD generated | k-means on the log | users LTLU / LTHU / "
          "STWE / STWD drawn | Table 30 | k-means on the log |")
    print("|---|---|---|---|---|---|---|")
    for (ms, seed), (gen, ses, *_rest) in rows.items():
        total = gen["sessions"]["total"]
        generated = " / ".join(pct(gen["sessions"]["by_class"][c] / total) for c in SESSION_CLASSES)
        found = " / ".join(pct(ses["session_classes"][c]["share"]) for c in SESSION_CLASSES)
        users = gen["users"]["at_start"] + gen["users"]["new"]
        drawn = " / ".join(pct(gen["users"]["by_class"][c] / users) for c in USER_CLASSES)
        table30 = " / ".join(pct(gen["users"]["table30_shares"][c]) for c in USER_CLASSES)
        ufound = " / ".join(pct(ses["user_classes"][c]["share"]) for c in USER_CLASSES)
        print(f"| {ms} | {seed} | {generated} | {found} | {drawn} | {table30} | {ufound} |")

    print("\n### 3. Cycles and self-similarity (`analyze temporal`, jobs series; runtime Hurst) beside a real log\n")
    print("| log | jobs 12h | jobs 24h | jobs 7d | runtime 24h | H avg jobs | H avg runtime | H avg inter-arrival |")
    print("|---|---|---|---|---|---|---|---|")

    def temporal_row(label, tem):
        s = tem["series"]
        return (f"| {label} | {s['jobs']['daily']['lag_12h']:.2f} | {s['jobs']['daily']['lag_24h']:.2f} | "
                f"{s['jobs']['weekly']['lag_7d']:.2f} | {s['runtime']['daily']['lag_24h']:.2f} | "
                f"{s['jobs']['hurst']['average']:.2f} | {s['runtime']['hurst']['average']:.2f} | "
                f"{s['interarrival']['hurst']['average']:.2f} |")

    for ms in sizes:
        real = os.path.join(TRACES, REAL.get(ms, ""))
        if ms in REAL and os.path.exists(real):
            print(temporal_row(f"{REAL[ms]} (real)", run_json(args.cli, "analyze", "temporal", real)))
        for seed in range(1, args.seeds + 1):
            print(temporal_row(f"Talby {ms}, seed {seed}", rows[(ms, seed)][2]))
    print(temporal_row("KTH-SP2-1996-2 (real, the fitted log)", run_json(args.cli, "analyze", "temporal", KTH)))

    print(f"\n### 4. Locality of sampling of the runtime (3-day slices, {args.rounds} bootstrap rounds)\n")
    print("| log | M'_med | baseline M'_g (5–95%) | M_med = M' − M'_g | M'_max | baseline |")
    print("|---|---|---|---|---|---|")

    def locality_row(label, loc):
        b = loc["baseline"]
        return (f"| {label} | {loc['m_prime']['median']:.3f} | {b['median']['median']:.3f} "
                f"({b['median']['p05']:.3f}–{b['median']['p95']:.3f}) | {loc['m']['median']:.3f} | "
                f"{loc['m_prime']['max']:.3f} | {b['max']['median']:.3f} |")

    for (ms, seed), (_g, _s, _t, loc, _d) in rows.items():
        print(locality_row(f"Talby {ms}, seed {seed}", loc))
    print(locality_row("KTH-SP2-1996-2 (real)",
                       run_json(args.cli, "analyze", "locality", KTH, "--bootstrap", str(args.rounds))))

    print("\n### 5. KS distance to KTH-SP2-1996-2 (the log the job layer was fitted on; size and CPU work as "
          "fractions of the machine)\n")
    print("| log | runtime | size | CPU work | estimate | inter-arrival |")
    print("|---|---|---|---|---|---|")
    for (ms, seed), (*_r, dist) in rows.items():
        a = dist["attributes"]
        print(f"| Talby {ms}, seed {seed} | {a['runtime']['ks']:.3f} | {a['procs']['ks']:.3f} | {a['cpu']['ks']:.3f} | "
              f"{a['estimate']['ks']:.3f} | {a['interarrival']['ks']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
