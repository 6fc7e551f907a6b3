#!/usr/bin/env bash
# Regenerates the per-log predictor table of docs/predictors.md: EASY with each runtime predictor on every
# log of the traces directory that has user estimates (first 1% of terminated jobs excluded).
# Usage: examples/predictor_table.sh [SCHEDLAB_BINARY] [TRACES_DIR]   (prints a Markdown table)
set -euo pipefail
BIN=${1:-./build/schedlab}
TRACES=${2:-../shared/traces}
PREDICTORS=(
  "estimate"
  "user-last2:correction=tsafrir"
  "ruh:correction=tsafrir"
  "sbh:criteria=PE,P,E,*;order=dfs;propagate=1;correction=tsafrir"
  "sbh:criteria=E,P,X;order=dfs;propagate=1;correction=tsafrir"
  "perfect"
)
echo "| log | predictor | wait (min) | bounded slowdown | mean abs. error (s) | mean rel. accuracy | underestimated |"
echo "|---|---|---|---|---|---|---|"
for log in "$TRACES"/*.swf.gz; do
  # logs without any estimate (field 9) are skipped
  found=$( (zcat "$log" || true) | awk '!/^;/ && NF >= 9 && $9 > 0 { print 1; exit }')
  if [ -z "$found" ]; then continue; fi
  for p in "${PREDICTORS[@]}"; do
    "$BIN" simulate "$log" --scheduler easy --predictor "$p" --warmup-fraction 0.01 --json 2>/dev/null |
      python3 -c '
import json, sys
d = json.load(sys.stdin); m = d["metrics"]; a = d["accuracy"]
name = sys.argv[1].split("/")[-1].replace(".swf.gz", "")
wait = m["wait"]["mean"] / 60; bsld = m["bounded_slowdown"]["mean"]
aa = a["absolute_error"]["mean"]; ra = a["relative_accuracy"]["mean"]; under = a["underestimated_share"]
print(f"| {name} | `{sys.argv[2]}` | {wait:.1f} | {bsld:.2f} | {aa:.0f} | {ra:.3f} | {under:.3f} |")
' "$log" "$p"
  done
done
