#!/usr/bin/env bash
# The thesis's claim (Talby §7.5): adaptive scheduling gains come from locality of sampling and the cycles, so a
# workload without them gives another answer. Gains over Maui (wait: whole-log mean, and standard deviation of
# the monthly means) on KTH-SP2-1996-2, its scrambled version, Feitelson's locality model fitted to it (theta 2.5;
# Poisson arrivals, or the log's own arrival times) and Talby's user/session model at 100 processors (48 weeks,
# KTH's length; the job layer fitted on KTH; three seeds, as the thesis asks for several instances). Prints a
# Markdown table.
# usage: examples/locality_vs_adaptive.sh [build/schedlab]
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${1:-build/schedlab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=data/KTH-SP2-1996-2.swf.gz
"$cli" generate scramble --from "$log" -o "$tmp/scrambled.swf" >/dev/null
"$cli" generate locality --from "$log" --theta 2.5 -o "$tmp/model.swf" >/dev/null
"$cli" generate locality --from "$log" --theta 2.5 --arrivals log -o "$tmp/model-log.swf" >/dev/null
for seed in 1 2 3; do
  "$cli" generate talby --procs 100 --weeks 48 --seed "$seed" -o "$tmp/talby-$seed.swf" >/dev/null 2>&1
done
policies='flex,maui,[pbas:candidates=flex,maui;metric=bsld;interval=16m],[pbas:candidates=flex,maui;metric=utilization;interval=7d],[wbas:maf=5000;interval=50m]'
echo "| workload | Maui wait (s) | Flex | PBAS bsld 16 min | PBAS utilization 7 d | WBAS 5000 50 min |"
echo "|---|---|---|---|---|---|"
# The two models' generated logs name, for each job submitted after an earlier one ended (a repeat; a session's job
# after the previous one's end), that job and the think time (SWF fields 17-18): their rows with --feedback submit
# those jobs after the simulated end, as the models mean them, instead of at the generated times, which assume no wait.
for w in "KTH-SP2-1996-2:$log" "scrambled:$tmp/scrambled.swf" "locality model, Poisson:$tmp/model.swf" \
         "locality model, Poisson, feedback:$tmp/model.swf:--feedback" \
         "locality model, log arrivals:$tmp/model-log.swf" \
         "locality model, log arrivals, feedback:$tmp/model-log.swf:--feedback" \
         "Talby model, seed 1:$tmp/talby-1.swf" "Talby model, seed 1, feedback:$tmp/talby-1.swf:--feedback" \
         "Talby model, seed 2:$tmp/talby-2.swf" "Talby model, seed 2, feedback:$tmp/talby-2.swf:--feedback" \
         "Talby model, seed 3:$tmp/talby-3.swf" "Talby model, seed 3, feedback:$tmp/talby-3.swf:--feedback"; do
  IFS=: read -r label path flags <<< "$w"
  "$cli" compare "$path" --procs 100 -s "$policies" --baseline maui $flags --json > "$tmp/r.json"
  python3 - "$label" "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
s = {x["name"]: x for x in d["schedulers"]}
cells = [f"{s['maui']['wait']['mean']:.0f}"]
for n in d["schedulers"]:
    if n["name"] == "maui":
        continue
    cells.append(f"{100 * n['wait']['performance_gain']:+.0f}% / {100 * n['wait']['stability_gain']:+.0f}%")
print(f"| {sys.argv[1]} | " + " | ".join(cells) + " |")
PY
done
