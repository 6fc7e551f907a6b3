#!/usr/bin/env bash
# Fuzzes the parsers of outside input with libFuzzer for a bounded time each: the SWF reader, the CSV reader,
# the Slurm accounting converter, the sweep spec, and the plug-in spec grammar with the JSON parameter documents;
# and the simulator (every scheduler under its checks on small workloads, EASY against a reference).
#   usage: scripts/fuzz.sh SECONDS [TARGET...]
#          (targets: swf_reader csv_reader sacct sweep_spec plugin_spec simulate; default all)
# Configures and builds the `fuzz` preset (clang, -fsanitize=fuzzer + ASan/UBSan) into build-fuzz, runs each
# TARGET_fuzz on a scratch copy of fuzz/corpus/KIND (fuzz/corpus-run/KIND, git-ignored) for SECONDS with leak
# detection, FUZZ_JOBS targets at a time (default: the cores), and prints a one-line summary per target. Exits
# non-zero on a crash, leak, sanitizer report or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh SECONDS [swf_reader|csv_reader|sacct|sweep_spec|plugin_spec|simulate ...]" >&2
  exit 2
fi
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(swf_reader csv_reader sacct sweep_spec plugin_spec simulate)
jobs="${FUZZ_BUILD_JOBS:-2}"

# The preset turns on SCHEDLAB_FUZZ, which compiles the whole library with -fsanitize=fuzzer-no-link.
cmake --preset fuzz >/dev/null
for t in "${targets[@]}"; do cmake --build build-fuzz -j "$jobs" --target "${t}_fuzz" >/dev/null; done

# One target's run: its scratch corpus, its artifacts, its log; the exit status of the fuzzer.
fuzz_one() {
  local t=$1 kind=${1%_reader}
  local run_dir=fuzz/corpus-run/$kind artifacts=build-fuzz/fuzz-artifacts/$kind/ log=build-fuzz/fuzz-$kind.log
  rm -rf "$run_dir" "$artifacts"
  mkdir -p "$run_dir" "$artifacts"
  cp fuzz/corpus/"$kind"/* "$run_dir"/
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    ./build-fuzz/"${t}_fuzz" "$run_dir" -max_total_time="$seconds" -detect_leaks=1 -rss_limit_mb=2048 \
      -timeout=10 -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1
}

# The targets run side by side, FUZZ_JOBS at a time (default: the cores; each fuzzer is one process), so six
# targets of 60 s take 3 minutes of CI on two cores, not 6; each still gets its SECONDS. Summaries in target order.
parallel="${FUZZ_JOBS:-$(nproc)}"
declare -A pid_of status_of
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
for t in "${targets[@]}"; do
  set +e
  wait "${pid_of[$t]}"
  status_of[$t]=$?
  set -e
done

failed=0
for t in "${targets[@]}"; do
  kind=${t%_reader}
  run_dir=fuzz/corpus-run/$kind
  artifacts=build-fuzz/fuzz-artifacts/$kind/
  log=build-fuzz/fuzz-$kind.log
  status=${status_of[$t]}
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || true)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  corpus=$(ls "$run_dir" | wc -l)
  if [ "$status" -eq 0 ]; then
    echo "fuzz $t: OK - ${runs:-?} runs in ${seconds}s, coverage ${cov:-?}, corpus ${corpus} files, no crash (log: $log)"
  else
    crash=$(ls "$artifacts" 2>/dev/null | head -1)
    echo "fuzz $t: FAILED (exit $status) after ${runs:-?} runs; artifact: ${artifacts}${crash:-none}; see $log" >&2
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5 >&2 || true
    failed=1
  fi
done
exit "$failed"
