#!/usr/bin/env bash
# Every script of examples/ run once, small, against the built CLI and Python module: exit 0 and a line of its
# table. They regenerate the tables of docs/ and were run only by hand, so a change could break one unseen (the
# sweep's log cells once did, estimate_models_sweep.py looking its rows up by the paths it wrote).
# usage: tests/examples_test.sh SCHEDLAB PYTHON PYTHONPATH   (exit 77 = skipped: the shared logs are absent)
set -uo pipefail
cli=$(readlink -f "$1") py=$2 pypath=$(readlink -f "$3")
root=$(cd "$(dirname "$0")/.." && pwd)
traces=$(readlink -f "$root/../shared/traces" 2>/dev/null || true)
if [ -z "$traces" ] || [ ! -f "$traces/KTH-SP2-1996-2.swf.gz" ]; then
  echo "examples_test: SKIPPED: ../shared/traces is absent (the examples read the shared logs)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two logs for the scripts that walk a traces directory.
mkdir "$work/traces"
ln -s "$traces/KTH-SP2-1996-2.swf.gz" "$traces/CTC-SP2-1996-3.1-cln.swf.gz" "$work/traces/"
cd "$root" || exit 1
export PYTHONPATH=$pypath
failed=0
# check NAME EXPECTED-TEXT COMMAND...: the command exits 0 and prints EXPECTED-TEXT.
check() {
  local name=$1 want=$2
  shift 2
  local start=$SECONDS out
  out=$("$@" 2>&1)
  local rc=$?
  if [ $rc -ne 0 ] || ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL $name (exit $rc; wanted '$want'):"
    tail -15 <<<"$out" | sed 's/^/    /'
    failed=$((failed + 1))
  else
    echo "ok   $name ($((SECONDS - start)) s)"
  fi
}
check python_quickstart "28,489 jobs, 214 users" "$py" examples/python_quickstart.py "$work/q.png"
check python_predictor '| `same-size` |' "$py" examples/python_predictor.py
check adaptive_experiments "### Table 8" "$py" examples/adaptive_experiments.py --schedlab "$cli"
check locality_vs_adaptive "| KTH-SP2-1996-2 |" bash examples/locality_vs_adaptive.sh "$cli"
check profiler_experiment "| variant | response s |" "$py" examples/profiler_experiment.py
check predictor_table "| KTH-SP2-1996-2 | \`estimate\` |" bash examples/predictor_table.sh "$cli" "$work/traces"
check song_tables "KTH,CTC" "$py" examples/song_tables.py --schedlab "$cli" KTH-SP2-1996-2.swf.gz \
  CTC-SP2-1996-3.1-cln.swf.gz
check estimate_models_experiment "closest to the real estimates" "$py" examples/estimate_models_experiment.py \
  --seeds 1 --schedlab "$cli" KTH-SP2-1996-2.swf.gz
check estimate_models_sweep "feit" "$py" examples/estimate_models_sweep.py --seeds 1 --schedlab "$cli" \
  KTH-SP2-1996-2.swf.gz
check temporal_vs_thesis "Hurst avg" "$py" examples/temporal_vs_thesis.py "$cli" "$traces"
check user_classes_vs_thesis "STWD" "$py" examples/user_classes_vs_thesis.py "$cli" "$traces"
check locality_model_fig11 "| 2.5 |" "$py" examples/locality_model_fig11.py --schedlab "$cli"
check backfilled_jobs "| KTH-SP2-1996-2 | 60.4% (114.6 / 91.76)" "$py" examples/backfilled_jobs.py --schedlab "$cli" \
  --traces "$work/traces"
check talby_validation "| Talby 128, seed 1 |" "$py" examples/talby_validation.py "$cli" --seeds 1 --sizes 128 --rounds 20
check job_classes_by_load "| 0.9 | 44,828 / 14,416 / 164,002 |" "$py" examples/job_classes_by_load.py
echo "examples_test: $failed failed"
[ $failed -eq 0 ]
