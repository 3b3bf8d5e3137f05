"""An author's loop with `judge check`, side by side in one run: from nothing, cold, warm,
after an edit, with compiles shared and without.

    python benchmarks/check_loop.py [PROBLEM] [--runs 1] [-j N]

On a copy of the problem's package (spec, reference, generator, submissions) in a temporary
folder, a fresh `judge check` process each time, in two fresh cache folders (JUDGE_CACHE_DIR):

* without shared compiles (JUDGE_SHARE_COMPILES=off), as before them:
  1. first: the first check ever (the reference fills the compilation cache, no stored results);
  2. cold: again with ``--no-cache`` (no stored results; the compilation cache as the first
     check left it: the reference's operations);
* with them (the default):
  3. first: the first check ever;
  4. cold: again with ``--no-cache``, once the judge's compiling process has finished what the
     first check left it (each operation a worker had to compile, compiled once into the cache);
  5. warm: nothing changed (every run comes from the result cache);
  6. edited: after changing one number of the first hidden case's expected output (the check
     then fails, as it should: the reference and the accepted submissions disagree with it).

``-j N`` is passed to every check (default: none, so `judge check` uses every core). Wall times
(medians over ``--runs``), each one's ratio to the cold check without shared compiles (lower is
better), the load average of the machine before each, and what the check says it reused. Run
it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def copy_package(problem: str, into: Path) -> Path:
    for sub in ("problems", "reference", "generators", "submissions"):
        (into / sub).mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "problems" / f"{problem}.yaml", into / "problems")
    shutil.copy2(ROOT / "reference" / f"{problem}.py", into / "reference")
    if (ROOT / "generators" / f"{problem}.py").is_file():
        shutil.copy2(ROOT / "generators" / f"{problem}.py", into / "generators")
    if (ROOT / "submissions" / problem).is_dir():
        shutil.copytree(ROOT / "submissions" / problem, into / "submissions" / problem)
    return into / "problems" / f"{problem}.yaml"


NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?")


def edit_first_hidden_expected(spec: Path) -> str:
    """Change the first number of the first hidden case's expected output; returns what changed."""
    lines = spec.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("hidden:"))
    for i in range(start, len(lines)):
        if lines[i].lstrip().startswith("expected:"):
            for j in range(i, len(lines)):  # the value may start on a later line
                found = NUMBER.search(lines[j])
                if found:
                    new = repr(float(found.group()) + 0.5)
                    lines[j] = lines[j][:found.start()] + new + lines[j][found.end():]
                    spec.write_text("\n".join(lines), encoding="utf-8")
                    return f"line {j + 1}: {found.group()} -> {new}"
    raise SystemExit(f"{spec}: no hidden expected output to edit")


def check(spec: Path, env: dict, *extra: str) -> tuple[float, str, str]:
    """(wall seconds, the load average before, what the report says it reused)."""
    before = load()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "check", str(spec), *extra], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"judge check exited with status {done.returncode}")
    reused = "; ".join(m.group(1) for m in re.finditer(r"\(([^()]*(?:stored)[^()]*)\)", done.stdout))
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return wall, before, (reused or "nothing reused") + f" | {summary}"


def settled(cache: Path, limit_s: float = 300.0) -> float:
    """Wait until the compiling process has finished what the checks left it (no pending file,
    no staging folder); the seconds waited."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit_s:
        folders = list(cache.glob("xla*"))
        if not any((f / ".shared-ops-pending").exists() or list(f.glob(".staging-*")) for f in folders):
            break
        time.sleep(1)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("problem", nargs="?", default="per_example_clip")
    parser.add_argument("--runs", type=int, default=1, help="median over this many of each")
    parser.add_argument("-j", "--jobs", help="judge check -j N (default: judge check's own, auto)")
    args = parser.parse_args()
    jobs = ["-j", args.jobs] if args.jobs else []
    stages = [("first, nothing shared", "off", []), ("cold, nothing shared", "off", ["--no-cache"]),
              ("first", "on", []), ("cold", "on", ["--no-cache"]), ("warm", "on", []),
              ("edited", "on", [])]
    rows = {name: [] for name, _, _ in stages}
    notes = {}
    with tempfile.TemporaryDirectory(prefix="check-loop-") as tmp:
        tmp = Path(tmp)
        for run in range(args.runs):
            spec = copy_package(args.problem, tmp / f"package{run}")
            caches = {"off": tmp / f"cache-off{run}", "on": tmp / f"cache-on{run}"}
            for name, sharing, extra in stages:
                cache = caches[sharing]
                if name == "cold":
                    notes["waited"] = f"{settled(cache):.0f} s"
                if name == "edited":
                    notes["edit"] = edit_first_hidden_expected(spec)
                env = {**os.environ, "JUDGE_CACHE_DIR": str(cache), "JUDGE_SHARE_COMPILES": sharing}
                wall, before, said = check(spec, env, *jobs, *extra)
                rows[name].append((wall, before))
                notes[name] = said
            settled(caches["on"])  # before the folder is removed
    base = statistics.median(w for w, _ in rows["cold, nothing shared"])
    print(f"judge check {args.problem} {' '.join(jobs) or '(-j auto)'}, {os.cpu_count()} cores, "
          f"{args.runs} run(s) each; the compiling process finished {notes['waited']} after the "
          f"first check; edit: {notes['edit']}")
    print(f"{'':<24}{'wall s':>8}{'x cold':>8}{'load':>7}  reused")
    for name, got in rows.items():
        wall = statistics.median(w for w, _ in got)
        print(f"{name:<24}{wall:>8.1f}{wall / base:>8.2f}{got[-1][1]:>7}  {notes[name]}")


if __name__ == "__main__":
    main()
