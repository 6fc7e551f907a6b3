#!/usr/bin/env python3
"""Fails when a module includes a module that comes after it in the data flow.

The library's modules, in order (docs/design.md): each may include itself and the modules before it, never a
later one. The CLI (src/cli) and the Python module (src/python), the library's two front ends, may include every
module; tests may include what their module may, plus
tests/test_util.h. Also fails when a public header (include/schedlab/...) includes a private one (src/...).

usage: scripts/check_layering.py [SOURCE_DIR]   (exit 0: clean; 1: violations, one line each)
"""
import pathlib
import re
import sys

ORDER = ["base", "swf", "trace", "analysis", "model", "workload", "predict", "sim", "experiments"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of_include(path):
    parts = path.split("/")
    if parts[0] == "schedlab" and len(parts) > 2:
        return parts[1]
    if parts[0] in ORDER and len(parts) > 1:  # a private header under src/<module>/
        return parts[0]
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    problems = []
    files = 0
    for base, public in ((root / "include" / "schedlab", True), (root / "src", False)):
        for f in sorted(base.rglob("*")):
            if f.suffix not in (".h", ".cc"):
                continue
            module = f.relative_to(base).parts[0]
            if module in ("cli", "python"):
                continue
            if module not in ORDER:
                problems.append(f"{f.relative_to(root)}: module '{module}' is not in the layering order {ORDER}")
                continue
            files += 1
            rank = ORDER.index(module)
            text = f.read_text(encoding="utf-8")
            for m in INCLUDE.finditer(text):
                inc = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                if inc.startswith("cli/"):
                    problems.append(f"{f.relative_to(root)}:{line}: includes the CLI header {inc}")
                    continue
                target = module_of_include(inc)
                if target is None:
                    continue
                if target not in ORDER:
                    problems.append(f"{f.relative_to(root)}:{line}: includes {inc} of unknown module '{target}'")
                elif ORDER.index(target) > rank:
                    problems.append(f"{f.relative_to(root)}:{line}: module '{module}' includes {inc} of the later "
                                    f"module '{target}'")
                if public and not inc.startswith("schedlab/"):
                    problems.append(f"{f.relative_to(root)}:{line}: public header includes the private header {inc}")
    for p in problems:
        print(p)
    print(f"check_layering: {files} files, {len(problems)} problems (order: {' -> '.join(ORDER)})")
    return 1 if problems or files == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
