"""`judge check` of each problem, cold and warm, side by side in one run: wall time and the CPU
time of the whole process tree (the judge, its warm server and workers, the compiling process).

    python benchmarks/check_speed.py [PROBLEM ...] [-j 2] [--mutants]

Default problems: spectral_norm, mixed_precision_step, batched_attention, loss_and_grads. For
each one, in fresh, empty cache folders (JUDGE_CACHE_DIR, XDG_CACHE_HOME, XDG_DATA_HOME):

1. cold: the first `judge check` (nothing compiled, no stored results);
2. warm: the same command again, nothing changed (the compilation cache filled, every run
   replayed from the result cache).

CPU time is the figure to compare on a busy machine: wall time stretches with the load, the
work done does not. It is the user and system time of every process the check started, reaped
here (this process is their subreaper, Linux only; elsewhere only the waited-for ones count).
Processes a check leaves running (the compiling process goes on with what it was left) are
counted as they stand when the check ends, then stopped, so each check is measured alone.
The load average before each check is printed beside it. `25 s wall on 2 cores` is about 50
CPU seconds at most.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("spectral_norm", "mixed_precision_step", "batched_attention", "loss_and_grads")


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def _subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (so their CPU time is counted)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _descendants() -> list[int]:
    """This process's live descendants, from /proc (empty where there is none)."""
    parents = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(text[text.rindex(")") + 2:].split()[1])
    me, found = os.getpid(), []
    for pid in parents:
        p, steps = pid, 0
        while p in parents and steps < 64:
            p, steps = parents[p], steps + 1
            if p == me:
                found.append(pid)
                break
    return found


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_check(problem: str, env: dict, jobs: int, mutants: bool) -> tuple[float, float, int]:
    """One `judge check PROBLEM` process: (wall seconds, CPU seconds of its tree, exit status)."""
    before = _children_cpu()
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "judge", "check", problem, "-j", str(jobs),
                             *(["--mutants"] if mutants else [])], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, _ = os.wait4(proc.pid, 0)
    wall = time.monotonic() - started
    for pid in _descendants():  # what the check left running: counted once reaped below
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    while True:
        try:
            os.wait4(-1, 0)
        except ChildProcessError:
            break
    return wall, _children_cpu() - before, os.waitstatus_to_exitcode(status)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problems", nargs="*", default=list(DEFAULT))
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--mutants", action="store_true", help="check with --mutants")
    args = parser.parse_args(argv)
    if not _subreaper():
        print("note: not Linux (no subreaper): processes a check leaves are not counted",
              file=sys.stderr)
    print(f"machine: {os.cpu_count()} cores; judge check -j {args.jobs}"
          f"{' --mutants' if args.mutants else ''}; seconds (CPU: the whole process tree)")
    print(f"{'problem':24s} {'cold wall':>9s} {'cold CPU':>9s} {'load':>5s}   "
          f"{'warm wall':>9s} {'warm CPU':>9s} {'load':>5s}   {'warm/cold CPU':>13s}")
    failed = 0
    for problem in args.problems:
        with tempfile.TemporaryDirectory(prefix="check-speed-") as tmp:
            env = {**os.environ, "JUDGE_CACHE_DIR": f"{tmp}/judge-cache",
                   "XDG_CACHE_HOME": f"{tmp}/cache", "XDG_DATA_HOME": f"{tmp}/data"}
            row = []
            for _ in ("cold", "warm"):
                before = load()
                wall, cpu, status = timed_check(problem, env, args.jobs, args.mutants)
                failed |= status != 0
                row.append((wall, cpu, before, status))
        (cw, cc, cl, cs), (ww, wc, wl, ws) = row
        flag = "" if cs == ws == 0 else f"   (exit {cs}, {ws}: the check found errors)"
        print(f"{problem:24s} {cw:9.1f} {cc:9.1f} {cl:>5s}   {ww:9.1f} {wc:9.1f} {wl:>5s}   "
              f"{wc / cc if cc else float('nan'):13.2f}{flag}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
