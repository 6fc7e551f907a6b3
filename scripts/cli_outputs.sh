#!/usr/bin/env bash
# Runs every schedlab command on the bundled KTH log (and a few small inputs) and writes each output to a
# file of DIR, measured wall times masked, so two builds can be compared byte for byte:
#   scripts/cli_outputs.sh build/schedlab /tmp/before
#   ... change the code, rebuild ...
#   scripts/cli_outputs.sh build/schedlab /tmp/after && diff -r /tmp/before /tmp/after
# A refactoring that claims "no change in any output" must leave that diff empty.
set -euo pipefail
BIN=$(realpath "${1:?usage: scripts/cli_outputs.sh SCHEDLAB_BINARY OUT_DIR}")
OUT=${2:?usage: scripts/cli_outputs.sh SCHEDLAB_BINARY OUT_DIR}
cd "$(dirname "$0")/.."
KTH=data/KTH-SP2-1996-2.swf.gz
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Masks the measured times (wall time, ingest time and rate) that legitimately differ between runs.
mask() {
  sed -E -e "s|$WORK|<work>|g" -e 's/(simulation wall time +)[0-9.]+ s/\1<t> s/' \
         -e 's/"(wall_time_s|seconds|ingest_seconds|records_per_second)": [0-9.e+-]+/"\1": <t>/g' \
         -e 's/(ingest time +)[0-9.]+ s \([0-9]+ records\/s\)/\1<t>/' \
         -e 's/\([0-9.]+ s in the scheduler over/(<t> s in the scheduler over/' \
         -e 's/^(.*us per event +)[0-9.]+( +)[0-9.]+$/\1<t>\2<t>/' \
         -e 's/^(\[?[0-9, )*]*\*? +[0-9]+ +[0-9.]+) +[0-9.]+ +[0-9.]+$/\1 <t> <t>/' \
         -e 's/(growth exponent k in cost ~ queue\^k, over the rows marked \*: )[0-9.-]+/\1<t>/'
}

# run NAME ARGS...: stdout to NAME.out, stderr to NAME.err, exit status to NAME.rc
run() {
  local name=$1
  shift
  set +e
  "$BIN" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  echo $? >"$OUT/$name.rc"
  set -e
  mask <"$WORK/out" >"$OUT/$name.out"
  mask <"$WORK/err" >"$OUT/$name.err"
}

# Files a command wrote: copied (gzip decompressed, so that gzip headers do not matter).
keep() {
  local name=$1 file=$2
  if [[ "$file" == *.gz ]]; then zcat "$file" >"$OUT/$name"; else cp "$file" "$OUT/$name"; fi
}

run stats stats $KTH
run stats-json stats $KTH --json
run filter filter $KTH -o "$WORK/f.swf" --min-procs 32 --from +30d --to +60d
keep filter.swf "$WORK/f.swf"
run filter-users filter $KTH -o "$WORK/fu.swf.gz" --drop-flurries
keep filter-users.swf "$WORK/fu.swf.gz"
run convert-csv convert $KTH "$WORK/k.csv.gz"
keep convert.csv "$WORK/k.csv.gz"
run convert-swf convert "$WORK/k.csv.gz" "$WORK/k.swf"
keep convert.swf "$WORK/k.swf"

for s in fcfs fcfs-fill easy easy-sjbf conservative conservative:compress=fixpoint lewf lewf-fill easy-kill \
         easy-pcor easy+ easy++ perfect++; do
  n=${s//[:=]/-}
  run "simulate-$n" simulate $KTH --scheduler "$s" --warmup-fraction 0.01
  run "simulate-$n-json" simulate $KTH --scheduler "$s" --warmup-fraction 0.01 --json --check --jobs-out "$WORK/$n.csv"
  keep "simulate-$n.csv" "$WORK/$n.csv"
done
head -3000 <(zcat $KTH) >"$WORK/kth3000.swf"
for s in lerwf lerwf-fill easy-preemptive lerwf:resume_delay=30; do
  n=${s//[:=]/-}
  run "simulate-$n-json" simulate "$WORK/kth3000.swf" --scheduler "$s" --json --check
done
run simulate-load simulate $KTH --scheduler easy --load 0.9 --json --jobs-out "$WORK/load.swf"
keep simulate-load.swf "$WORK/load.swf"
run simulate-kill simulate $KTH --scheduler easy --kill-at-estimate --procs 128 --bsld-tau 60
run simulate-extend simulate $KTH --scheduler easy++ --extend-estimates --arrival-scale 0.8 --json
run simulate-correction simulate $KTH --scheduler easy --predictor user-last2 --correction tsafrir
run simulate-sbh simulate $KTH --scheduler easy --predictor 'sbh:criteria=PE,P,E,*;propagate=1' --json
run simulate-ruh simulate $KTH --scheduler easy-sjbf --predictor ruh --json
run simulate-event-cost simulate $KTH --scheduler easy --event-cost
run simulate-list simulate --list
run simulate-unknown simulate $KTH --scheduler nosuch

run predict-sbh predict $KTH --predictor 'sbh:criteria=PE,P,E,*;propagate=1'
run predict-json predict $KTH --predictor user-last2 --json
run predict-jobs predict $KTH --predictor ruh --jobs-out "$WORK/pred.csv"
keep predict-jobs.csv "$WORK/pred.csv"

run profiler-ingest profiler ingest $KTH --db "$WORK/k.db"
run profiler-ingest-again profiler ingest $KTH --db "$WORK/k.db" --json
run profiler-query profiler query --db "$WORK/k.db" --user 1 --procs 56
run profiler-query-elapsed profiler query --db "$WORK/k.db" --user 1 --procs 56 --elapsed 36000 --json
run profiler-compare profiler compare --db "$WORK/k.db" --user-a 7 --procs-a 1 --user-b 7 --procs-b 64 \
  --difference 300 --confidence 0.9

run locality analyze locality $KTH --seed 1 --bootstrap 200
run locality-json analyze locality $KTH --seed 1 --bootstrap 100 --attr procs --json
run diversity analyze diversity $KTH ../shared/traces/CTC-SP2-1996-3.1-cln.swf.gz
run runs analyze runs $KTH --size-only
run runs-ctc analyze runs ../shared/traces/CTC-SP2-1996-3.1-cln.swf.gz --json
run temporal analyze temporal $KTH
run temporal-json analyze temporal $KTH --json
run sessions sessions $KTH -o "$WORK/sessions.csv"
keep sessions.csv "$WORK/sessions.csv"
run sessions-classify sessions $KTH --classify --online --pca
run sessions-json sessions $KTH --classify --json
run flurries flurries $KTH --min-jobs 100
run categorize categorize $KTH
run categorize-json categorize $KTH --parallelism log2 --json

run estimates-bins estimates bins $KTH
run estimates-fit-tsafrir estimates fit $KTH --model tsafrir
run estimates-fit-song estimates fit $KTH --model song
run estimates-generate estimates generate $KTH --model f --params f=3 --seed 2 -o "$WORK/est.swf"
keep estimates-generate.swf "$WORK/est.swf"
run estimates-compare estimates compare $KTH "$WORK/est.swf"

run generate generate profiler-experiment --seed 1 -o "$WORK/pe.swf" --training-out "$WORK/pe-train.swf"
keep generate.swf "$WORK/pe.swf"
keep generate-train.swf "$WORK/pe-train.swf"

echo "cli_outputs: $(ls "$OUT" | wc -l) files in $OUT"
