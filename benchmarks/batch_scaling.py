"""How `judge batch` scales with -j, side by side in one run.

    python benchmarks/batch_scaling.py [--class-size 24] [--jobs 1,2,4,auto] [--problem fake_quant_ste]

A class of the problem's bundled accepted, wrong_answer and rejected submissions, in turn, is
graded once at each -j (sandbox on, warm workers, the judge's caches warmed first by one grade of
each distinct file), and each run's wall time, throughput and speed-up over -j 1 are printed.
`auto` is one job per core this process may use (`judge batch`'s default). Numbers depend on the
machine: the script prints how many cores it may use. Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.cli import usable_cores  # noqa: E402


def make_class(problem: str, folder: Path, size: int) -> list[Path]:
    subs = ROOT / "submissions" / problem
    pool = [p for kind in ("accepted", "wrong_answer", "rejected") for p in sorted((subs / kind).glob("*.py"))]
    if not pool:
        raise SystemExit(f"{subs}: no accepted, wrong_answer or rejected submissions")
    files = []
    for i in range(size):
        source = pool[i % len(pool)]
        files.append(folder / f"student{i:03d}_{source.parent.name}_{source.name}")
        shutil.copyfile(source, files[-1])
    return files


def batch(problem: str, folder: Path, jobs: str, out: Path, env: dict) -> float:
    """Wall seconds of ``judge batch FOLDER -j JOBS``; its report and journal go to ``out``."""
    out.mkdir()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "batch", str(folder), "-p", problem,
                           "-j", jobs, "--format", "json", "--out", str(out / "report.json"),
                           "--journal", str(out / "journal")],
                          cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"judge batch -j {jobs} failed: {done.stderr.strip()[-500:]}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--class-size", type=int, default=24)
    parser.add_argument("--jobs", default="1,2,4,auto")
    parser.add_argument("--problem", default="fake_quant_ste")
    args = parser.parse_args()
    print(f"machine: {usable_cores()} usable cores ({os.cpu_count()} in all), "
          f"Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "JUDGE_CACHE_DIR": str(Path(tmp) / "cache")}
        for name in ("JUDGE_CACHE", "JUDGE_WARM", "JUDGE_SANDBOX", "JUDGE_SOURCE_GATE"):
            env.pop(name, None)
        folder = Path(tmp) / "class"
        folder.mkdir()
        files = make_class(args.problem, folder, args.class_size)
        warmup = Path(tmp) / "warmup"
        warmup.mkdir()
        for path in files:
            if not (warmup / path.name.split("_", 1)[1]).exists():
                shutil.copyfile(path, warmup / path.name.split("_", 1)[1])
        batch(args.problem, warmup, "auto", Path(tmp) / "warmup-run", env)  # caches: compiled programs, specs
        n = len(files)
        print(f"a class of {n} submissions of {args.problem} (accepted, wrong, rejected in turn)")
        print(f"   {'-j':>6}  {'wall':>8}  {'subs/s':>7}  {'speed-up':>8}")
        first = None
        for jobs in args.jobs.split(","):
            wall = batch(args.problem, folder, jobs, Path(tmp) / f"run-{jobs}", env)
            first = first or wall
            label = f"{jobs}={usable_cores()}" if jobs == "auto" else jobs
            print(f"   {label:>6}  {wall:7.1f}s  {n / wall:7.2f}  {first / wall:7.2f}x")


if __name__ == "__main__":
    main()
