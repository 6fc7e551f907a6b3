#!/usr/bin/env bash
# Times schedlab over the real logs in ../shared/traces and a generated one-million-job log.
# Prints Markdown tables (wall seconds, records or jobs per second, peak resident memory).
#
# usage: bench/run.sh [stats|parse|simulate|generate|events|readlimit|bigstats|wide|sweep|sacct|feedback|all]   (default all)
# readlimit: EASY, conservative and stats on CEA-Curie against `zcat` of the same file, interleaved runs (READLIMIT_RUNS,
# default 11): wall and CPU medians and minima, peak memory (issue 25's targets: EASY <= 1.3x zcat, conservative
# <= 1 s, EASY < 40 MB). READLIMIT_BEFORE=BINARY adds another build's runs, interleaved, to compare a change.
# bigstats: `stats` on a generated ten-million-job plain log (650 MB; load 10, so that its span fits 32-bit submit
# times), for peak memory: linear in the records and under 1 GB (issue 25). Not part of "all".
# generate: the two workload models writing about one million jobs (plain SWF; jobs from the output's count).
# events: each scheduler's cost per event against the queue length (schedlab simulate --event-cost) on the
# first EVENTS_JOBS jobs (default 100000) of the generated log at load EVENTS_LOAD (default 0.9), where the
# queue grows from empty to about a thousand jobs; one row per scheduler, with the fitted exponent k of
# cost ~ queue^k. Not part of "all" (the preemptive schedulers take minutes there).
# wide: the backfilling schedulers on a generated log with ~50,000 jobs running at once and wide jobs at the
# head (bench/make_wide_log.py); WIDE_BEFORE=BINARY adds another build's rows. Not part of "all".
# sweep: a 100-run sweep on the bundled KTH log on 2 threads and 1, against the same runs as separate processes
# (docs/sweeps.md). Not part of "all".
# sacct: `convert --from sacct` of one million generated sacct rows (bench/make_synthetic_sacct.py, 131 MB) in a
# zone with daylight saving time, and of the same with 1% of the jobs requeued (sacct -D) and an Eligible column.
# Not part of "all".
# feedback: EASY and conservative on CEA-Curie with each job following its user's previous job when it was submitted
# within 20 minutes of that one's end (bench/chain_users.py), without and with --feedback. Not part of "all".
# Needs a release build (make build). The synthetic log is cached in $BENCH_DIR (default /tmp/schedlab-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
cli=./build/schedlab
traces=../shared/traces
bench_dir=${BENCH_DIR:-/tmp/schedlab-bench}
mkdir -p "$bench_dir"
synthetic=$bench_dir/synthetic-1M.swf
[ -x "$cli" ] || { echo "bench: build first (make build)" >&2; exit 1; }
[ -f "$synthetic" ] || python3 bench/make_synthetic_log.py --jobs 1000000 --procs 1024 --load 0.7 --seed 1 -o "$synthetic"

# measure LABEL RECORDS CMD... : runs CMD once under /usr/bin/time, prints a table row.
measure() {
  local label=$1 records=$2; shift 2
  local limit=${BENCH_TIMEOUT:-600} rc=0
  timeout "$limit" /usr/bin/time -f "%e %M" "$@" >/dev/null 2>"$bench_dir/time.txt" || rc=$?
  if [ "$rc" = 124 ]; then echo "| $label | > $limit s (timed out) |"; return; fi
  if [ "$rc" != 0 ]; then echo "| $label | failed: $(grep -v -e '^Command' -e '^[0-9.]* [0-9]*$' "$bench_dir/time.txt" | tail -1) |"; return; fi
  read -r secs kb < <(tail -1 "$bench_dir/time.txt")
  awk -v l="$label" -v n="$records" -v s="$secs" -v kb="$kb" \
    'BEGIN { rate = (s > 0) ? n / s : 0; printf "| %s | %d | %.2f | %.0f | %.0f |\n", l, n, s, rate, kb / 1024 }'
}

records_of() { case "$1" in *.gz) zcat "$1" ;; *) cat "$1" ;; esac | grep -vc '^[[:space:]]*\(;\|$\)' || true; }

