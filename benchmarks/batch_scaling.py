"""How `judge batch` scales with cores, against how the machine itself scales, in one run.

    python benchmarks/batch_scaling.py [-n N] [--class-size 52] [--quick] [--problem fake_quant_ste]
                                       [--fresh] [--served] [--one-process] [--no-ahead]

Two measurements, side by side:

* the judge: a class of the problem's bundled accepted, wrong_answer and rejected submissions,
  in turn, graded by `judge batch -j 1` and by `judge batch -j N` (sandbox as `auto` gives it,
  warm workers, the judge's caches warmed first by one grade of each distinct file);
* the machine: N bare processes (`benchmarks/bare_run.py`: each imports JAX and runs the
  problem's reference solution on its cases, no judge, on the CPU) one after another, then all
  at once.

With ``$JUDGE_BATCH_LANES`` set (lanes per grading process, ``judge.grade.pool``), a ``-j N``
of two grading processes' worth of lanes or more is graded by grading processes of the judge's
own; the first line says how the N lanes are split. With ``--one-process``, the class is also
graded at ``-j N`` in the batch's own process alone (``JUDGE_BATCH_LANES=0``, the default), a
row of its own.

With ``--served``, the class is graded a second time, -j 1 and -j N, with a `judge warm` process
running (its server has imported JAX before the batch starts: what a batch's start costs, less
the server's start, which under gVisor is about a second and a half of one core while the lanes
wait); with ``--fresh``, with a fresh Python per submission (``JUDGE_WARM=off``); with
``--no-ahead``, with warm workers each forked when its run comes rather than ahead of it, JAX's
backend made (``JUDGE_WARM_AHEAD=off``: what forking ahead saves, side by side).

Each speed-up is the one-at-a-time wall time over the N-at-once one; the last line is the
judge's speed-up over the machine's, the share of the machine's parallelism the judge reaches
(1.0: all of it). Below the table, where the judge's share goes: how much longer a submission
takes when N grade at once (the sum of the report's times, N at once over one at a time: a
worker slowed by the others), against a bare process (its mean time at once over alone), and
how busy the N lanes were (the sum of times over N times the wall time: lanes idle at the
start and in the tail, when the last submissions run alone). N defaults to the cores this process may use. `--quick` grades a class of
8 and takes a minute or two on 2 cores. Run it on a quiet machine; it prints how many cores it
may use.
"""

from __future__ import annotations

import argparse
import json
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
from judge.grade.pool import split  # noqa: E402
from grading_speed import served  # noqa: E402  (a `judge warm` process for a block)


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
    """Wall seconds of ``judge batch FOLDER -j JOBS``; its report (``report.json``) and journal
    go to ``out``."""
    out.mkdir()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "batch", str(folder), "-p", problem,
                           "-j", jobs, "--sandbox", "auto", "--format", "json",
                           "--out", str(out / "report.json"),
                           "--journal", str(out / "journal")],
                          cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"judge batch -j {jobs} failed: {done.stderr.strip()[-500:]}")
    return wall


def graded_seconds(report: Path) -> float:
    """The sum of the times a batch's report gives its submissions (each one's grade, as the
    judge timed it)."""
    return sum(float(row.get("time_s") or 0.0) for row in json.loads(report.read_text())["results"])


