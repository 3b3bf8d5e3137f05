"""How often a cold `judge check` compiles the same operation in more than one worker.

    python benchmarks/compile_counts.py [PROBLEM ...] [-j 2] [--by-primitive]

For each problem, in fresh, empty cache folders (JUDGE_CACHE_DIR, XDG_CACHE_HOME,
XDG_DATA_HOME), one `judge check -j N`. Every submission's case run lists the operations its
evaluator had to compile because the judge's read-only compilation cache did not hold them
(what it offers the judge's compiling process: at most 256 a run). Printed side by side: the
runs, the compiles they list in all, the distinct operations among them, the duplicates
(compiles that another worker of the same check had made already), and how many operations
were compiled by 1, 2, 3, ... workers.

The duplicates bound what compiling each operation once per check could save. The judge's
compiling process rebuilds an operation from its description, lowers and compiles it, and the
worker then still lowers it (for the cache key) and loads it: an operation that only one
worker needs costs more that way than the worker's own compile, so sharing during the check
pays only where most operations are needed by two or more workers. With --by-primitive, the
same figures for each primitive under each problem's row.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("spectral_norm", "mixed_precision_step", "batched_attention", "loss_and_grads")

#: Runs `judge check` in this process with the judge's worker runs and compiling process
#: observed: one JSON line per case run that listed its compiles (their descriptions' digests),
#: and one with the compiling process's id, appended to the file argv[1].
DRIVER = """
import hashlib, json, sys
from judge.run import shared_compile, supervisor

log = open(sys.argv[1], "a")
run_worker, start = supervisor.run_worker, shared_compile.SharedCompiles._start

def counted(request, **kw):
    run = run_worker(request, **kw)
    if request.get("report_ops"):
        keys = [hashlib.sha256(json.dumps(op, sort_keys=True).encode()).hexdigest() for op in run.ops]
        log.write(json.dumps({"ops": keys, "names": [str(op.get("p")) for op in run.ops]}) + "\\n")
        log.flush()
    return run

def started(self):
    ok = start(self)
    if self._proc is not None:
        log.write(json.dumps({"compiler": self._proc.pid}) + "\\n")
        log.flush()
    return ok

supervisor.run_worker, shared_compile.SharedCompiles._start = counted, started
from judge import cli
sys.argv = ["judge", *sys.argv[2:]]
cli.main()
"""


def counts(problem: str, jobs: int) -> tuple[list[list[tuple[str, str]]], int]:
    """The (digest, primitive) of each operation each case run listed, and the check's exit
    status."""
    with tempfile.TemporaryDirectory(prefix="compile-counts-") as tmp:
        env = {**os.environ, "JUDGE_CACHE_DIR": f"{tmp}/judge-cache", "XDG_CACHE_HOME": f"{tmp}/cache",
               "XDG_DATA_HOME": f"{tmp}/data"}
        log = Path(tmp) / "runs.jsonl"
        log.touch()
        done = subprocess.run([sys.executable, "-c", DRIVER, str(log), "check", problem, "-j", str(jobs)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        for line in lines:  # the compiling process goes on after the check: stopped here
            if "compiler" in line:
                try:
                    os.killpg(line["compiler"], signal.SIGKILL)
                except OSError:
                    pass
        return [list(zip(line["ops"], line["names"])) for line in lines if "ops" in line], done.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problems", nargs="*", default=list(DEFAULT))
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--by-primitive", action="store_true",
                        help="also the compiles and duplicates of each primitive, most compiled first")
    args = parser.parse_args(argv)
    print(f"cold judge check -j {args.jobs}: operations compiled in the submissions' workers")
    print(f"{'problem':24s} {'runs':>5s} {'compiles':>9s} {'distinct':>9s} {'duplicates':>11s}   "
          f"operations by workers that compiled them")
    failed = 0
    for problem in args.problems:
        runs, status = counts(problem, args.jobs)
        failed |= status != 0
        per_op = collections.Counter(key for run in runs for key in run)
        total = sum(per_op.values())
        spread = collections.Counter(per_op.values())
        shown = " ".join(f"{k}:{spread[k]}" for k in sorted(spread))
        flag = "" if status == 0 else f"   (exit {status}: the check found errors)"
        print(f"{problem:24s} {len(runs):5d} {total:9d} {len(per_op):9d} {total - len(per_op):11d}   "
              f"{shown}{flag}", flush=True)
        if args.by_primitive:
            compiles, distinct = collections.Counter(), collections.Counter()
            for (key, name), n in per_op.items():
                compiles[name] += n
                distinct[name] += 1
            for name, n in compiles.most_common(12):
                print(f"    {name:20s} {n:9d} {distinct[name]:9d} {n - distinct[name]:11d}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
