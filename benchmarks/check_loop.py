"""An author's loop with `judge check`, side by side in one run: cold, warm, after an edit.

    python benchmarks/check_loop.py [PROBLEM] [--runs 1] [-j N] [--cache-dir DIR]

On a copy of the problem's package (spec, reference, generator, submissions) in a temporary
folder, a fresh `judge check` process each time:

1. cold: no stored results (the result cache is empty; the XLA compilation cache is already
   warm, copied from the judge's own cache folder when it has one, as on an author's machine);
2. warm: again, nothing changed (every run comes from the result cache);
3. edited: after changing one number of the first hidden case's expected output (the check
   then fails, as it should: the reference and the accepted submissions disagree with it);
4. --no-cache: the same edited package with the result cache off, for comparison.

``-j N`` is passed to every check. Wall times (medians over ``--runs``), each one's ratio to the cold check (lower is better), the
load average of the machine before each, and what the check says it reused. The cache folder
(JUDGE_CACHE_DIR) is a fresh one of the benchmark's own unless ``--cache-dir`` names one, so
results an author stored before are never used. Run it on a quiet machine.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("problem", nargs="?", default="per_example_clip")
    parser.add_argument("--runs", type=int, default=1, help="median over this many of each")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="judge check -j N (default 1)")
    parser.add_argument("--cache-dir", type=Path, help="JUDGE_CACHE_DIR (default: a fresh one)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="check-loop-") as tmp:
        tmp = Path(tmp)
        cache = args.cache_dir or tmp / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        home = Path(os.environ.get("JUDGE_CACHE_DIR") or Path(
            os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jax-judge")
        for xla in home.glob("xla*"):  # the compilation cache an author has already
            if xla.is_dir() and not (cache / xla.name).exists():
                shutil.copytree(xla, cache / xla.name)
        env = {**os.environ, "JUDGE_CACHE_DIR": str(cache)}
        rows = {name: [] for name in ("cold", "warm", "edited", "edited --no-cache")}
        notes = {}
        for run in range(args.runs):
            package = tmp / f"package{run}"
            spec = copy_package(args.problem, package)
            shutil.rmtree(cache / "check-results", ignore_errors=True)
            for name in rows:
                if name == "edited":
                    notes["edit"] = edit_first_hidden_expected(spec)
                wall, before, said = check(spec, env, "-j", str(args.jobs),
                                           *(["--no-cache"] if "no-cache" in name else []))
                rows[name].append((wall, before))
                notes[name] = said
        cold = statistics.median(w for w, _ in rows["cold"])
        print(f"judge check {args.problem} -j {args.jobs}, {os.cpu_count()} cores, {args.runs} run(s) each; "
              f"edit: {notes['edit']}")
        print(f"{'':<20}{'wall s':>8}{'x cold':>8}{'load':>7}  reused")
        for name, got in rows.items():
            wall = statistics.median(w for w, _ in got)
            print(f"{name:<20}{wall:>8.1f}{wall / cold:>8.2f}{got[-1][1]:>7}  {notes[name]}")


if __name__ == "__main__":
    main()
