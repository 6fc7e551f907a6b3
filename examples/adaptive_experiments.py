#!/usr/bin/env python3
"""Talby's chapter 7 with schedlab: the four backfilling schedulers per month (Tables 8-10), PBAS over switch
intervals and metrics (Figure 9, Table 11), PBAS with four candidates against two (Figure 11, Table 12's time
shares), and WBAS over MAF and intervals (Figure 13, Table 14). Every block is one `schedlab compare` (the log
read once, the simulations on parallel threads); the output is the Markdown of docs/adaptive.md.

usage: examples/adaptive_experiments.py [--schedlab build/schedlab] [--log KTH-SP2-1996-2.swf.gz]
                                        [--blocks table8,pbas,four,wbas] [--points 21] [--maui SPEC]
--maui replaces Maui everywhere (candidate, WBAS's low scheduler, baseline) by another spec, e.g. one of the
Maui rules measured in docs/adaptive.md; the tables still call it "maui".
"""
import argparse, json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "..", "shared", "traces")


MAUI = "maui"  # the spec standing for Maui (--maui)


def with_maui(spec):
    """`spec` with Maui replaced by the --maui spec (in brackets where it is a parameter value)."""
    if MAUI == "maui":
        return spec
    if spec == "maui":
        return MAUI
    spec = spec.replace("candidates=flex,maui,easy,conservative", f"candidates=[flex,[{MAUI}],easy,conservative]")
    spec = spec.replace("candidates=flex,maui;", f"candidates=[flex,[{MAUI}]];")
    if spec.startswith("wbas:"):
        spec += f";low=[{MAUI}]"
    return spec


def compare(schedlab, log, schedulers, extra=()):
    real = [with_maui(s) for s in schedulers]
    spec = ",".join(f"[{s}]" if (";" in s or ":" in s) else s for s in real)
    out = subprocess.run([schedlab, "compare", log, "--schedulers", spec, "--baseline", with_maui("maui"), "--json",
                          *extra], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"schedlab compare failed: {out.stderr.strip()}")
    doc = json.loads(out.stdout)
    rename = {s["name"]: given for s, given in zip(doc["schedulers"], schedulers)}
    for s in doc["schedulers"]:
        s["name"] = rename[s["name"]]  # the tables name them as the experiment does
    for g in doc["wait_gaps"]:
        g["a"], g["b"] = rename[g["a"]], rename[g["b"]]
    return doc


def won(metric):
    """Months won alone, and "+k" those where the lowest mean was shared."""
    shared = metric["periods_shared_best"]
    return f"{metric['periods_won']}+{shared}" if shared else str(metric["periods_won"])


def gap_text(side):
    """The mean and largest gap over the months won (none where the winner did not wait at all)."""
    if side["mean_gap"] is None:
        return ""
    return f", average gap {100 * side['mean_gap']:.0f}%, maximal {100 * side['max_gap']:.0f}%"


def by_name(doc):
    return {s["name"]: s for s in doc["schedulers"]}


def duration(seconds):
    """A spec value: whole units when exact, else seconds."""
    for unit, n in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= n and seconds % n == 0:
            return f"{seconds // n}{unit}"
    return f"{seconds}"


def label(seconds):
    """For tables: the interval in its largest unit, 3 significant digits."""
    for unit, n in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= n:
            return f"{seconds / n:.3g} {unit}"
    return f"{seconds} s"


def log_points(lo, hi, n):
    """n values from lo to hi, evenly spaced on a log scale, rounded to whole seconds (or units), distinct."""
    out = []
    for i in range(n):
        v = round(math.exp(math.log(lo) + (math.log(hi) - math.log(lo)) * i / (n - 1)))
        if not out or v != out[-1]:
            out.append(v)
    return out


def table8(schedlab, log, name):
    print(f"### Table 8–10 on {name}\n")
    with tempfile.TemporaryDirectory() as tmp:
        status1 = os.path.join(tmp, "status1.swf")
        subprocess.run([schedlab, "filter", log, "--status", "1", "-o", status1], check=True, capture_output=True)
        for label, path in (("every job", log), ("completed jobs only (status 1)", status1)):
            doc = compare(schedlab, path, ["conservative", "easy", "flex", "maui"])
            s = by_name(doc)
            print(f"{label}, {doc['jobs']} jobs, {len(doc['periods'])} periods of 30 days:\n")
            print("| | Cons | EASY | Flex | Maui |\n|---|---|---|---|---|")
            for metric, fmt in (("wait", "{:.0f}"), ("bounded_slowdown", "{:.1f}")):
                print(f"| {metric} mean | " + " | ".join(fmt.format(s[k][metric]["mean"]) for k in
                                                        ("conservative", "easy", "flex", "maui")) + " |")
            for metric in ("wait", "bounded_slowdown"):
                print(f"| months won ({metric}) | " + " | ".join(won(s[k][metric]) for k in
                                                               ("conservative", "easy", "flex", "maui")) + " |")
            if any(s[k][m]["periods_shared_best"] for k in s for m in ("wait", "bounded_slowdown")):
                print("\n(+k: months where the lowest mean was shared with another scheduler, won by none)")
            gap = next(g for g in doc["wait_gaps"] if {g["a"], g["b"]} == {"flex", "maui"})
            fw, mw = (gap["won_by_a"], gap["won_by_b"]) if gap["a"] == "flex" else (gap["won_by_b"], gap["won_by_a"])
            print(f"\nFlex vs Maui wait gaps (Table 10): months won by Flex {fw['periods']}{gap_text(fw)}; won by Maui "
                  f"{mw['periods']}{gap_text(mw)}" + (f"; equal in {gap['tied']}" if gap["tied"] else "") + ".\n")


