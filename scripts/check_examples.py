#!/usr/bin/env python3
"""Re-runs every command example of README.md and docs/*.md and checks the output shown.

An example is a fenced code block with lines starting with "$ ". Each command runs through bash in a scratch
directory (where `data/` and `../shared/` resolve as from the repository root, and `schedlab` is the binary
under test); state carries over from one command of a block to the next (files written by one are read by the
next). The lines shown after a command are its expected output (stdout and stderr merged):
- "..." (alone on a line) marks lines left out; between two "..." the shown lines must be consecutive lines of
  the real output; the first shown line is the first real line unless the output starts with "...", the last
  the last unless it ends with "...".
- A trailing "(exit N)" on a shown line expects exit status N (otherwise 0).
- A progress line of a long run (it appears only when the run takes over 2 s, e.g. on a loaded machine) is
  left out of the real output.
- Numbers on lines that show a measured time (wall time, ingest time, time in the scheduler, microseconds per
  event, the fitted exponent) are not compared.
Comments before the fence, within three lines: `<!-- example-setup: CMD -->` runs CMD first (to make an input);
`<!-- example: not checked: REASON -->` skips the block (counted and listed).

usage: scripts/check_examples.py SCHEDLAB_BINARY [FILE.md ...]   exit 0 when every example matches
"""
import os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEASURED = re.compile(r"wall time|ingest time|in the scheduler over|us per event|growth exponent|records/s|_s\"?:")
# A long run's progress line on standard error (cli/progress.h, printed after 2 s when standard error is not a
# terminal): whether it appears depends on the machine's load, so it is never part of an expected output.
PROGRESS = re.compile(r"^[a-z][a-z :-]*: [\d,]+/[\d,]+ [a-z]+ done, [\d.]+ [a-z]+/s, ETA ")


def blocks(path):
    """(line number, setup commands, skip reason, block lines) for each fenced block with a command."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            start = i
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            body = lines[i + 1:j]
            if any(l.startswith("$ ") for l in body):
                before = lines[max(0, start - 3):start]
                setup = [m.group(1) for l in before for m in [re.search(r"<!-- example-setup: (.*) -->", l)] if m]
                skip = next((m.group(1) for l in before for m in [re.search(r"<!-- example: not checked: (.*) -->", l)] if m), None)
                yield start + 1, setup, skip, body
            i = j + 1
        else:
            i += 1


def normalise(line):
    line = line.rstrip()
    if MEASURED.search(line):
        line = re.sub(r"\d+(\.\d+)?(e[+-]?\d+)?", "N", line)
    return line


def matches(expected, actual):
    """Checks the shown lines against the real ones; returns None or what differs."""
    actual = [normalise(l) for l in actual if not PROGRESS.match(l)]
    segments, current, gaps = [], [], []
    for l in expected:
        if l.strip() == "...":
            segments.append(current)
            current = []
        else:
            current.append(normalise(l))
    segments.append(current)
    open_start = expected[:1] == ["..."] or (expected and expected[0].strip() == "...")
    open_end = bool(expected) and expected[-1].strip() == "..."
    pos = 0
    for k, seg in enumerate(segments):
        if not seg:
            continue
        anchored = k == 0 and not open_start
        found = -1
        for at in ([pos] if anchored else range(pos, len(actual) - len(seg) + 1)):
            if actual[at:at + len(seg)] == seg:
                found = at
                break
        if found < 0:
            near = next((a for a in actual[pos:] if a.split()[:1] == seg[0].split()[:1]), None)
            return f"shown line not found (in order): {seg[0]!r}" + (f"\n      real line: {near!r}" if near else "")
        pos = found + len(seg)
    if not open_end and segments[-1] and pos != len(actual):
        return f"the real output goes on after the last shown line: {actual[pos]!r}"
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    files = sys.argv[2:] or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    if not os.path.isdir(os.path.join(os.path.dirname(ROOT), "shared", "traces")):
        print("check_examples: SKIPPED: ../shared/traces is absent (the examples read the shared logs)")
        sys.exit(77)  # CTest's SKIP_RETURN_CODE
    checked, skipped, failures = 0, [], []
    for f in files:
        for line_no, setup, skip, body in blocks(os.path.join(ROOT, f)):
            where = f"{f}:{line_no}"
            if skip:
                skipped.append(f"{where} ({skip})")
                continue
            scratch = tempfile.mkdtemp(prefix="schedlab-example-")
            work = os.path.join(scratch, "main")
            os.mkdir(work)
            os.symlink(os.path.join(ROOT, "data"), os.path.join(work, "data"))
            shared = os.path.join(os.path.dirname(ROOT), "shared")
            if os.path.isdir(shared):
                os.symlink(shared, os.path.join(scratch, "shared"))
            bindir = os.path.join(scratch, "bin")
            os.mkdir(bindir)
            os.symlink(binary, os.path.join(bindir, "schedlab"))
            env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], LC_ALL="C")
            try:
                for cmd in setup:
                    subprocess.run(["bash", "-c", cmd], cwd=work, env=env, check=True)
                commands = []
                for l in body:
                    if l.startswith("$ "):
                        commands.append([l[2:], []])
                    elif commands:
                        commands[-1][1].append(l)
                for cmd, shown in commands:
                    cmd = re.sub(r"\s{2,}#.*$", "", cmd)  # a trailing "   # comment" explains the command
                    want_rc = 0
                    shown = list(shown)
                    for i, l in enumerate(shown):
                        m = re.search(r"\s+\(exit (\d+)\)\s*$", l)
                        if m:
                            want_rc = int(m.group(1))
                            shown[i] = l[:m.start()]
                    r = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True)
                    real = (r.stdout + r.stderr).rstrip("\n").split("\n") if (r.stdout + r.stderr) else []
                    checked += 1
                    problem = None
                    if r.returncode != want_rc:
                        problem = f"exit status {r.returncode}, shown {want_rc}: {r.stderr.strip()[:300]}"
                    else:
                        problem = matches(shown, real)
                    if problem:
                        failures.append(f"{where}: $ {cmd}\n      {problem}")
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
    for s in skipped:
        print(f"check_examples: not checked: {s}")
    for fl in failures:
        print(f"check_examples: MISMATCH {fl}")
    print(f"check_examples: {checked} commands checked, {len(failures)} mismatched, {len(skipped)} blocks not checked")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
