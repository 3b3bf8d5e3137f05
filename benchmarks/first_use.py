"""What a worker's first use of an operation at new input types costs, with the operation
loaded as stored (``judge.worker.stored_ops``) and through JAX's own path (trace, lower, hash,
load from the compilation cache), side by side, each in fresh processes.

    python benchmarks/first_use.py [--repeats 3]

A trusted run first fills a cache folder (every operation compiled once, its executable
stored). Then, for each way, a fresh process evaluates the programs of
``benchmarks/evaluator_speed.py`` at several shapes with the worker's evaluator (NumPy where
exact, the rest bound by JAX), twice: the first evaluation meets every first use, the second
none. The cost of the first uses is the difference in CPU time, divided by their number; the
fastest of ``--repeats`` processes is kept. A third way times JAX's path by phase (trace,
lower, then hash and load), to show what a cheaper trace alone could save. Every evaluation's values are checked equal, bit
for bit, across the ways.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = textwrap.dedent("""
    import hashlib, json, sys, time
    sys.path.insert(0, sys.argv[3])
    import numpy as np
    import jax
    for key, value in {"jax_compilation_cache_dir": sys.argv[1],
                       "jax_persistent_cache_min_compile_time_secs": 0,
                       "jax_persistent_cache_min_entry_size_bytes": -1,
                       "jax_persistent_cache_enable_xla_caches": "none"}.items():
        jax.config.update(key, value)
    from benchmarks.evaluator_speed import programs
    from judge.worker.evaluate import Evaluator
    from judge.worker.stored_ops import StoredOps

    way = sys.argv[2]
    evaluator = Evaluator(jax, uses_numpy=way != "fill")
    if way in ("fill", "stored"):
        evaluator.stored = StoredOps(jax, sys.argv[1], writable=way == "fill")
    phases = [0.0, 0.0, 0.0]  # way "phases": JAX's path, its trace, lowering and load timed apart
    if way == "phases":
        seen, plain_call = set(), evaluator.direct.call

        def call(fun, args):
            key = (fun, tuple((a.dtype, a.shape, bool(getattr(getattr(a, "aval", None), "weak_type", False)))
                              for a in args))
            if key in seen:
                return plain_call(fun, args)
            seen.add(key)
            t0 = time.process_time()
            traced = fun.trace(*args)
            t1 = time.process_time()
            lowered = traced.lower()
            t2 = time.process_time()
            compiled = lowered.compile()
            phases[0] += t1 - t0
            phases[1] += t2 - t1
            phases[2] += time.process_time() - t2
            return plain_call(compiled, args)

        evaluator.direct.call = call
    jax.numpy.zeros(1).block_until_ready()  # the backend started, outside the measure
    rng = np.random.default_rng(1)
    work = []
    for scale in (1, 2, 3):
        for name, (fun, args) in programs().items():
            args = tuple(np.asarray(rng.uniform(-2, 2, np.shape(a)[:-1] + (np.shape(a)[-1] * scale,)),
                                    np.float32) if np.ndim(a) else a for a in args)
            try:
                closed = jax.make_jaxpr(fun)(*args)
            except Exception:
                continue
            work.append((closed, args))
    times, digest = [], hashlib.sha256()
    for _ in range(2):
        start = time.process_time()
        for closed, args in work:
            out = evaluator.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)
            digest.update(b"".join(np.asarray(o).tobytes() for o in out))
        times.append(time.process_time() - start)
    counts = evaluator.stored.counts if evaluator.stored is not None else None
    print(json.dumps({"times": times, "digest": digest.hexdigest(), "counts": counts, "phases": phases}))
""")


def run(folder: str, way: str) -> dict:
    done = subprocess.run([sys.executable, "-c", RUN, folder, way, str(ROOT)], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="first-use-") as folder:
        fill = run(folder, "fill")
        kept = fill["counts"]["kept"]
        best: dict[str, dict] = {}
        for _ in range(args.repeats):
            for way in ("jax", "stored", "phases"):  # alternated: the machine's load hits all
                result = run(folder, way)
                if result["digest"] != fill["digest"]:
                    raise SystemExit(f"{way}: values differ from the trusted run's")
                if way not in best or result["times"][0] < best[way]["times"][0]:
                    best[way] = result
    found = best["stored"]["counts"]
    uses = found["found"] + found["missing"]
    print(f"operations stored by the trusted run: {kept}; first uses of each evaluation: {uses} "
          f"({found['found']} of them stored)")
    print(f"{'way':28s} {'1st eval CPU s':>15s} {'2nd eval CPU s':>15s} {'per first use ms':>17s}")
    per = {}
    for way, label in (("jax", "JAX's path (trace, lower)"), ("stored", "stored, loaded as is")):
        first, second = best[way]["times"]
        per[way] = (first - second) / uses * 1000
        print(f"{label:28s} {first:15.3f} {second:15.3f} {per[way]:17.2f}")
    print(f"ratio (JAX's path / stored): {per['jax'] / per['stored']:.1f}x")
    trace, lower, load = (t / uses * 1000 for t in best["phases"]["phases"])
    print(f"JAX's path by phase, ms per first use: trace {trace:.2f}, lower {lower:.2f}, hash and "
          f"load {load:.2f} (a cheaper trace alone saves at most the first)")


if __name__ == "__main__":
    main()
