"""Does a worker forked from a process that has imported JAX slow down more than a fresh process
when N run at once? One run, side by side.

    JAX_PLATFORMS=cpu python benchmarks/fork_scaling.py [-n N] [--problem fake_quant_ste]

Two ways of running the same work (a bundled accepted submission on every case of the problem,
no judge, as `benchmarks/bare_run.py` does):

* fresh: a new Python per run (imports JAX itself), 1 and then N at once;
* forked: a parent imports JAX (never a backend, as the judge's fork server) and forks the runs,
  1 and then N at once, each in a parent of its own; each child reports its wall and CPU time.

The last line is the slowdown of each way from 1 to N at once. On a machine where the forked
runs slow down no more than the fresh ones, a fork of the server's address space is not what
holds a parallel `judge batch` back. N defaults to the cores this process may use.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def paths(problem: str) -> tuple[str, str]:
    folder = os.path.join(ROOT, "submissions", problem, "accepted")
    return (os.path.join(folder, sorted(f for f in os.listdir(folder) if f.endswith(".py"))[0]),
            os.path.join(ROOT, "problems", f"{problem}.yaml"))


def fresh(n: int, problem: str) -> float:
    """Mean wall time of a fresh run, ``n`` at once."""
    sub, spec_path = paths(problem)
    procs = [subprocess.Popen([sys.executable, os.path.join(ROOT, "benchmarks", "bare_run.py"), sub,
                               spec_path], stdout=subprocess.PIPE, text=True) for _ in range(n)]
    totals = [float(p.communicate()[0].split()[-1]) for p in procs]
    return sum(totals) / n


def work(problem: str) -> None:
    import importlib.util

    import jax

    sys.path.insert(0, ROOT)
    from judge.problem import spec

    sub, spec_path = paths(problem)
    loaded = spec.load(spec_path)
    module_spec = importlib.util.spec_from_file_location("submission", sub)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    entry = getattr(module, loaded.entry_point)
    for case in loaded.cases:
        jax.block_until_ready(entry(*[case.inputs[p.name] for p in loaded.parameters]))


def forked_here(n: int, problem: str) -> None:
    """In a parent of its own: import JAX, fork ``n`` children, print their mean wall and CPU."""
    import jax  # noqa: F401  (the server's state: imported, no backend)

    children = {}
    for _ in range(n):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            started = time.perf_counter()
            work(problem)
            usage = resource.getrusage(resource.RUSAGE_SELF)
            os.write(write, json.dumps([time.perf_counter() - started,
                                        usage.ru_utime + usage.ru_stime]).encode())
            os._exit(0)
        os.close(write)
        children[pid] = read
    results = []
    for pid, read in children.items():
        data = b""
        while chunk := os.read(read, 65536):
            data += chunk
        os.waitpid(pid, 0)
        results.append(json.loads(data))
    print(json.dumps([sum(r[0] for r in results) / n, sum(r[1] for r in results) / n]))


def forked(n: int, problem: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, __file__, "--child", str(n), "--problem", problem],
                         capture_output=True, text=True, check=True).stdout
    wall, cpu = json.loads(out.strip().splitlines()[-1])
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--problem", default="fake_quant_ste")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        forked_here(args.child, args.problem)
        return
    n = args.n
    print(f"{n} at once against 1, {args.problem}; JAX_PLATFORMS={os.environ.get('JAX_PLATFORMS', '')!r}")
    fresh_1, fresh_n = fresh(1, args.problem), fresh(n, args.problem)
    (fork_1, cpu_1), (fork_n, cpu_n) = forked(1, args.problem), forked(n, args.problem)
    print(f"  fresh   1: {fresh_1:6.2f} s   {n}: {fresh_n:6.2f} s   slowdown {fresh_n / fresh_1:.2f}x")
    print(f"  forked  1: {fork_1:6.2f} s   {n}: {fork_n:6.2f} s   slowdown {fork_n / fork_1:.2f}x "
          f"(CPU a run {cpu_1:.2f} -> {cpu_n:.2f} s)")


if __name__ == "__main__":
    main()
