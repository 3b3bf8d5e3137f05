"""How much time the bwrap sandbox adds to grading one accepted submission.

Runs ``judge grade`` as a fresh process, alternately with ``--sandbox bwrap`` and
``--sandbox none`` (interleaved, so that load on the machine affects both alike), and prints the
median wall time of each and their difference. Each bwrap run includes the once-per-process
probe of the sandbox.

    python benchmarks/sandbox_overhead.py [--runs 7] [--examples-only] [SUBMISSION]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def grade_once(submission: Path, mode: str, examples_only: bool) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``judge grade`` process, the worker's CPU time included."""
    argv = [sys.executable, "-m", "judge", "grade", str(submission), "-p", "fake_quant_ste",
            "--sandbox", mode, "--format", "json"] + (["--examples-only"] if examples_only else [])
    cpu, started = _cpu(), time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    elapsed, cpu = time.perf_counter() - started, _cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"judge grade --sandbox {mode} failed ({done.returncode}):\n"
                         f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return elapsed, cpu


def start_once(mode: str) -> float:
    """Wall time to start the worker's interpreter (``python -I -c pass``) with or without the
    sandbox: the part of the overhead that does not depend on the submission."""
    sys.path.insert(0, str(ROOT))
    from judge.run import sandbox, seccomp

    inner = ["-I", "-B", "-c", "pass"]
    started = time.perf_counter()
    if mode == "bwrap":
        fd = seccomp.seccomp_fd()
        try:
            subprocess.run(sandbox.bwrap_argv(sys.executable, inner, seccomp_fd=fd),
                           pass_fds=(fd,), check=True)
        finally:
            os.close(fd)
    else:
        subprocess.run([sys.executable, *inner], check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submission", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=7, help="runs per mode (default 7)")
    parser.add_argument("--examples-only", action="store_true", help="grade only the examples")
    args = parser.parse_args()

    grade_once(args.submission, "none", args.examples_only)  # warm the page cache
    times: dict[str, list[float]] = {"bwrap": [], "none": []}
    cpus: dict[str, list[float]] = {"bwrap": [], "none": []}
    for i in range(args.runs):
        for mode in (("bwrap", "none") if i % 2 == 0 else ("none", "bwrap")):
            wall, cpu = grade_once(args.submission, mode, args.examples_only)
            times[mode].append(wall)
            cpus[mode].append(cpu)
            print(f"  run {i + 1}/{args.runs} {mode:<5} {wall:6.2f} s wall {cpu:6.2f} s CPU",
                  file=sys.stderr, flush=True)
    what = "examples only" if args.examples_only else "all cases"
    print(f"grading {args.submission.name} ({what}), {args.runs} runs per mode, interleaved, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'':14}{'bwrap':>10}{'none':>10}{'added':>10}")
    for label, pick, values in (("median wall", statistics.median, times),
                                ("min wall", min, times), ("median CPU", statistics.median, cpus)):
        b, n = pick(values["bwrap"]), pick(values["none"])
        print(f"{label:14}{b:>9.2f}s{n:>9.2f}s{b - n:>+9.2f}s")
    starts: dict[str, list[float]] = {"bwrap": [], "none": []}
    for _ in range(20):
        for mode in ("bwrap", "none"):
            starts[mode].append(start_once(mode))
    b, n = statistics.median(starts["bwrap"]), statistics.median(starts["none"])
    print(f"{'python start':14}{b:>9.3f}s{n:>9.3f}s{b - n:>+9.3f}s  (median of 20, "
          f"interpreter only)")


if __name__ == "__main__":
    main()
