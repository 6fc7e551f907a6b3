#!/usr/bin/env bash
# Line coverage of the library by the unit tests (gcov, GCC's own): which code no test reaches. Not part of
# `make check`; a developer's tool (docs/design.md, "Testing").
#
#   scripts/coverage.sh [GTEST_FILTER]     (default: every test but every scheduler over every whole real log
#                                           (SimLogs, AllLogs: tens of minutes unoptimised) and the Slurm ones;
#                                           the rest, real-log tests included, take about 10 minutes here)
#
# Builds build-coverage (the `coverage` preset: -O0 --coverage), runs build-coverage/schedlab_tests with the
# filter, and prints each library file's executed share of lines, lowest first, then the lines no test reached
# in the files below COVERAGE_SHOW percent (default 90), leaving out lines that only raise an error. The .gcov
# files stay in build-coverage/gcov.
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:--SimLogs*:*AllLogs*:*Slurm*}
show=${COVERAGE_SHOW:-90}
cmake --preset coverage >/dev/null
cmake --build build-coverage -j "$(nproc)" --target schedlab_tests schedlab
find build-coverage -name '*.gcda' -delete
(cd build-coverage && ./schedlab_tests --gtest_filter="$filter" >tests.log 2>&1) ||
  { tail -20 build-coverage/tests.log; echo "coverage: tests failed (build-coverage/tests.log)" >&2; exit 1; }
rm -rf build-coverage/gcov
mkdir -p build-coverage/gcov
root=$PWD
objects=$root/build-coverage/CMakeFiles/schedlab_lib.dir
table=()
for data in $(find "$objects" -name '*.gcda' | sort); do
  source=${data#"$objects/"}
  source=${source%.gcda}
  # Paths relative to the source tree (-s, -r: the system headers left out), kept in the .gcov names (-p).
  line=$(cd build-coverage/gcov && gcov -p -r -s "$root" -o "${data%.gcda}.o" "$root/$source" 2>/dev/null |
         grep -A1 "^File '$source'" | sed -n 's/^Lines executed:\([0-9.]*\)% of \([0-9]*\)/\1 \2/p' || true)
  [ -n "$line" ] && table+=("$line $source")
done
printf '%s\n' "${table[@]}" | sort -n | awk '{printf "%7.2f%%  %5d lines  %s\n", $1, $2, $3}'
echo
printf '%s\n' "${table[@]}" | sort -n | while read -r pct _ source; do
  awk -v p="$pct" -v s="$show" 'BEGIN { exit !(p < s) }' || continue
  gcov_file=build-coverage/gcov/$(echo "$source" | sed 's|/|#|g').gcov
  [ -f "$gcov_file" ] || continue
  echo "== $source ($pct%): lines no test reached (errors left out)"
  grep '#####' "$gcov_file" | grep -v -E 'throw|fail\(|logic_error|invalid_argument|error' | head -40 || true
done
