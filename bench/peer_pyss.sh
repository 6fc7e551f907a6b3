#!/usr/bin/env bash
# schedlab's start times against pyss's (the simulator of Tsafrir et al.'s EASY++ papers), job by job, on the same
# jobs: pyss's job model (runtime cut at the estimate, estimate >= runtime) written as an SWF log for schedlab.
# docs/simulator.md ("A peer simulator") has the figures.
#
# usage: bench/peer_pyss.sh PYSS_SRC PYTHON2 MODE LOG:PROCS:SCHEDULER[:PREDICTOR] ...
#   PYSS_SRC: the src/ directory of a pyss checkout (https://github.com/dinesh121991/pyss); PYTHON2: a Python 2.7
#   interpreter; MODE: per-event (pyss as it is) or per-instant (schedlab's event rule, bench/peer/pyss_starts.py);
#   SCHEDULER: fcfs, easy, easy-sjbf, conservative, maui-xfactor (schedlab's maui:priority=xfactor), easy+ or
#   easy++; PREDICTOR: estimate (default) or perfect (the actual runtime); for easy+ and easy++, whose predictor is
#   pyss's own, pyss (default: schedlab's user-last2 with pyss's rule, job by job) or paper (schedlab's presets,
#   the rule of the paper: the averages are the comparison)
# e.g. bench/peer_pyss.sh ~/pyss/src python2.7 per-instant ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz:100:easy
# Logs without estimates are no test: pyss runs each of their jobs for 1 s (min(requested -1, runtime), then >= 1).
set -euo pipefail
cd "$(dirname "$0")/.."
pyss=$1 python2=$2 mode=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| log:procs:scheduler ($mode) | jobs | start at another time | mean wait pyss (s) | mean wait schedlab (s) |" \
  "wait (min) / bsld, first 1% of ends left out, pyss | schedlab | first that differ |"
echo "|---|---|---|---|---|---|---|---|"
for run in "$@"; do
  IFS=: read -r log procs scheduler predictor <<< "$run"
  spec=$scheduler predict=()
  case $scheduler in
    maui-xfactor) spec="maui:priority=xfactor" ;;
    easy+ | easy++)
      predictor=${predictor:-pyss}
      [[ $predictor == pyss || $predictor == paper ]] || { echo "$run: $scheduler takes pyss or paper" >&2; exit 2; }
      if [[ $predictor == pyss ]]; then
        spec=easy
        [[ $scheduler == easy++ ]] && spec=easy-sjbf
        predict=(-p "user-last2:order=end;propagate=1;min_jobs=2;running=0;correction=tsafrir")
      fi ;;
  esac
  predictor=${predictor:-estimate}
  [[ $predictor == estimate || $scheduler == easy+* ]] || predict=(-p "$predictor")
  pyss_predictor=$predictor
  [[ $scheduler == easy+* ]] && pyss_predictor=estimate
  zcat -f "$log" > "$work/log.swf"
  "$python2" -O bench/peer/pyss_starts.py "$pyss" "$work/log.swf" "$procs" "$scheduler" "$mode" "$pyss_predictor" \
    > "$work/pyss.txt"
  awk -v P="$procs" 'BEGIN { print "; MaxProcs: " P }
    { print $1, $2, -1, $4, $6, -1, -1, $6, $5, -1, 1, $7, -1, -1, -1, -1, -1, -1 }' "$work/pyss.txt" > "$work/jobs.swf"
  ./build/schedlab simulate "$work/jobs.swf" -s "$spec" "${predict[@]}" --jobs-out "$work/schedlab.csv" > /dev/null
  python3 bench/peer/compare_starts.py "$work/pyss.txt" "$work/schedlab.csv" \
    "$(basename "$log" .swf.gz):$procs:$scheduler:$predictor"
done
