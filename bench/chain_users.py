#!/usr/bin/env python3
"""Writes a copy of an SWF log in which each job names its user's previous job (SWF fields 17-18) when the log shows
it submitted within 20 minutes after that job's end, with that gap as its think time: a log with feedback, for
bench/run.sh feedback (the archive's logs carry none). Plain Python, no NumPy."""
import argparse
import gzip


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("log")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--within", type=int, default=1200, help="largest think time linked, seconds (default 1200)")
    a = ap.parse_args()
    opener = gzip.open if a.log.endswith(".gz") else open
    header, rows = [], []
    with opener(a.log, "rt") as f:
        for line in f:
            if line.lstrip().startswith(";") or not line.strip():
                header.append(line.rstrip("\n"))
            else:
                rows.append(line.split())
    order = sorted(range(len(rows)), key=lambda i: (int(rows[i][1]), int(rows[i][0])))
    last = {}  # user -> (job number, logged end)
    linked = 0
    for i in order:
        r = rows[i]
        submit, wait, run, user = int(r[1]), int(r[2]), int(r[3]), r[11]
        prev = last.get(user)
        if prev is not None and 0 <= submit - prev[1] < a.within:
            r[16], r[17] = prev[0], str(submit - prev[1])
            linked += 1
        if run >= 0:
            last[user] = (r[0], submit + max(wait, 0) + run)
    out = gzip.open if a.output.endswith(".gz") else open
    with out(a.output, "wt") as f:
        for h in header:
            f.write(h + "\n")
        f.write(f"; Note: bench/chain_users.py: {linked} jobs name their user's previous job (fields 17-18)\n")
        for r in rows:
            f.write(" ".join(r) + "\n")
    print(f"{a.output}: {linked} of {len(rows)} jobs follow their user's previous job")


if __name__ == "__main__":
    main()
