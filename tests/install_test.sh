#!/usr/bin/env bash
# The installed tree works on its own, wherever it is put: `cmake --install` into a temporary prefix, the prefix
# moved elsewhere, then the installed CLI (simulate, report, generate talby on the bundled log), the installed
# Python package, and a C++ program of its own (examples/cpp) built with find_package(schedlab) against it. No
# installed binary or CMake file may name the build or source tree (it would break once that tree is gone).
# usage: tests/install_test.sh BUILD_DIR [PYTHON]   (PYTHON: the interpreter the module is built for, if any)
set -uo pipefail
build=$(readlink -f "$1") py=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(readlink -f "$(mktemp -d)")  # the binary names its places by their real path
# cmake --install records what it installed in BUILD/install_manifest.txt, which `make uninstall` reads: the user's
# own install's record is put back afterwards.
manifest=$build/install_manifest.txt
if [ -f "$manifest" ]; then cp -p "$manifest" "$work.manifest"; fi
restore() {
  if [ -f "$work.manifest" ]; then mv -f "$work.manifest" "$manifest"; else rm -f "$manifest"; fi
  rm -rf "$work"
}
trap restore EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install"; }
mv "$work/prefix" "$work/moved"
p=$work/moved
for f in bin/schedlab share/schedlab/report-libs.js share/schedlab/KTH-SP2-1996-2.swf.gz lib/libschedlab.a \
         include/schedlab/sim/scheduler.h lib/cmake/schedlab/schedlabConfig.cmake; do
  [ -f "$p/$f" ] || fail "not installed: $f"
done
# Nothing installed may point into the trees it was built from.
hits=$(grep -rlF -e "$build" -e "$root/" "$p/bin" "$p/lib" 2>/dev/null)
[ -z "$hits" ] || fail "installed files name the build or source tree: $hits"

cd "$work" || exit 1
kth=$p/share/schedlab/KTH-SP2-1996-2.swf.gz
want=$("$build/schedlab" simulate "$kth" -s easy | grep '^wait (s)') || fail "build tree's simulate"
got=$("$p/bin/schedlab" simulate "$kth" -s easy | grep '^wait (s)') || fail "installed simulate"
[ "$got" = "$want" ] || fail "installed simulate: '$got', build tree: '$want'"
"$p/bin/schedlab" report "$kth" -o page.html --schedulers easy >report.log 2>&1 ||
  { cat report.log; fail "installed report"; }
grep -q "vega-embed" page.html || fail "the installed report's page lacks the plotting libraries"
"$p/bin/schedlab" generate talby --procs 100 --weeks 2 -o talby.swf >talby.log 2>&1 ||
  { cat talby.log; fail "installed generate talby"; }
grep -q "fitted on KTH-SP2-1996-2.swf.gz (bundled)" talby.log || fail "generate talby did not fit on the bundled log"
comp=$p/share/bash-completion/completions/schedlab
[ -f "$comp" ] || fail "not installed: the bash completion"
got=$(PATH=$p/bin:$PATH bash -c "source '$comp'; COMP_WORDS=(schedlab ana); COMP_CWORD=1; _schedlab; echo \${COMPREPLY[*]}")
[ "$got" = "analyze" ] || fail "the installed bash completion of 'schedlab ana' gave '$got'"
echo "CLI: simulate, report, generate talby and bash completion from $p"
# The binary alone, without its shipped files: a clear error naming where it looked, not a crash or a page
# without plots.
mkdir alone && cp "$p/bin/schedlab" alone/
alone/schedlab report "$kth" -o alone.html >alone.log 2>&1
rc=$?
want_err="report-libs.js is missing: schedlab ships it in $work/share/schedlab (installed) or"
want_err+=" $work/alone/share/schedlab (build tree)"
[ $rc -eq 1 ] && grep -qF "$want_err" alone.log ||
  { cat alone.log; fail "report without its libraries: exit $rc"; }
