"""How fast the judge grades, side by side with the baselines, in one run.

    python benchmarks/grading_speed.py [--runs 3] [--class-size 40]

1. One accepted submission graded cold: a fresh `judge grade` process (sandbox on, the judge's
   compilation cache already warm), once on its own (it starts its own warm worker server,
   which imports JAX while the spec loads) and once with a `judge warm` process running (the
   worker is forked from a server that has JAX imported already); against a bare script that
   imports JAX and calls the same submission on the same cases in one fresh process
   (benchmarks/bare_run.py). Medians of interleaved runs, and ratios (lower is better).
2. `judge batch -j 2` over a class of submissions (accepted, wrong, rejected and one that loops
   forever) against grading them one fresh `judge grade` process at a time with neither the
   compilation cache nor warm workers (what the judge did before it had them): wall time and
   the throughput ratio.
3. Submissions per second of each.

Numbers depend on the machine; the script prints how many cores it had. Run it on a quiet
machine: other work on the same cores shows up directly in every figure.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBS = ROOT / "submissions" / "fake_quant_ste"
SPEC = ROOT / "problems" / "fake_quant_ste.yaml"
JUDGE = [sys.executable, "-m", "judge"]


def timed(argv, env=None) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


@contextlib.contextmanager
def served():
    """A `judge warm` process for the default setup, for the duration of the block."""
    proc = subprocess.Popen(JUDGE + ["warm", "--idle-timeout", "0"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen = ""
        while "warm workers (" not in seen:  # printed once the server is ready
            line = proc.stderr.readline()
            if not line:
                raise SystemExit(f"judge warm did not start: {seen}")
            seen += line
        yield
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)


def make_class(folder: Path, size: int) -> list[Path]:
    """``size`` submissions: the bundled accepted, wrong_answer and rejected ones in turn, and
    one from time_limit_exceeded."""
    pool = [p for kind in ("accepted", "wrong_answer", "rejected") for p in sorted((SUBS / kind).glob("*.py"))]
    files = []
    for i in range(size - 1):
        source = pool[i % len(pool)]
        target = folder / f"student{i:02d}_{source.parent.name}_{source.name}"
        shutil.copyfile(source, target)
        files.append(target)
    slow = sorted((SUBS / "time_limit_exceeded").glob("*.py"))[0]
    files.append(folder / f"student{size - 1:02d}_tle_{slow.name}")
    shutil.copyfile(slow, files[-1])
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--class-size", type=int, default=40)
    args = parser.parse_args()
    accepted = SUBS / "accepted" / "closure_vjp.py"
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")

    # warm the judge's cache once (what any earlier grade of this problem has done)
    grade = JUDGE + ["grade", str(accepted), "-p", "fake_quant_ste"]
    timed(grade)
    judge_times, served_times, bare_times = [], [], []
    with served():
        for _ in range(args.runs):
            served_times.append(timed(grade))
    for _ in range(args.runs):
        judge_times.append(timed(grade))
        bare_times.append(timed([sys.executable, str(ROOT / "benchmarks" / "bare_run.py"),
                                 str(accepted), str(SPEC)]))
    j, s, b = (statistics.median(t) for t in (judge_times, served_times, bare_times))
    print("\n1. one accepted submission, all cases, fresh process (median of "
          f"{args.runs})")
    print(f"   bare script (import JAX, call, no checks)     {b:7.2f} s")
    print(f"   judge grade (sandbox, checks, warm cache)     {j:7.2f} s   ratio {j / b:5.2f}")
    print(f"   judge grade, with `judge warm` running        {s:7.2f} s   ratio {s / b:5.2f}"
          "   (target <= 0.7)")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        files = make_class(folder, args.class_size)
        started = time.perf_counter()
        for path in files:
            timed(JUDGE + ["grade", str(path), "-p", "fake_quant_ste"],
                  env={"JUDGE_CACHE": "off", "JUDGE_WARM": "off"})
        sequential = time.perf_counter() - started
        batch = timed(JUDGE + ["batch", str(folder), "-p", "fake_quant_ste", "-j", "2",
                               "--out", str(Path(tmp) / "report.txt")])
    n = len(files)
    print(f"\n2. a class of {n} submissions (1 loops forever)")
    print(f"   one fresh judge grade at a time, no cache, no warm workers {sequential:7.1f} s"
          f"  {n / sequential:5.2f} submissions/s")
    print(f"   judge batch -j 2 (cache, warm workers)                     {batch:7.1f} s"
          f"  {n / batch:5.2f} submissions/s")
    print(f"   throughput ratio batch/sequential                          {sequential / batch:7.2f}"
          "   (target >= 4)")


if __name__ == "__main__":
    main()
