"""What `judge batch` spends in the judge's own processes per submission: CPU and system calls,
side by side for this checkout and another (``--against DIR``, an earlier version say).

    python benchmarks/batch_judge_side.py [--against DIR] [--class-size 40] [-j 2] [--rounds 1]
                                          [--lanes N]

A class of fake_quant_ste submissions (accepted, wrong and rejected in turn) is graded by
`judge batch -j J` with a `judge warm` process of the same checkout running, so that every
worker is a child of that process and not of the batch: what remains in the batch's process tree
is the judge's own work (the batch's process and, past a few lanes, its grading processes). Two
figures per checkout and round:

* CPU: the batch's process and its grading processes (``grading_speed.py --inner``), per
  submission, the batch's process alone beside it (with grading processes, what is left of the
  one process that every lane used to wait on), and the workers' CPU;
* system calls: the same batch under ``strace -f -c`` (every thread and child process of the
  batch), in all and by call, per submission; strace slows the run, so its times are not used.

``--lanes N`` sets $JUDGE_BATCH_LANES for this checkout's batches (lanes per grading process;
0: one process, as before). Run on a quiet machine: other work shows up in the CPU figures.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from grading_speed import served  # noqa: E402

SUBS = ROOT / "submissions" / "fake_quant_ste"


def make_class(folder: Path, size: int) -> None:
    pool = [p for kind in ("accepted", "wrong_answer", "rejected") for p in sorted((SUBS / kind).glob("*.py"))]
    for i in range(size):
        source = pool[i % len(pool)]
        shutil.copyfile(source, folder / f"student{i:03d}_{source.parent.name}_{source.name}")


def run(root: Path, argv: list[str], env: dict, strace: Path | None) -> tuple[float, dict]:
    """(wall seconds, ``--inner``'s figures) of ``judge ARGV`` from checkout ``root``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as stats:
        command = [sys.executable, str(root / "benchmarks" / "grading_speed.py"), "--inner",
                   stats.name, *argv]
        if strace is not None:
            command = ["strace", "-f", "-c", "-o", str(strace), *command]
        started = time.perf_counter()
        subprocess.run(command, cwd=root, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - started
        got = json.loads(Path(stats.name).read_text() or "{}")
    if got.get("code") not in (0, 1):
        raise SystemExit(f"judge {' '.join(argv)} in {root} failed (exit status {got.get('code')})")
    return wall, got


def calls(summary: Path) -> Counter:
    """The calls of an ``strace -c`` summary, by name."""
    counted = Counter()
    for line in summary.read_text().splitlines():
        fields = line.split()
        if len(fields) >= 5 and re.fullmatch(r"[\d.]+", fields[0]) and fields[-1] != "total":
            counted[fields[-1]] += int(fields[3])
    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, metavar="DIR")
    parser.add_argument("--class-size", type=int, default=40)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--lanes", help="$JUDGE_BATCH_LANES for this checkout's batches")
    args = parser.parse_args()
    if shutil.which("strace") is None:
        raise SystemExit("strace is not installed")
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    for root in roots:
        compileall.compile_dir(str(root / "judge"), quiet=1)
    n = args.class_size
    print(f"machine: {os.cpu_count()} cores; a class of {n}, judge batch -j {args.jobs}, "
          f"`judge warm` running")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        make_class(folder, n)
        envs = {}
        for i, root in enumerate(roots):
            env = {**os.environ, "JUDGE_CACHE_DIR": str(Path(tmp) / f"cache-{i}")}
            for name in ("JUDGE_CACHE", "JUDGE_WARM", "JUDGE_SANDBOX", "JUDGE_SOURCE_GATE",
                         "JUDGE_BATCH_LANES"):
                env.pop(name, None)
            if root == ROOT and args.lanes is not None:
                env["JUDGE_BATCH_LANES"] = args.lanes
            envs[root] = env
        rows = {root: [] for root in roots}
        for round_ in range(args.rounds + 1):  # the first round warms the caches
            for root in (roots if round_ % 2 else list(reversed(roots))):
                i = roots.index(root)
                batch = ["batch", str(folder), "-p", "fake_quant_ste", "-j", str(args.jobs),
                         "--out", str(Path(tmp) / f"report-{i}.txt"),
                         "--journal", str(Path(tmp) / f"journal-{i}-{round_}")]
                with served(envs[root], [], root):
                    wall, got = run(root, batch, envs[root], None)
                    summary = Path(tmp) / f"strace-{i}-{round_}"
                    run(root, [*batch[:-1], batch[-1] + "-traced"], envs[root], summary)
                if round_:
                    rows[root].append((wall, got["judge"], got.get("own", got["judge"]),
                                       got["workers"], calls(summary)))
    print(f"   {'':<16} {'wall':>7} {'judge CPU':>10} {'(batch)':>8} {'workers CPU':>12} "
          f"{'syscalls':>9}   (per submission: the judge's processes, the batch's own in "
          f"brackets; the most frequent calls)")
    for root in roots:
        name = "this checkout" if root == ROOT else root.name
        for wall, judge_cpu, own_cpu, workers_cpu, counted in rows[root]:
            top = ", ".join(f"{c} {v / n:.0f}" for c, v in counted.most_common(6))
            print(f"   {name:<16} {wall:6.1f}s {1000 * judge_cpu / n:8.0f}ms {1000 * own_cpu / n:6.0f}ms "
                  f"{1000 * workers_cpu / n:10.0f}ms {sum(counted.values()) / n:9.0f}   {top}")


if __name__ == "__main__":
    main()
