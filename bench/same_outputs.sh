#!/usr/bin/env bash
# Byte comparison of two schedlab binaries' outputs on every shared log: the log read and written back (`convert`
# to SWF), and every fast scheduler's per-job output (`simulate --jobs-out`) and JSON report (metrics, accuracy;
# the wall time left out; the after binary's also without --jobs-out, where the records are freed early). For a
# change meant to make
# schedlab faster without changing a single result (docs/performance.md).
#
# usage: bench/same_outputs.sh BEFORE_BINARY AFTER_BINARY [SCHEDULER...]
#        (default schedulers: fcfs fcfs-fill easy easy-sjbf conservative lewf lerwf easy-kill easy++ maui;
#        SAME_TIMEOUT=S caps each run, default 120 s: a run that times out in both is reported, not compared)
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1 after=$2
shift 2
schedulers=("$@")
[ ${#schedulers[@]} -gt 0 ] || schedulers=(fcfs fcfs-fill easy easy-sjbf conservative lewf lerwf easy-kill easy++ maui)
limit=${SAME_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compared=0 differ=0 skipped=0
for log in ../shared/traces/*.swf.gz; do
  name=$(basename "$log" .swf.gz)
  "$before" convert "$log" "$work/b.swf" >/dev/null 2>&1
  "$after" convert "$log" "$work/a.swf" >/dev/null 2>&1
  if cmp -s "$work/b.swf" "$work/a.swf"; then compared=$((compared + 1)); else echo "DIFFERS: $name convert"; differ=$((differ + 1)); fi
  for s in "${schedulers[@]}"; do
    rb=0 ra=0
    # Standard error apart: it carries the progress of long runs (after 2 s), which differs run to run.
    timeout "$limit" "$before" simulate "$log" -s "$s" --json --jobs-out "$work/b.csv" >"$work/b.json" 2>"$work/b.err" || rb=$?
    timeout "$limit" "$after" simulate "$log" -s "$s" --json --jobs-out "$work/a.csv" >"$work/a.json" 2>"$work/a.err" || ra=$?
    sed -i '/wall_time_s/d' "$work/b.json" "$work/a.json"
    if [ "$rb" = 124 ] || [ "$ra" = 124 ]; then echo "timed out: $name $s"; skipped=$((skipped + 1)); continue; fi
    if [ "$rb" != "$ra" ]; then echo "DIFFERS: $name $s exit $rb vs $ra"; differ=$((differ + 1)); continue; fi
    if [ "$rb" != 0 ]; then  # the same failure in both: the same message
      if cmp -s <(grep -v '^simulate: ' "$work/b.err") <(grep -v '^simulate: ' "$work/a.err"); then
        compared=$((compared + 1)); else echo "DIFFERS: $name $s error message"; differ=$((differ + 1)); fi
      continue
    fi
    # And the after binary without per-job output, the path where simulate frees the records before simulating.
    timeout "$limit" "$after" simulate "$log" -s "$s" --json >"$work/a2.json" 2>/dev/null || true
    sed -i '/wall_time_s/d' "$work/a2.json"
    if cmp -s "$work/b.csv" "$work/a.csv" && cmp -s "$work/b.json" "$work/a.json" && cmp -s "$work/b.json" "$work/a2.json"
    then compared=$((compared + 1)); else echo "DIFFERS: $name $s"; differ=$((differ + 1)); fi
  done
done
echo "same_outputs: $compared identical, $differ differ, $skipped timed out"
[ "$differ" = 0 ]
