#!/usr/bin/env python3
"""Prints, after `make test`, how many tests ran, failed and were skipped, and why they were skipped.

A test that needs the shared real logs skips when ../shared/traces is absent (tests/test_util.h,
SCHEDLAB_NEED_TRACE); a passing run without them proves much less, so the count is printed loudly.

usage: scripts/test_summary.py CTEST_JUNIT_XML
"""
import collections
import sys
import xml.etree.ElementTree as ET


def skip_reason(case):
    out = case.findtext("system-out") or ""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.endswith(": Skipped") and i + 1 < len(lines):
            text = lines[i + 1].strip()
            return "needs the shared logs" if text.startswith("needs the shared logs") else text
    skipped = case.find("skipped")
    return skipped.get("message", "skipped") if skipped is not None else "skipped"


def main():
    root = ET.parse(sys.argv[1]).getroot()
    cases = root.iter("testcase")
    total = failed = 0
    reasons = collections.Counter()
    for case in cases:
        total += 1
        status = case.get("status")
        if status == "fail" or case.find("failure") is not None:
            failed += 1
        elif status in ("notrun", "disabled") or case.find("skipped") is not None:
            reasons[skip_reason(case)] += 1
    skipped = sum(reasons.values())
    print(f"tests: {total} run, {failed} failed, {skipped} skipped")
    if skipped:
        bar = "!" * 78
        print(bar)
        for reason, n in reasons.most_common():
            print(f"!! {n} skipped: {reason}")
        if reasons.get("needs the shared logs"):
            print("!! The real-log tests did not run: put the shared logs in ../shared/traces and run again.")
        print(bar)
    return 0


if __name__ == "__main__":
    sys.exit(main())
