#!/usr/bin/env python3
"""Prints `schedlab analyze temporal` beside Talby's thesis Tables 37-40 (Appendix C) for the logs we share.

usage: examples/temporal_vs_thesis.py [SCHEDLAB] [TRACES_DIR]
The thesis's figures below are the published reference (copied from the thesis text, lines 2092-2192);
ours are measured by running the command on the archive's current versions of the logs.
"""
import json
import subprocess
import sys

cli = sys.argv[1] if len(sys.argv) > 1 else "./build/schedlab"
traces = sys.argv[2] if len(sys.argv) > 2 else "../shared/traces"
LOGS = {  # thesis name -> our file
    "NASA": "NASA-iPSC-1993-3.1-cln.swf.gz",
    "PAR96": "SDSC-Par-1996-3.1-cln.swf.gz",
    "CTC": "CTC-SP2-1996-3.1-cln.swf.gz",
    "KTH": "KTH-SP2-1996-2.swf.gz",
    "LACM5": "LANL-CM5-1994-4.1-cln.swf.gz",
    "OSC": "OSC-Clust-2000-3.1-cln.swf.gz",
}
SERIES = ["runtime", "procs", "cpu", "interarrival", "jobs"]
# Per log, per series in SERIES order: (15m, 150m) Table 37; (12h, 24h) Table 38; 7d Table 39; avg H Table 40.
T37 = {"NASA": [.05, .17, .45, .34, .21, .11, .01, -.02, .54, .53], "PAR96": [.11, .08, .38, .12, .07, -.03, .14, .15, .38, .33],
       "CTC": [.17, .20, .16, .18, .03, .07, .21, -.05, .39, .39], "KTH": [.24, .15, .16, .29, .04, .02, .10, .08, .24, .38],
       "LACM5": [.25, .32, .78, .56, -.01, .09, .16, -.05, .92, .74], "OSC": [.15, .10, .44, .51, .08, .07, .19, .02, .62, .62]}
T38 = {"NASA": [.05, .24, -.06, .39, .01, .30, -.01, .02, -.29, .40], "PAR96": [.19, .21, .05, .09, -.09, .05, .10, .07, .21, .18],
       "CTC": [-.18, .34, .02, .20, -.14, .16, .14, .08, -.04, .18], "KTH": [-.08, .02, -.02, .07, -.19, -.06, -.09, -.15, -.02, .12],
       "LACM5": [-.11, .31, .12, .44, -.01, .28, -.08, .15, .26, .45], "OSC": [.09, .12, .35, .25, .04, .10, .09, -.04, .49, .38]}
T39 = {"NASA": [.29, .27, .28, -.08, .49], "PAR96": [.22, .05, .04, -.09, .02], "CTC": [.21, .14, .15, .05, .11],
       "KTH": [.46, .46, .12, .02, .43], "LACM5": [.28, .14, .15, .00, .22], "OSC": [.40, .21, .34, .07, .20]}
T40 = {"NASA": [.65, .72, .60, .45, .74], "PAR96": [.71, .71, .62, .64, .78], "CTC": [.72, .63, .60, .58, .71],
       "KTH": [.68, .79, .61, .66, .69], "LACM5": [.82, .81, .80, .83, .99], "OSC": [.78, .79, .75, .84, .82]}


def measure(path):
    out = subprocess.run([cli, "analyze", "temporal", path, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["series"]


def pair(ours, theirs):
    return f"{ours:.2f} ({theirs:.2f})"


print("ours (thesis); series: runtime / procs / cpu / inter-arrival / jobs\n")
print("| log | measure | " + " | ".join(SERIES) + " |")
print("|---|---|" + "---|" * len(SERIES))
for name, file in LOGS.items():
    s = measure(f"{traces}/{file}")
    rows = {
        "15m": [pair(s[x]["locality"]["lag1_15m"], T37[name][2 * i]) for i, x in enumerate(SERIES)],
        "150m": [pair(s[x]["locality"]["lag1_150m"], T37[name][2 * i + 1]) for i, x in enumerate(SERIES)],
        "12h": [pair(s[x]["daily"]["lag_12h"], T38[name][2 * i]) for i, x in enumerate(SERIES)],
        "24h": [pair(s[x]["daily"]["lag_24h"], T38[name][2 * i + 1]) for i, x in enumerate(SERIES)],
        "7d": [pair(s[x]["weekly"]["lag_7d"], T39[name][i]) for i, x in enumerate(SERIES)],
        "Hurst avg": [pair(s[x]["hurst"]["average"], T40[name][i]) for i, x in enumerate(SERIES)],
    }
    for measure_name, cells in rows.items():
        print(f"| {name} ({file.split('.swf')[0]}) | {measure_name} | " + " | ".join(cells) + " |")