if [ "$what" = stats ] || [ "$what" = all ]; then
  echo "### stats (read, validate, summarise)"
  echo "| log | records | seconds | records/s | peak MB |"
  echo "|---|---|---|---|---|"
  for f in "$traces"/*.swf.gz "$synthetic"; do
    measure "$(basename "$f")" "$(records_of "$f")" "$cli" stats "$f"
  done
  echo
fi

if [ "$what" = readlimit ]; then
  curie=$traces/CEA-Curie-2011-2.1-cln.swf.gz
  [ -f "$curie" ] || { echo "bench: $curie is missing" >&2; exit 1; }
  python3 - "$cli" "$curie" "${READLIMIT_RUNS:-11}" "${READLIMIT_BEFORE:-}" <<'PY'
import os, statistics, subprocess, sys, time
cli, log, n, before = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
binaries = {"": cli} if not before else {" (before)": before, "": cli}
cmds = {"zcat": ["zcat", log]}
for tag, b in binaries.items():
    cmds[f"easy{tag}"] = [b, "simulate", log, "-s", "easy"]
    cmds[f"conservative{tag}"] = [b, "simulate", log, "-s", "conservative"]
    cmds[f"stats{tag}"] = [b, "stats", log]
wall = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
rss = {k: 0 for k in cmds}
# Interleaved, so that a noisy machine weighs on every command alike; the minimum is the run least disturbed.
for _ in range(n):
    for k, c in cmds.items():
        t = time.perf_counter()
        p = subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall[k].append(time.perf_counter() - t)
        if status != 0:
            sys.exit(f"bench: {' '.join(c)} failed")
        cpu[k].append(usage.ru_utime + usage.ru_stime)
        rss[k] = max(rss[k], usage.ru_maxrss)
z = statistics.median(wall["zcat"])
print(f"### CEA-Curie against zcat ({n} interleaved runs)")
print("| command | wall median (s) | x zcat | wall min (s) | CPU median (s) | CPU min (s) | peak MB |")
print("|---|---|---|---|---|---|---|")
for k in cmds:
    w = statistics.median(wall[k])
    peak = "–" if k == "zcat" else f"{rss[k] / 1024:.0f}"  # (a child's peak counts the launcher's pages: ~14 MB)
    print(f"| {k} | {w:.3f} | {w / z:.2f} | {min(wall[k]):.3f} | {statistics.median(cpu[k]):.3f} | {min(cpu[k]):.3f} "
          f"| {peak} |")
PY
  echo
fi

if [ "$what" = feedback ]; then
  chained=$bench_dir/curie-chains.swf.gz
  [ -f "$chained" ] || python3 bench/chain_users.py "$traces/CEA-Curie-2011-2.1-cln.swf.gz" -o "$chained"
  echo "### simulate --feedback (CEA-Curie with user chains)"
  echo "| run | jobs | seconds | jobs/s | peak MB |"
  echo "|---|---|---|---|---|"
  n=$(records_of "$chained")
  for s in easy conservative; do
    measure "$s" "$n" "$cli" simulate "$chained" -s "$s"
    measure "$s --feedback" "$n" "$cli" simulate "$chained" -s "$s" --feedback
  done
  echo
fi

if [ "$what" = sacct ]; then
  sacct=$bench_dir/sacct-1M-local.txt  # local times of real instants: none in a skipped hour
  [ -f "$sacct" ] || python3 bench/make_synthetic_sacct.py --jobs 1000000 --seed 1 -o "$sacct"
  echo "### convert --from sacct (1M rows)"
  echo "| input | rows | seconds | rows/s | peak MB |"
  echo "|---|---|---|---|---|"
  measure "sacct-1M-local.txt" 1000000 "$cli" convert --from sacct --timezone Europe/Stockholm "$sacct" \
    "$bench_dir/sacct-1M.swf"
  # As `sacct -D` with an Eligible column: 1% of the jobs requeued once (their rows folded), 5% held.
  dq=$bench_dir/sacct-1M-local-requeued-eligible.txt
  [ -f "$dq" ] || python3 bench/make_synthetic_sacct.py --jobs 1000000 --seed 1 --requeued 0.01 --eligible -o "$dq"
  measure "sacct-1M-local-requeued-eligible.txt" 1009891 "$cli" convert --from sacct --timezone Europe/Stockholm "$dq" \
    "$bench_dir/sacct-1M-requeued-eligible.swf"
  echo
fi

if [ "$what" = bigstats ]; then
  big=$bench_dir/synthetic-10M.swf
  [ -f "$big" ] || python3 bench/make_synthetic_log.py --jobs 10000000 --procs 1024 --load 10 --seed 1 -o "$big"
  echo "### stats on 1M and 10M records (plain)"
  echo "| log | records | seconds | records/s | peak MB |"
  echo "|---|---|---|---|---|"
  head -c "$(grep -b -m 1000008 '' "$big" | tail -1 | cut -d: -f1)" "$big" >"$bench_dir/synthetic-10M-head1M.swf"
  measure "first 1M of synthetic-10M.swf" 1000000 "$cli" stats "$bench_dir/synthetic-10M-head1M.swf"
  measure "synthetic-10M.swf" 10000000 "$cli" stats "$big"
  echo
fi

if [ "$what" = simulate ] || [ "$what" = all ]; then
  schedulers=$("$cli" simulate --list 2>/dev/null | awk '/^schedulers/{on=1; next} /^(presets|predictors)/{on=0} on && NF {print $1}')
  echo "### simulate (read + simulate, default predictor)"
  echo "| log / scheduler | jobs | seconds | jobs/s | peak MB |"
  echo "|---|---|---|---|---|"
  for f in "$traces"/*-cln.swf.gz "$traces"/KTH-SP2-1996-2.swf.gz; do
    n=$(records_of "$f")
    for s in $schedulers; do measure "$(basename "$f" .swf.gz) / $s" "$n" "$cli" simulate "$f" --scheduler "$s"; done
  done
  for load in 0.5 0.7 0.9 0.95; do
    for s in $schedulers; do measure "synthetic-1M load $load / $s" 1000000 "$cli" simulate "$synthetic" --scheduler "$s" --load "$load"; done
  done
  echo
fi

if [ "$what" = generate ] || [ "$what" = all ]; then
  kth=data/KTH-SP2-1996-2.swf.gz
  job_model=$bench_dir/kth-job-model.json
  "$cli" generate talby --fit "$kth" --save-job-model "$job_model" >/dev/null
  echo "### generate (model + estimates + writing a plain SWF)"
  echo "| model | jobs | seconds | jobs/s | peak MB |"
  echo "|---|---|---|---|---|"
  measure "locality, KTH, theta 2.5" 1000000 "$cli" generate locality --from "$kth" --jobs 1000000 -o "$bench_dir/locality-1M.swf"
  measure "scramble, KTH" 28489 "$cli" generate scramble --from "$kth" -o "$bench_dir/scramble.swf"
  # Talby: 1,024 processors over 800 weeks (beyond the 2-year guideline, for size) give about 1.09 million jobs.
  "$cli" generate talby --procs 1024 --weeks 800 --job-model "$job_model" -o "$bench_dir/talby.swf" >/dev/null 2>&1
  measure "talby, 1024 procs, 800 weeks, KTH job layer" "$(records_of "$bench_dir/talby.swf")" \
    "$cli" generate talby --procs 1024 --weeks 800 --job-model "$job_model" -o "$bench_dir/talby.swf"
  echo
fi

if [ "$what" = events ]; then
  jobs=${EVENTS_JOBS:-100000}
  load=${EVENTS_LOAD:-0.9}
  prefix=$bench_dir/synthetic-first-$jobs.swf
  [ -f "$prefix" ] || awk -v n="$jobs" '/^;/ { print; next } ++kept > n { exit } { print }' "$synthetic" >"$prefix"
  schedulers=$("$cli" simulate --list 2>/dev/null | awk '/^schedulers/{on=1; next} /^(presets|predictors)/{on=0} on && NF {print $1}')
  echo "### cost per event against the queue length (first $jobs jobs of the generated log, load $load)"
  echo "| scheduler | events | s in scheduler | µs/event, queue 64–127 | µs/event, queue 512–1023 | µs per queued job (64–127 → 512–1023) | exponent k |"
  echo "|---|---|---|---|---|---|---|"
  for s in $schedulers; do
    if ! timeout "${BENCH_TIMEOUT:-600}" "$cli" simulate "$prefix" --scheduler "$s" --load "$load" --event-cost --json \
        >"$bench_dir/events.json" 2>"$bench_dir/events.err"; then
      echo "| $s | failed or timed out (${BENCH_TIMEOUT:-600} s) | | | | | |"
      continue
    fi
    python3 - "$s" "$bench_dir/events.json" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
cost = json.load(open(path))["event_cost"]
rows = {b["queue_from"]: b for b in cost["buckets"]}
def us(q): return f'{rows[q]["mean_us"]:.2f}' if q in rows else "–"
def per(q): return f'{rows[q]["us_per_queued_job"]:.4f}' if q in rows else "–"
k = cost["exponent"]
print(f'| {name} | {cost["events"]} | {cost["scheduler_seconds"]:.2f} | {us(64)} | {us(512)} | {per(64)} → {per(512)} | '
      f'{"–" if k is None else f"{k:.2f}"} |')
PY
  done
  echo
fi

if [ "$what" = wide ]; then
  wide=$bench_dir/wide-200k.swf
  [ -f "$wide" ] || python3 bench/make_wide_log.py --jobs 200000 --seed 7 -o "$wide"
  echo "### many jobs running at once (bench/make_wide_log.py: 200,000 jobs, 100,000 processors)"
  echo "| scheduler | jobs | seconds | jobs/s | peak MB |"
  echo "|---|---|---|---|---|"
  for s in fcfs fcfs-fill easy easy-sjbf easy++ easy-kill conservative; do
    [ -z "${WIDE_BEFORE:-}" ] || measure "$s (before)" 200000 "$WIDE_BEFORE" simulate "$wide" --scheduler "$s"
    measure "$s" 200000 "$cli" simulate "$wide" --scheduler "$s"
  done
  echo
fi

if [ "$what" = sweep ]; then
  # docs/sweeps.md: 100 runs on the bundled KTH log (5 schedulers x 10 loads x 2 seeds) as one sweep on 2 threads and
  # on 1, and as 100 separate `simulate` processes one after another; every run's mean wait and mean bounded slowdown
  # compared between the sweep and its process (they must be equal).
  python3 - "$cli" "$bench_dir" <<'PY'
import csv, json, os, subprocess, sys, time
cli, work = sys.argv[1], sys.argv[2]
log = os.path.abspath("data/KTH-SP2-1996-2.swf.gz")
schedulers = ["easy", "conservative", "easy-sjbf", "fcfs-fill", "lewf"]
loads = [round(0.5 + 0.05 * i, 2) for i in range(10)]
seeds = [1, 2]
spec = os.path.join(work, "sweep-100.toml")
open(spec, "w").write(f"logs = [{json.dumps(log)}]\nschedulers = {json.dumps(schedulers)}\n"
                      f"loads = {json.dumps(loads)}\nseeds = {json.dumps(seeds)}\n")
def timed(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0
rows = {}
for threads in (2, 1):
    out = os.path.join(work, f"sweep-100-{threads}.csv")
    if os.path.exists(out): os.remove(out)
    secs = timed([cli, "sweep", spec, "-o", out, "--threads", str(threads)])
    print(f"sweep of {len(schedulers) * len(loads) * len(seeds)} runs on {threads} thread(s): {secs:.2f} s")
    for r in csv.DictReader(open(out)):
        rows[(r["scheduler"], float(r["load"]), int(r["seed"]))] = (float(r["wait_mean"]), float(r["bounded_slowdown_mean"]))
t0 = time.perf_counter()
differ = 0
for s in schedulers:
    for load in loads:
        for seed in seeds:
            res = subprocess.run([cli, "simulate", log, "--scheduler", s, "--load", str(load), "--seed", str(seed),
                                  "--json"], check=True, capture_output=True, text=True)
            m = json.loads(res.stdout)["metrics"]
            got = (m["wait"]["mean"], m["bounded_slowdown"]["mean"])
            if rows.get((s, load, seed)) != got:
                differ += 1
                print(f"DIFFERS: {s} load {load} seed {seed}: sweep {rows.get((s, load, seed))}, simulate {got}")
secs = time.perf_counter() - t0
print(f"the same runs as separate simulate processes: {secs:.2f} s; {differ} of 100 differ from the sweep")
PY
fi
