"""How fast the judge grades, side by side with the baselines, in one run.

    python benchmarks/grading_speed.py [--runs 3] [--class-size 40] [--sandbox auto] [--against DIR]

1. One accepted submission graded cold: a fresh `judge grade` process (sandbox on, the judge's
   compilation cache already warm), once on its own (it starts its own warm worker server,
   which imports JAX while the spec loads) and once with a `judge warm` process running (the
   worker is forked from a server that has JAX imported already); against a bare script that
   imports JAX and calls the same submission on the same cases in one fresh process
   (benchmarks/bare_run.py). Medians of interleaved runs, and ratios (lower is better). Next
   to each: the CPU time of the judge process itself and of the submission's workers.
2. `judge batch -j 2` over a class of submissions (accepted, wrong, rejected and one that loops
   forever, last in name order) against one bare fresh process per submission, one at a time
   (bare_run.py; the endless one is stopped at the problem's per-case limit, as the judge stops
   it): wall time, submissions per second, the throughput ratio, and CPU per submission. Then
   the same class again with ``--restart``: the journal it replaces tells how long each grade
   took, and the batch starts the longest first (the endless one no longer ends the batch alone).
3. The same class without its endless submission, graded by `judge batch -j 2` in a fresh
   journal, against the bare processes' times for those files: with one, the per-case limit
   alone holds the batch near 10 s, however fast the rest is graded.

With ``--against DIR`` (another checkout of the judge, an earlier version say), every judge
measurement is made for both, interleaved (the first after the other in each round), against
the same bare baselines, and printed side by side: the other checkout's rows are marked with its
folder's name. Each checkout's judge runs its own code (its own ``benchmarks/grading_speed.py
--inner``, from its own folder) on this checkout's class and problem files.

Each checkout's judge package is compiled to bytecode first, as an installed judge is (with
$PYTHONDONTWRITEBYTECODE set, every process would otherwise compile the judge's modules from
source: about 0.1 s of a lone grade's CPU).

Every judge command here uses a cache folder of its own (JUDGE_CACHE_DIR), warmed first, so a
`judge warm` of someone else's on the same machine is never used. Numbers depend on the
machine; the script prints how many cores it had. Run it on a quiet machine: other work on the
same cores shows up directly in every figure. ``--sandbox`` is passed to every judge command
(default: theirs, bwrap; ``auto`` where bubblewrap is missing, as on a TPU VM); a judge command
that fails stops the script.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBS = ROOT / "submissions" / "fake_quant_ste"
SPEC = ROOT / "problems" / "fake_quant_ste.yaml"
#: The problem's per-case limit: where the bare baseline stops an endless submission.
CASE_LIMIT_S = 10.0


def judge(args: list[str], env: dict, root: Path = ROOT) -> tuple[float, float, float]:
    """Run ``judge ARGS`` as a fresh process; (wall seconds, CPU of the judge process itself,
    CPU of the workers it ran). The process is the checkout ``root``'s copy of this script in
    ``--inner`` mode, run in that folder."""
    with tempfile.NamedTemporaryFile(suffix=".json") as stats:
        started = time.perf_counter()
        subprocess.run([sys.executable, str(root / "benchmarks" / "grading_speed.py"), "--inner",
                        stats.name, *args], cwd=root, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - started
        try:
            got = json.loads(Path(stats.name).read_text())
        except ValueError:
            raise SystemExit(f"judge {' '.join(args)} did not finish") from None
    if got.get("code") not in (0, 1):  # 1: a verdict other than AC; anything else: no grading
        raise SystemExit(f"judge {' '.join(args)} failed (exit status {got.get('code')})")
    return wall, got["judge"], got["workers"]


def inner(stats: str, argv: list[str]) -> None:
    """The judge's own program in this process, as the ``judge`` command runs it
    (``judge.entry``: the warm server started before the command line is parsed, the quick end),
    counting its CPU and its workers' (``run_worker`` reports each worker's CPU time, measured by
    the process that waited for it). A batch graded by grading processes counts theirs too, and
    the workers they ran (``judge.grade.pool.last_usage``)."""
    sys.path.insert(0, str(ROOT))
    from judge.run import supervisor

    workers = [0.0]
    run_worker = supervisor.run_worker

    def counted(*args, **kwargs):
        run = run_worker(*args, **kwargs)
        workers[0] += run.cpu_s or 0.0
        return run

    supervisor.run_worker = counted  # before the grading module takes its own reference
    from judge import cli, entry

    entry.start_server_early(argv)
    code = None
    try:
        code = cli.main(argv)
    finally:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        judge_cpu = usage.ru_utime + usage.ru_stime
        try:  # a batch graded by grading processes (judge.grade.pool): theirs, and their workers'
            from judge.grade import pool

            judge_cpu += pool.last_usage["processes_cpu_s"]
            workers[0] += pool.last_usage["workers_cpu_s"]
        except ImportError:  # a checkout without them
            pass
        Path(stats).write_text(json.dumps({"judge": judge_cpu, "workers": workers[0],
                                           "code": code,
                                           "own": usage.ru_utime + usage.ru_stime}))
    entry.end(code)


def bare(submission: Path, timeout: float | None = None) -> tuple[float, float]:
    """benchmarks/bare_run.py on ``submission`` in a fresh process: (wall, CPU) seconds. On the
    CPU, as the judge's workers run: on a TPU VM a process that opens the chip spends about 15 s
    doing so."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "bare_run.py"),
                             str(submission), str(SPEC)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            env={**os.environ, "JAX_PLATFORMS": "cpu"})  # as the judge's workers
    stop = threading.Timer(timeout, os.killpg, (proc.pid, signal.SIGKILL)) if timeout else None
    if stop:
        stop.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if stop:
        stop.cancel()
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def served(env: dict, sandbox: list[str], root: Path = ROOT):
    """A `judge warm` process (the checkout ``root``'s) for the default setup, for the duration
    of the block."""
    proc = subprocess.Popen([sys.executable, "-m", "judge", "warm", "--idle-timeout", "0", *sandbox],
                            cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        seen = ""
        while "warm workers (" not in seen:  # printed once the server is ready
            line = proc.stderr.readline()
            if not line:
                raise SystemExit(f"judge warm did not start: {seen}")
            seen += line
        yield
    finally:
        for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, stop)
            try:
                proc.wait(timeout=20)
                break
            except subprocess.TimeoutExpired:
                continue


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
    if sys.argv[1:2] == ["--inner"]:
        return inner(sys.argv[2], sys.argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--class-size", type=int, default=40)
    parser.add_argument("--sandbox", help="passed to every judge command (default: theirs)")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout of the judge, measured beside this one")
    args = parser.parse_args()
    sandbox = ["--sandbox", args.sandbox] if args.sandbox else []
    roots = [ROOT]
    if args.against is not None:
        other = args.against.resolve()
        if not (other / "benchmarks" / "grading_speed.py").is_file() or other == ROOT:
            raise SystemExit(f"{args.against}: not another checkout of the judge")
        roots.append(other)
    names = {root: "this checkout" if root == ROOT else root.name for root in roots}
    for root in roots:  # as an installed judge has it: no process compiles the judge's source
        compileall.compile_dir(str(root / "judge"), quiet=1)
    accepted = SUBS / "accepted" / "closure_vjp.py"
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        envs = {}
        for i, root in enumerate(roots):
            envs[root] = {**os.environ, "JUDGE_CACHE_DIR": str(Path(tmp) / f"cache-{i}")}
            for name in ("JUDGE_CACHE", "JUDGE_WARM", "JUDGE_SANDBOX", "JUDGE_SOURCE_GATE"):
                envs[root].pop(name, None)
        grade = ["grade", str(accepted), "-p", "fake_quant_ste", *sandbox]
        for root in roots:
            # what earlier grades of the problem have done: fill the compilation cache, and the
            # known submissions' fingerprints that a failing grade compares with (hints)
            judge(grade, envs[root], root)
            judge(["grade", str(SUBS / "wrong_answer" / "strict_mask.py"), "-p", "fake_quant_ste",
                   *sandbox], envs[root], root)
        cold = {root: [] for root in roots}
        warm = {root: [] for root in roots}
        plain = []
        for root in roots:
            with served(envs[root], sandbox, root):
                for _ in range(args.runs):
                    warm[root].append(judge(grade, envs[root], root))
        for i in range(args.runs):
            for root in roots[i % 2:] + roots[:i % 2]:  # each first in turn
                cold[root].append(judge(grade, envs[root], root))
            plain.append(bare(accepted))
        b, bc = (statistics.median(t[i] for t in plain) for i in (0, 1))
        print(f"\n1. one accepted submission, all cases, fresh process (median of {args.runs}; "
              "CPU: the judge process / the workers)")
        print(f"   bare script (import JAX, call, no checks)   {b:6.2f} s             "
              f"CPU {bc:5.2f} s")
        for root in roots:
            mark = "" if len(roots) == 1 else f"   [{names[root]}]"
            for label, runs, target in (
                    ("judge grade (sandbox, checks, warm cache)", cold[root], "   (target <= 0.3)"),
                    ("judge grade, `judge warm` running       ", warm[root], "")):
                w, jc, wc = (statistics.median(t[i] for t in runs) for i in (0, 1, 2))
                print(f"   {label}   {w:6.2f} s  ratio {w / b:4.2f}  CPU {jc:5.2f} / {wc:5.2f} s"
                      f"{target}{mark}")

        folder = Path(tmp) / "class"
        folder.mkdir()
        files = make_class(folder, args.class_size)
        started = time.perf_counter()
        bare_runs = [bare(path, timeout=CASE_LIMIT_S) for path in files]
        sequential = time.perf_counter() - started
        bare_cpu = sum(cpu for _, cpu in bare_runs)
        # the class without its endless submission (the last file): the time limit alone holds
        # a batch with one at about 10 s however fast the rest is graded
        finite = Path(tmp) / "finite"
        finite.mkdir()
        for path in files[:-1]:
            shutil.copyfile(path, finite / path.name)
        finite_bare = sum(wall for wall, _ in bare_runs[:-1])
        batch_args = {root: ["batch", str(folder), "-p", "fake_quant_ste", "-j", "2", *sandbox,
                             "--out", str(Path(tmp) / f"report-{i}.txt"),
                             "--journal", str(Path(tmp) / f"journal-{i}")]
                      for i, root in enumerate(roots)}
        first = {root: judge(batch_args[root], envs[root], root) for root in roots}
        # the same class graded again from the start (the journal's times order the grades), the
        # checkouts in the other order: each one's pair of batches is centred on the same moment
        again = {root: judge([*batch_args[root], "--restart"], envs[root], root)
                 for root in reversed(roots)}
        batches = {root: (first[root], again[root]) for root in roots}
        without = {root: judge(["batch", str(finite), "-p", "fake_quant_ste", "-j", "2", *sandbox,
                                "--out", str(Path(tmp) / f"finite-{i}.txt"),
                                "--journal", str(Path(tmp) / f"finite-journal-{i}")],
                               envs[root], root)
                   for i, root in enumerate(roots)}
    n = len(files)
    print(f"\n2. a class of {n} submissions (1 loops forever)")
    print(f"   one bare fresh process per submission     {sequential:7.1f} s  {n / sequential:5.2f}"
          f" submissions/s  CPU {bare_cpu / n:5.2f} s each")
    for root in roots:
        mark = "" if len(roots) == 1 else f"   [{names[root]}]"
        (batch, judge_cpu, worker_cpu), (again, again_judge, again_workers) = batches[root]
        print(f"   judge batch -j 2 (cache, warm workers)     {batch:7.1f} s  {n / batch:5.2f}"
              f" submissions/s  CPU {judge_cpu / n:5.2f} / {worker_cpu / n:5.2f} s each "
              f"(judge / workers){mark}")
        print(f"   the same, --restart (journal: longest first) {again:5.1f} s  {n / again:5.2f}"
              f" submissions/s  CPU {again_judge / n:5.2f} / {again_workers / n:5.2f} s each{mark}")
        print(f"   throughput ratio batch/bare                {sequential / batch:7.2f}"
              f"   (target >= 12); graded again: {sequential / again:.2f}{mark}")
    print(f"\n3. the same class without the endless submission ({n - 1} submissions)")
    print(f"   one bare fresh process per submission     {finite_bare:7.1f} s")
    for root in roots:
        mark = "" if len(roots) == 1 else f"   [{names[root]}]"
        wall = without[root][0]
        print(f"   judge batch -j 2                           {wall:7.1f} s  ratio "
              f"{finite_bare / wall:5.2f}   (target >= 12){mark}")


if __name__ == "__main__":
    main()