def gains_row(label, s):
    return (f"| {label} | {s['wait']['mean']:.0f} | {s['bounded_slowdown']['mean']:.1f} | "
            f"{100 * s['wait']['performance_gain']:+.0f}% | {100 * s['wait']['stability_gain']:+.0f}% |")


def pbas(schedlab, log, name, points):
    intervals = log_points(60, 50 * 86400, points)
    print(f"### PBAS (Flex + Maui) by switch interval and metric on {name} (Figure 9)\n")
    print("Gains over Maui: performance = whole-log mean wait, stability = standard deviation of the monthly "
          "mean waits.\n")
    for metric in ("response", "bsld", "utilization"):
        specs = [f"pbas:candidates=flex,maui;metric={metric};interval={duration(i)}" for i in intervals]
        doc = compare(schedlab, log, specs + ["flex", "maui"])
        s = by_name(doc)
        print(f"metric = {metric}:\n\n| interval | wait (s) | bsld | performance | stability |\n|---|---|---|---|---|")
        for i, spec in zip(intervals, specs):
            print(gains_row(label(i), s[spec]))
        print(gains_row("flex", s["flex"]))
        print(gains_row("maui", s["maui"]) + "\n")


def four(schedlab, log, name):
    print(f"### PBAS with four candidates against two on {name} (Figure 11, Table 12)\n")
    intervals = [1800, 4 * 3600, 86400, 7 * 86400, 50 * 86400]
    specs = []
    for cands in ("flex,maui", "flex,maui,easy,conservative"):
        specs += [f"pbas:candidates={cands};metric=utilization;interval={duration(i)}" for i in intervals]
    doc = compare(schedlab, log, specs + ["maui"])
    s = by_name(doc)
    print("| candidates | interval | wait (s) | % Flex | % Maui | % EASY | % Cons | switches taken | % taken |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in specs:
        a = s[spec]["adaptive"]
        share = {("maui" if c["spec"] == MAUI else c["spec"]): 100 * c["time_share"] for c in a["candidates"]}
        cells = [f"{share[k]:.0f}%" if k in share else "-" for k in ("flex", "maui", "easy", "conservative")]
        n = len(a["candidates"])
        interval = label(int(spec.split("interval=")[1].rstrip("smhd")) *
                         {"m": 60, "h": 3600, "d": 86400}.get(spec[-1], 1))
        print(f"| {n} | {interval} | {s[spec]['wait']['mean']:.0f} | " + " | ".join(cells) +
              f" | {a['switches']} | {100 * a['switches_share']:.0f}% |")
    print()


def wbas(schedlab, log, name, points):
    print(f"### WBAS on {name} (Figure 13, Table 14)\n")
    mafs = log_points(100, 50000, points)
    specs = [f"wbas:maf={m};interval=1d" for m in mafs]
    doc = compare(schedlab, log, specs + ["flex", "maui"])
    s = by_name(doc)
    print("By MAF, 1-day interval:\n\n| MAF | wait (s) | bsld | performance | stability |\n|---|---|---|---|---|")
    for m, spec in zip(mafs, specs):
        print(gains_row(str(m), s[spec]))
    print()
    intervals = log_points(60, 50 * 86400, points)
    specs = [f"wbas:maf=5000;interval={duration(i)}" for i in intervals]
    doc = compare(schedlab, log, specs + ["maui"])
    s = by_name(doc)
    print("By interval, MAF 5000:\n\n| interval | wait (s) | bsld | performance | stability |\n|---|---|---|---|---|")
    for i, spec in zip(intervals, specs):
        print(gains_row(label(i), s[spec]))
    print()
    doc = compare(schedlab, log, ["wbas:maf=7500;interval=1d", "wbas:maf=7500;interval=2h", "wbas:maf=750;interval=1d",
                                  "pbas:candidates=flex,maui;metric=utilization;interval=7d",
                                  "pbas:candidates=flex,maui;metric=response;interval=12h", "maui"])
    print("The thesis's best configurations (Tables 11 and 14):\n\n| configuration | wait (s) | bsld | performance | "
          "stability |\n|---|---|---|---|---|")
    for s in doc["schedulers"][:-1]:
        print(gains_row(s["name"], s))
    print()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--schedlab", default=os.path.join(HERE, "..", "build", "schedlab"))
    p.add_argument("--log", default="KTH-SP2-1996-2.swf.gz", help="a file in ../shared/traces or a path")
    p.add_argument("--blocks", default="table8,pbas,four,wbas")
    p.add_argument("--points", type=int, default=21, help="log-scale points per sweep (default 21)")
    p.add_argument("--maui", default="maui", help="the scheduler spec standing for Maui (default: maui)")
    a = p.parse_args()
    global MAUI
    MAUI = a.maui
    log = a.log if os.path.exists(a.log) else os.path.join(TRACES, a.log)
    name = os.path.basename(log).split(".swf")[0]
    blocks = a.blocks.split(",")
    if "table8" in blocks:
        table8(a.schedlab, log, name)
    if "pbas" in blocks:
        pbas(a.schedlab, log, name, a.points)
    if "four" in blocks:
        four(a.schedlab, log, name)
    if "wbas" in blocks:
        wbas(a.schedlab, log, name, a.points)


if __name__ == "__main__":
    main()
