"""Where a parallel `judge batch` waits: a timeline of every submission, from one run.

    python benchmarks/batch_timeline.py FOLDER -p PROBLEM -j N [--log timeline.jsonl] [batch options]

Runs `judge batch` in this process, as the `judge` program does, with its stages timed from
the outside: for each submission, when a lane took it, and for each of its worker runs when
the worker was asked for, when the fork server had taken the request, when the worker was ready,
had loaded the submission, reported its first case and was done, and when the run ended; the
CPU the judge's own thread spent on the submission; the worker's CPU. Prints a summary (the
first wave of N, the later ones, the judge process's CPU), where each lane's time went (in
worker runs, in the judge's own work on a submission outside its runs, idle between
submissions), the CPU of the whole process tree (this process is the reaper of every process
the batch starts: the warm server, its forks and workers, bubblewrap, the compiling process)
against what the judge and its workers account for, and with ``--log`` one JSON line per
submission. Seconds are from the start of the batch. Nothing of the judge is changed: only
timed.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import json
import os
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

T0 = time.monotonic()
_local = threading.local()
_records: list[dict] = []
_lock = threading.Lock()


def now() -> float:
    return round(time.monotonic() - T0, 4)


def _propagate() -> None:
    """Threads a submission's grade starts (its trace run) log into the same record."""
    submit = concurrent.futures.ThreadPoolExecutor.submit

    def carried(self, fn, *args, **kwargs):
        record = getattr(_local, "record", None)

        def run(*a, **k):
            _local.record = record
            return fn(*a, **k)
        return submit(self, run, *args, **kwargs)
    concurrent.futures.ThreadPoolExecutor.submit = carried


def _patch() -> None:
    from judge.grade import batch, corners, grading
    from judge.run import collect, warm

    record_one = batch.grade_entry

    def timed_record(entry, *args, **kwargs):
        record = {"name": entry.name, "taken": now(), "runs": [], "lane": threading.get_ident()}
        with _lock:
            _records.append(record)
        _local.record = record
        cpu = time.thread_time()
        try:
            result = record_one(entry, *args, **kwargs)
        finally:
            record["judge_cpu"] = round(time.thread_time() - cpu, 4)
            record["end"] = now()
        record["verdict"] = result.get("verdict")
        return result
    batch.grade_entry = timed_record

    def timed_run_worker(original):
        def run_worker(request, **kwargs):
            run = {"kind": "trace" if request.get("derivative") or not request.get("cases") else "main",
                   "cases": len(request.get("cases") or ()), "asked": now()}
            record = getattr(_local, "record", None)
            if record is not None:
                record["runs"].append(run)
            _local.run = run
            cpu = time.thread_time()
            try:
                result = original(request, **kwargs)
            finally:
                run["end"] = now()
                run["judge_cpu"] = round(time.thread_time() - cpu, 4)
            run["worker_cpu"] = result.cpu_s
            return result
        return run_worker
    grading.run_worker = timed_run_worker(grading.run_worker)
    corners.run_worker = timed_run_worker(corners.run_worker)

    spawn = warm.Connection.spawn

    def timed_spawn(self, *args, **kwargs):
        run = getattr(_local, "run", None)
        if run is not None:
            run["spawn"] = now()
        child = spawn(self, *args, **kwargs)
        if run is not None:
            run["spawned"] = now()
        return child
    warm.Connection.spawn = timed_spawn

    accept = collect.accept

    def timed_accept(run_state, msg, at):
        accept(run_state, msg, at)
        run = getattr(_local, "run", None)
        if run is not None:
            kind = type(msg).__name__.lower()
            if kind == "casereport":
                kind = "first_case"
            run.setdefault(kind, now())
    collect.accept = timed_accept


