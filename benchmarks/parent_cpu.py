"""The CPU the batch's own process spends per submission: the serial part of a class graded on
many cores, for one or more trees of the judge, in one run.

    python benchmarks/parent_cpu.py [--tree PATH ...] [--class-size 52] [-j 1 -j 2] [--repeat 3]
                                    [--problem fake_quant_ste]

A class of the problem's bundled accepted, wrong_answer and rejected submissions in turn (as
``batch_scaling.py`` makes it) is graded by ``judge batch -j J`` with the judge of each TREE
(default: this one; a `git archive` copy of another commit gives a before/after), each tree's
caches warmed first by one batch of the class. The batch's process is wrapped so that, at its
end, it writes its own ``RUSAGE_SELF`` (user + system, every thread of it; its warm server and
workers are other processes, not counted). The trees take turns, repeat after repeat, so that
a change in the machine's load falls on each alike; the table gives medians, and the load
average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from batch_scaling import make_class  # noqa: E402

#: Run ``python -m judge ARGS`` in this process; at its end, write this process's CPU seconds
#: (user, system) to the file $PARENT_CPU_OUT names. ``atexit`` handlers registered first run
#: last, after the judge's own.
WRAPPER = """
import atexit, os, resource, runpy, sys
def _written():
    r = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["PARENT_CPU_OUT"], "w") as out:
        out.write(f"{r.ru_utime} {r.ru_stime}")
atexit.register(_written)
sys.argv = ["judge"] + sys.argv[1:]
runpy.run_module("judge", run_name="__main__", alter_sys=True)
"""


def batch_cpu(tree: Path, problem: str, folder: Path, jobs: str, work: Path, env: dict) -> float:
    """CPU seconds of the batch process of ``judge batch FOLDER -j JOBS``, with ``tree``'s judge."""
    work.mkdir(parents=True)
    cpu_file = work / "cpu"
    done = subprocess.run([sys.executable, "-c", WRAPPER, "batch", str(folder), "-p", problem,
                           "-j", jobs, "--sandbox", "auto", "--format", "json",
                           "--out", str(work / "report.json"), "--journal", str(work / "journal")],
                          cwd=tree, env={**env, "PARENT_CPU_OUT": str(cpu_file)},
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1) or not cpu_file.exists():
        raise SystemExit(f"{tree}: judge batch -j {jobs} failed: {done.stderr.strip()[-800:]}")
    user, system = map(float, cpu_file.read_text().split())
    return user + system


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", type=Path,
                        help="a tree of the judge (repeatable; default: this one)")
    parser.add_argument("--class-size", type=int, default=52)
    parser.add_argument("-j", "--jobs", action="append", help="a -j to grade at (repeatable; default 1 and 2)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--problem", default="fake_quant_ste")
    args = parser.parse_args()
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    jobs = args.jobs or ["1", "2"]
    size = args.class_size
    print(f"class of {size} {args.problem} submissions; load average before: {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        make_class(args.problem, folder, size)
        envs = []
        for i, tree in enumerate(trees):
            env = {**os.environ, "JUDGE_CACHE_DIR": str(Path(tmp) / f"cache{i}")}
            for name in ("JUDGE_CACHE", "JUDGE_WARM", "JUDGE_WARM_AHEAD", "JUDGE_SANDBOX",
                         "JUDGE_SOURCE_GATE", "JUDGE_BATCH_LANES"):
                env.pop(name, None)
            envs.append(env)
            batch_cpu(tree, args.problem, folder, jobs[-1], Path(tmp) / f"warm{i}", env)
        cpu: dict[tuple[int, str], list[float]] = {}
        for r in range(args.repeat):
            for j in jobs:
                for i, tree in enumerate(trees):
                    seconds = batch_cpu(tree, args.problem, folder, j, Path(tmp) / f"run{i}-{j}-{r}", envs[i])
                    cpu.setdefault((i, j), []).append(seconds)
        shutil.rmtree(folder)
    print(f"load average after: {load()}")
    print("the batch process's CPU (RUSAGE_SELF, median of "
          f"{args.repeat}), per submission in ms; the whole class's in s")
    for j in jobs:
        base = None
        for i, tree in enumerate(trees):
            med = statistics.median(cpu[(i, j)])
            base = med if base is None else base
            runs = ", ".join(f"{s:.2f}" for s in cpu[(i, j)])
            print(f"  -j {j:<3} {tree}: {1000 * med / size:6.1f} ms  ({med:.2f} s; runs {runs})"
                  + ("" if i == 0 else f"  {med / base:.2f}x the first tree's"))


if __name__ == "__main__":
    main()