def bare(problem: str, count: int, at_once: bool, env: dict) -> float:
    """Wall seconds of ``count`` bare runs of the reference, one after another or all at once."""
    argv = [sys.executable, str(ROOT / "benchmarks" / "bare_run.py"),
            str(ROOT / "reference" / f"{problem}.py"), str(ROOT / "problems" / f"{problem}.yaml")]
    started = time.perf_counter()
    if at_once:
        procs = [subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for _ in range(count)]
        errors = [p.stderr.read() for p in procs]
        codes = [p.wait() for p in procs]
    else:
        done = [subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                for _ in range(count)]
        errors, codes = [d.stderr for d in done], [d.returncode for d in done]
    for code, error in zip(codes, errors):
        if code != 0:
            raise SystemExit(f"a bare run failed: {error.decode(errors='replace')[-500:]}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--jobs", type=int, default=usable_cores(),
                        help="the -j and the number of bare processes at once (default: usable cores)")
    parser.add_argument("--class-size", type=int, default=52)
    parser.add_argument("--quick", action="store_true", help="a class of 8")
    parser.add_argument("--problem", default="fake_quant_ste")
    parser.add_argument("--fresh", action="store_true",
                        help="also grade the class with fresh workers (JUDGE_WARM=off)")
    parser.add_argument("--served", action="store_true",
                        help="also grade the class with a `judge warm` process running")
    parser.add_argument("--no-ahead", action="store_true",
                        help="also grade the class with no worker forked ahead (JUDGE_WARM_AHEAD=off)")
    parser.add_argument("--one-process", action="store_true",
                        help="also grade the class at -j N in the batch's own process alone")
    args = parser.parse_args()
    size, n = (8 if args.quick else args.class_size), args.jobs
    lanes = split(n)
    print(f"machine: {usable_cores()} usable cores ({os.cpu_count()} in all), "
          f"Python {sys.version.split()[0]}; N = {n}; -j {n}: "
          + (f"{len(lanes)} grading processes of {'+'.join(map(str, lanes))} lanes" if lanes
             else "the batch's own process"))
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "JUDGE_CACHE_DIR": str(Path(tmp) / "cache")}
        for name in ("JUDGE_CACHE", "JUDGE_WARM", "JUDGE_WARM_AHEAD", "JUDGE_SANDBOX",
                     "JUDGE_SOURCE_GATE"):
            env.pop(name, None)
        folder = Path(tmp) / "class"
        folder.mkdir()
        files = make_class(args.problem, folder, size)
        warmup = Path(tmp) / "warmup"
        warmup.mkdir()
        for path in files:
            if not (warmup / path.name.split("_", 1)[1]).exists():
                shutil.copyfile(path, warmup / path.name.split("_", 1)[1])
        batch(args.problem, warmup, str(n), Path(tmp) / "warmup-run", env)  # caches: compiled programs, specs
        judge_1 = batch(args.problem, folder, "1", Path(tmp) / "run-1", env)
        judge_n = batch(args.problem, folder, str(n), Path(tmp) / f"run-{n}", env)
        if args.one_process:
            one_n = batch(args.problem, folder, str(n), Path(tmp) / f"one-{n}", {**env, "JUDGE_BATCH_LANES": "0"})
        if args.fresh:
            fresh_env = {**env, "JUDGE_WARM": "off"}
            fresh_1 = batch(args.problem, folder, "1", Path(tmp) / "fresh-1", fresh_env)
            fresh_n = batch(args.problem, folder, str(n), Path(tmp) / f"fresh-{n}", fresh_env)
        if args.no_ahead:
            demand_env = {**env, "JUDGE_WARM_AHEAD": "off"}
            demand_1 = batch(args.problem, folder, "1", Path(tmp) / "demand-1", demand_env)
            demand_n = batch(args.problem, folder, str(n), Path(tmp) / f"demand-{n}", demand_env)
        if args.served:
            with served(env, ["--sandbox", "auto"]):
                served_1 = batch(args.problem, folder, "1", Path(tmp) / "served-1", env)
                served_n = batch(args.problem, folder, str(n), Path(tmp) / f"served-{n}", env)
        bare_env = {**env, "JAX_PLATFORMS": "cpu"}  # as the judge's workers: never the accelerator
        bare(args.problem, 1, False, bare_env)  # the page cache: JAX's files read once
        bare_1 = bare(args.problem, n, False, bare_env)
        bare_n = bare(args.problem, n, True, bare_env)
        judge_x, bare_x = judge_1 / judge_n, bare_1 / bare_n
        print(f"the judge: a class of {size} submissions of {args.problem} "
              f"(accepted, wrong, rejected in turn); bare: {n} runs of its reference")
        print(f"   {'':<8}  {'one at a time':>14}  {f'{n} at once':>12}  {'speed-up':>8}")
        print(f"   {'judge':<8}  {judge_1:13.1f}s  {judge_n:11.1f}s  {judge_x:7.2f}x"
              f"   (-j 1 vs -j {n}; {size / judge_1:.2f} vs {size / judge_n:.2f} submissions/s)")
        if args.one_process:
            print(f"   {'one proc':<8}  {judge_1:13.1f}s  {one_n:11.1f}s  {judge_1 / one_n:7.2f}x"
                  f"   (-j {n} in the batch's own process: share {judge_1 / one_n / bare_x:.2f})")
        if args.fresh:
            print(f"   {'fresh':<8}  {fresh_1:13.1f}s  {fresh_n:11.1f}s  {fresh_1 / fresh_n:7.2f}x"
                  f"   (the judge with JUDGE_WARM=off: a fresh Python per submission)")
        if args.no_ahead:
            print(f"   {'no ahead':<8}  {demand_1:13.1f}s  {demand_n:11.1f}s  {demand_1 / demand_n:7.2f}x"
                  f"   (JUDGE_WARM_AHEAD=off: share {demand_1 / demand_n / bare_x:.2f}; "
                  f"ahead / not: {judge_1 / demand_1:.2f} at -j 1, {judge_n / demand_n:.2f} at -j {n})")
        if args.served:
            print(f"   {'served':<8}  {served_1:13.1f}s  {served_n:11.1f}s  {served_1 / served_n:7.2f}x"
                  f"   (the judge with `judge warm` running: share {served_1 / served_n / bare_x:.2f})")
        print(f"   {'bare':<8}  {bare_1:13.1f}s  {bare_n:11.1f}s  {bare_x:7.2f}x")
        print(f"judge speed-up / bare speed-up: {judge_x / bare_x:.2f}")
        busy_1, busy_n = (graded_seconds(Path(tmp) / name / "report.json") for name in ("run-1", f"run-{n}"))
        print(f"a submission at -j {n} takes {busy_n / busy_1:.2f}x its time at -j 1 (sum of the report's "
              f"times: {busy_1:.1f}s, {busy_n:.1f}s); a bare run {bare_n / (bare_1 / n):.2f}x; "
              f"the {n} lanes were busy {busy_n / (n * judge_n):.0%} of the -j {n} wall time")


if __name__ == "__main__":
    main()