def summary(records: list[dict], jobs: int, wall: float, cpu_main: float) -> None:
    if not records:
        print(f"no submission was graded (wall {wall:.2f} s): the batch's own output says why")
        return
    records.sort(key=lambda r: r["taken"])
    first, later = records[:jobs], records[jobs:]

    def stage(rows, a, b):
        values = [r[b] - r[a] for r in rows if a in r and b in r]
        if not values:
            return "-"
        return f"{statistics.median(values):5.2f} (max {max(values):5.2f})"

    mains = lambda rows: [run for r in rows for run in r["runs"] if run["kind"] == "main"]
    print(f"{len(records)} submissions, -j {jobs}: wall {wall:.2f} s; judge process CPU "
          f"{cpu_main:.2f} s ({cpu_main / max(len(records), 1):.3f} s a submission)")
    for label, rows in (("first wave", first), ("later", later)):
        runs = mains(rows)
        if not runs:
            continue
        print(f"  {label} ({len(rows)}): main runs, medians in s: asked->spawned "
              f"{stage(runs, 'asked', 'spawned')}, spawned->ready {stage(runs, 'spawned', 'ready')}, "
              f"ready->loaded {stage(runs, 'ready', 'loaded')}, loaded->first case "
              f"{stage(runs, 'loaded', 'first_case')}, first case->done {stage(runs, 'first_case', 'done')}, "
              f"done->end {stage(runs, 'done', 'end')}")
        grades = [r["end"] - r["taken"] for r in rows]
        print(f"    grade {statistics.median(grades):.2f} s (max {max(grades):.2f}); judge thread CPU "
              f"{statistics.median(r['judge_cpu'] for r in rows):.3f} s; worker CPU "
              f"{statistics.median(run.get('worker_cpu') or 0 for run in runs):.2f} s; "
              f"runs per submission {statistics.mean(len(r['runs']) for r in rows):.1f}")
    lanes: dict[int, list[dict]] = {}
    for r in records:
        lanes.setdefault(r["lane"], []).append(r)
    outside, idle = [], []
    for rows in lanes.values():
        for before, r in zip([None, *rows], rows):
            in_runs = max((run["end"] for run in r["runs"]), default=r["taken"]) - \
                min((run["asked"] for run in r["runs"]), default=r["taken"])
            outside.append(r["end"] - r["taken"] - in_runs)
            if before is not None:
                idle.append(r["taken"] - before["end"])
    print(f"  lanes: {len(lanes)}; a submission's time outside its worker runs (intake, gate, "
          f"plan, deciding, reports) median {statistics.median(outside):.3f} s, total "
          f"{sum(outside):.1f} s; a lane idle between submissions median "
          f"{statistics.median(idle) if idle else 0:.3f} s, total {sum(idle):.1f} s")
    ends = sorted(r["end"] for r in records)
    print(f"  last submissions end at {', '.join(f'{e:.1f}' for e in ends[-3:])} s; "
          f"the last taken at {max(r['taken'] for r in records):.1f} s")


def _tree_cpu() -> float | None:
    """The CPU of every process this one started and reaped, once the warm servers are stopped
    (None where this process cannot be their reaper: not Linux)."""
    from judge.run import warm

    warm.close_all()
    while True:
        try:
            os.wait4(-1, 0)
        except ChildProcessError:
            break
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    try:
        reaper = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # CHILD_SUBREAPER
    except (OSError, AttributeError):
        reaper = False
    argv = sys.argv[1:]
    log = None
    if "--log" in argv:
        i = argv.index("--log")
        log = Path(argv[i + 1])
        del argv[i:i + 2]
    jobs = int(argv[argv.index("-j") + 1]) if "-j" in argv else 1
    from judge import entry

    entry.start_server_early(["batch", *argv])
    _propagate()
    _patch()
    from judge import cli

    started = time.monotonic()
    code = cli.main(["batch", *argv])
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    summary(_records, jobs, wall, usage.ru_utime + usage.ru_stime)
    tree = _tree_cpu() if reaper else None
    if tree is not None:
        workers = sum(run.get("worker_cpu") or 0.0 for r in _records for run in r["runs"])
        own = usage.ru_utime + usage.ru_stime
        n = max(len(_records), 1)
        print(f"  CPU of the whole tree {own + tree:.2f} s: this process {own:.2f}, workers "
              f"{workers:.2f}, the rest (warm server's import and forks, bubblewrap, the "
              f"compiling process) {tree - workers:.2f}; per submission {(own + tree) / n:.3f} s "
              f"({own / n:.3f} judge, {workers / n:.3f} workers, {(tree - workers) / n:.3f} rest)")
    if log is not None:
        log.write_text("".join(json.dumps(r) + "\n" for r in _records))
    entry.end(code)


if __name__ == "__main__":
    main()
