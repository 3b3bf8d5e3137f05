"""What handing a class to the service's graders costs: `judge batch --queue` over N graders
against `judge batch -j N`, on this one machine, side by side.

    python benchmarks/batch_queue.py [-n 2] [--class-size 12] [--problem fake_quant_ste]

Starts a redis-server on a free port and N graders (`judge service --grader-only --workers 1`,
each with its warm workers), warms the judge's caches with one local batch of each distinct file,
then grades the same class (the problem's bundled accepted, wrong_answer and rejected
submissions, in turn; `batch_scaling.make_class`) locally with `-j N` and over the queue, each
with a fresh journal, and checks that both give the same verdicts. The ratio is the queue's
cost on equal cores (1.00: none); on several machines the graders add their cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from batch_scaling import make_class  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def batch(problem: str, folder: Path, out: Path, env: dict, *args: str) -> tuple[float, dict]:
    """Wall seconds of ``judge batch FOLDER ARGS``, and its verdicts by submission."""
    out.mkdir()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "judge", "batch", str(folder), "-p", problem,
                           "--format", "json", "--out", str(out / "report.json"),
                           "--journal", str(out / "journal"), *args],
                          cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"judge batch {' '.join(args)} failed: {done.stderr.strip()[-800:]}")
    report = json.loads((out / "report.json").read_text())
    return wall, {r["submission"]: r["verdict"] for r in report["results"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--graders", type=int, default=2,
                        help="graders, and the local batch's -j (default 2)")
    parser.add_argument("--class-size", type=int, default=12)
    parser.add_argument("--problem", default="fake_quant_ste")
    args = parser.parse_args()
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("redis-server is not installed here (apt-get install redis-server)")
    n = args.graders
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; N = {n}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp / "cache"),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        for name in ("JUDGE_CACHE", "JUDGE_WARM", "JUDGE_SOURCE_GATE"):
            env.pop(name, None)
        folder = tmp / "class"
        folder.mkdir()
        files = make_class(args.problem, folder, args.class_size)
        warmup = tmp / "warmup"
        warmup.mkdir()
        for path in files:
            shutil.copyfile(path, warmup / path.name.split("_", 1)[1])
        port = free_port()
        url = f"redis://127.0.0.1:{port}/0"
        procs = [subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save",
                                   "", "--appendonly", "no", "--dir", str(tmp)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        try:
            procs += [subprocess.Popen([sys.executable, "-m", "judge", "service", "--grader-only",
                                        "--queue", url, "--workers", "1", "--data",
                                        str(tmp / f"grader{i}")], cwd=ROOT, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True) for i in range(n)]
            batch(args.problem, warmup, tmp / "warmup-run", env, "-j", str(n))
            batch(args.problem, warmup, tmp / "warmup-queue", env, "--queue", url)
            local, want = batch(args.problem, folder, tmp / "local", env, "-j", str(n))
            queued, got = batch(args.problem, folder, tmp / "queued", env, "--queue", url)
        finally:
            for proc in procs[1:]:
                os.killpg(proc.pid, signal.SIGTERM)
            procs[0].terminate()
            for proc in procs:
                proc.wait(timeout=60)
        if got != want:
            raise SystemExit(f"the verdicts differ: local {want}, queued {got}")
        size = len(files)
        print(f"a class of {size} submissions of {args.problem} (accepted, wrong, rejected in "
              f"turn), the same verdicts both ways")
        print(f"   judge batch -j {n}:               {local:6.1f}s  ({size / local:.2f} submissions/s)")
        print(f"   judge batch --queue, {n} graders:  {queued:6.1f}s  ({size / queued:.2f} "
              f"submissions/s)")
        print(f"queue / local: {queued / local:.2f}")


if __name__ == "__main__":
    main()