[ ! -e alone.html ] || fail "report without its libraries wrote a page"
alone/schedlab generate talby --procs 100 --weeks 2 -o alone.swf >alone.log 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qF "KTH-SP2-1996-2.swf.gz is missing" alone.log ||
  { cat alone.log; fail "talby without the bundled log: exit $rc"; }

if [ -n "$py" ]; then
  pydir=$(ls -d "$p"/lib/python3*/*-packages 2>/dev/null | head -1)
  [ -n "$pydir" ] && [ -f "$pydir/schedlab/__init__.py" ] || fail "the Python package is not installed"
  [ -f "$pydir/schedlab/__init__.pyi" ] && [ -f "$pydir/schedlab/py.typed" ] || fail "the Python type stubs are not installed"
  PYTHONPATH=$pydir "$py" - "$p" "$kth" <<'PY' || fail "installed Python package"
import os, sys, warnings
import schedlab
prefix, kth = sys.argv[1], sys.argv[2]
assert schedlab.__file__.startswith(prefix), schedlab.__file__
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # a 2-week log is short for the model: it says so
    df, report = schedlab.generate_talby(procs=100, weeks=2)
assert len(df) > 0 and "(bundled)" in report["job_model"]["source"], report["job_model"]
schedlab.report(kth, "py-page.html", schedulers=["easy"])
assert os.path.getsize("py-page.html") > 100000
print("Python: generate_talby and report from", os.path.dirname(schedlab.__file__))
PY
fi

cmake -S "$root/examples/cpp" -B own -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release >own.log 2>&1 &&
  cmake --build own >>own.log 2>&1 || { cat own.log; fail "examples/cpp against the installed package"; }
out=$(own/own_policy "$kth") || fail "own_policy"
echo "$out"
mean=$(awk '{print $3}' <<<"$want")  # the CLI's mean wait, to one decimal
grep -qE "^easy +$mean " <<<"$out" || fail "own_policy's easy row differs from the CLI's mean wait $mean"
grep -q "^smallest-area-first " <<<"$out" || fail "own_policy printed no row for its own policy"
out=$(own/own_predictor "$kth") || fail "own_predictor"
echo "$out"
grep -qE "^easy +estimate +$mean " <<<"$out" || fail "own_predictor's easy row differs from the CLI's mean wait $mean"
grep -qE "^conservative +user-last:correction=tsafrir " <<<"$out" || fail "own_predictor printed no row for its predictor"
# Every installed public header compiles on its own with only the installed include directory
# (what a program that includes just that header gets).
hdrs=$(cd "$p/include" && find schedlab -name '*.h' | sort)
n=$(wc -l <<<"$hdrs")
compile='printf "#include \"%s\"\n" "$1" | c++ -std=c++20 -fsyntax-only -Wall -Wextra -I"$2" -x c++ - 2>&1 |
  sed "s|^|$1: |"'
if ! xargs -P "$(nproc)" -I{} sh -c "$compile" _ {} "$p/include" <<<"$hdrs" >headers.log; then
  cat headers.log; fail "compiling the installed headers one by one"
fi
[ ! -s headers.log ] || { cat headers.log; fail "an installed header does not compile on its own (or warns)"; }
echo "headers: $n installed headers compile on their own"
# make uninstall (scripts/uninstall.sh) removes every installed file and schedlab's own directories, and leaves
# directories shared with other software (here include/ and share/bash-completion/completions/, there before).
mkdir -p "$work/again/include" "$work/again/share/bash-completion/completions"
cmake --install "$build" --prefix "$work/again" >install2.log 2>&1 || { cat install2.log; fail "second install"; }
"$root/scripts/uninstall.sh" "$manifest" >uninstall.log 2>&1 || { cat uninstall.log; fail "uninstall"; }
left=$(find "$work/again" -mindepth 1 \( -not -type d -o -name '*schedlab*' \))
[ -z "$left" ] || fail "left after uninstall: $left"
[ -d "$work/again/include" ] && [ -d "$work/again/share/bash-completion/completions" ] ||
  fail "uninstall removed a directory that was there before the install"
cat uninstall.log
echo "install test: passed"
