#!/usr/bin/env python3
"""Feitelson's Fig. 11 with schedlab: M'_med of the runtime (analyze locality: 3-day slices, 24 bins) of
sequences of 100,000 jobs made by `schedlab generate locality` from a log, for theta = 2 .. 6 step 0.5 and with
repetitions turned off (max_repetitions 1), 10 sequences (seeds) each; printed as a Markdown table (median, min,
max over the sequences) beside the bootstrap baseline of random sampling.

usage: examples/locality_model_fig11.py [--schedlab build/schedlab] [--from data/KTH-SP2-1996-2.swf.gz]
                                        [--sequences 10] [--jobs 100000]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--schedlab", default=os.path.join(HERE, "..", "build", "schedlab"))
    p.add_argument("--from", dest="source", default=os.path.join(HERE, "..", "data", "KTH-SP2-1996-2.swf.gz"))
    p.add_argument("--sequences", type=int, default=10)
    p.add_argument("--jobs", type=int, default=100000)
    a = p.parse_args()
    settings = [(f"{t:g}", ["--theta", f"{t:g}"]) for t in [2 + 0.5 * i for i in range(9)]]
    settings.append(("no repetition", ["--max-repetitions", "1"]))
    print("| theta | M'_med (median of sequences) | min | max | baseline M'_g (median) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "model.swf")
        for label, opts in settings:
            meds, bases = [], []
            for seed in range(1, a.sequences + 1):
                run([a.schedlab, "generate", "locality", "--from", a.source, "--jobs", str(a.jobs), "--seed", str(seed),
                     "-o", out, *opts])
                d = json.loads(run([a.schedlab, "analyze", "locality", out, "--bootstrap", "20", "--json"]))
                meds.append(d["m_prime"]["median"])
                bases.append(d["baseline"]["median"]["median"])
            print(f"| {label} | {statistics.median(meds):.3f} | {min(meds):.3f} | {max(meds):.3f} | "
                  f"{statistics.median(bases):.3f} |")


if __name__ == "__main__":
    main()
