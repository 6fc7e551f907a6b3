#!/usr/bin/env python3
"""Writes deterministic Slurm accounting text, as `sacct -P -a -X --format=...` prints it (a benchmark of
`schedlab convert --from sacct`, not a model): jobs submitted 0-60 s apart from 2025-01-01, waiting up to an
hour, running 1 s to 2 hours, 1-16 CPUs, 300 users in 20 groups, 500 job names, all COMPLETED. Same arguments ->
byte-identical output. The times are printed in --timezone (default Europe/Stockholm) as sacct prints them: local
times of real instants, so none in the hour skipped when daylight saving time begins (schedlab refuses those), and
the hour repeated when it ends is printed twice.

--requeued F: a share F of the jobs requeued once, as `sacct -D` prints them: a REQUEUED row for the first run, and
the last run's row (Submit at the requeue) 50 rows later. --eligible: an Eligible column after Submit, later than the
Submit (a dependency's wait, up to an hour) for one job in twenty. Without them, the text is as it always was.

usage: make_synthetic_sacct.py --jobs 1000000 --seed 1 [--requeued 0.01] [--eligible] [--timezone Z] -o sacct.txt
"""
import argparse
import datetime
import random
import zoneinfo


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--requeued", type=float, default=0.0)
    ap.add_argument("--eligible", action="store_true")
    ap.add_argument("--timezone", default="Europe/Stockholm")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    extra = random.Random(a.seed + 1)  # the options' draws: the base text stays the same
    zone = zoneinfo.ZoneInfo(a.timezone)
    # Arithmetic on UTC instants (an aware datetime adds a timedelta to its wall clock), printed in the zone.
    t = datetime.datetime(2025, 1, 1, tzinfo=zone).astimezone(datetime.timezone.utc)
    fmt = "%Y-%m-%dT%H:%M:%S"

    def local(instant):
        return instant.astimezone(zone).strftime(fmt)
    deferred = []  # (row index to write after, text): the last runs of requeued jobs

    def row(job, i, submit, eligible, start, end, state, cpus):
        e = f"{local(eligible)}|" if a.eligible else ""
        return (f"{job}|job{i % 500}|user{i % 300}|grp{i % 20}|batch|{local(submit)}|{e}{local(start)}|"
                f"{local(end)}|01:00:00|02:00:00|{state}|{cpus}|{cpus}|node1\n")

    with open(a.output, "w") as f:
        f.write("JobID|JobName|User|Group|Partition|Submit|" + ("Eligible|" if a.eligible else "") +
                "Start|End|Elapsed|Timelimit|State|AllocCPUS|ReqCPUS|NodeList\n")
        for i in range(a.jobs):
            t += datetime.timedelta(seconds=rng.randint(0, 60))
            start = t + datetime.timedelta(seconds=rng.randint(0, 3600))
            end = start + datetime.timedelta(seconds=rng.randint(1, 7200))
            cpus = rng.choice([1, 2, 4, 8, 16])
            eligible = t
            if a.eligible and extra.random() < 0.05:
                eligible = min(start, t + datetime.timedelta(seconds=extra.randint(1, 3600)))
            if a.requeued > 0 and extra.random() < a.requeued:
                cut = start + (end - start) / 2
                cut = cut.replace(microsecond=0)
                f.write(row(i + 1, i, t, eligible, start, cut, "REQUEUED", cpus))
                again = cut + datetime.timedelta(seconds=120)
                later = again + (end - start)
                deferred.append((i + 50, row(i + 1, i, cut, again, again, later, "COMPLETED", cpus)))
            else:
                f.write(row(i + 1, i, t, eligible, start, end, "COMPLETED", cpus))
            while deferred and deferred[0][0] <= i:
                f.write(deferred.pop(0)[1])
        for _, text in deferred:
            f.write(text)


if __name__ == "__main__":
    main()
