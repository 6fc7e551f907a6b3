#!/usr/bin/env bash
# schedlab's start times against pyss's (the simulator of Tsafrir et al.'s EASY++ papers), job by job, on the same
# jobs: pyss's job model (runtime cut at the estimate, estimate >= runtime) written as an SWF log for schedlab.
# docs/simulator.md ("A peer simulator") has the figures.
#
# usage: bench/peer_pyss.sh PYSS_SRC PYTHON2 MODE LOG:PROCS:SCHEDULER ...
#   PYSS_SRC: the src/ directory of a pyss checkout (https://github.com/dinesh121991/pyss); PYTHON2: a Python 2.7
#   interpreter; MODE: per-event (pyss as it is) or per-instant (schedlab's event rule, bench/peer/pyss_starts.py)
# e.g. bench/peer_pyss.sh ~/pyss/src python2.7 per-instant ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz:100:easy
# Logs without estimates are no test: pyss runs each of their jobs for 1 s (min(requested -1, runtime), then >= 1).
set -euo pipefail
cd "$(dirname "$0")/.."
pyss=$1 python2=$2 mode=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| log:procs:scheduler ($mode) | jobs | start at another time | mean wait pyss (s) | mean wait schedlab (s) | first that differ |"
echo "|---|---|---|---|---|---|"
for run in "$@"; do
  IFS=: read -r log procs scheduler <<< "$run"
  zcat -f "$log" > "$work/log.swf"
  "$python2" -O bench/peer/pyss_starts.py "$pyss" "$work/log.swf" "$procs" "$scheduler" "$mode" > "$work/pyss.txt"
  awk -v P="$procs" 'BEGIN { print "; MaxProcs: " P }
    { print $1, $2, -1, $4, $6, -1, -1, $6, $5, -1, 1, -1, -1, -1, -1, -1, -1, -1 }' "$work/pyss.txt" > "$work/jobs.swf"
  ./build/schedlab simulate "$work/jobs.swf" -s "$scheduler" --jobs-out "$work/schedlab.csv" > /dev/null
  python3 bench/peer/compare_starts.py "$work/pyss.txt" "$work/schedlab.csv" "$(basename "$log" .swf.gz):$procs:$scheduler"
done
