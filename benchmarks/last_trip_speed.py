"""The last-trip measurement (``judge.worker.last_trip.shortened``) beside the case's own
evaluation, as a case's worker makes them: CPU milliseconds of each (the fastest of a few
repeats, after one that loads or compiles every operation), and their ratio.

    python benchmarks/last_trip_speed.py [--repeats 5]

Programs: power iteration with the judge's derivative (``jax.vjp``, a cotangent as input) at
K = 64, m = 12, n = 9, its loop a fori_loop, a scan, a while, and a fori_loop of four steps a
trip. Each case's evaluation is the program run by the worker's evaluator, loops step by step;
the measurement evaluates the program again with its loop stopped one trip early, on the
case's inputs and on moved ones. "traced" is a case of a new program or new dims (the
measuring program traced, then evaluated); "kept" a later case of the same program and input
types (its measuring program kept, where this tree keeps it; "-" where it does not). Run it on
two trees (a copy of this file in each) to compare them.
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from judge.worker import last_trip, program, stepwise  # noqa: E402
from judge.worker.evaluate import Evaluator  # noqa: E402

K = 64


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def fori(W, u0):
    Wc = jax.lax.stop_gradient(W)
    u, v = jax.lax.fori_loop(0, K, lambda i, c: _step(Wc, c[0]), (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v


def scan(W, u0):
    Wc = jax.lax.stop_gradient(W)
    (u, v), _ = jax.lax.scan(lambda c, _: (_step(Wc, c[0]), None), (u0, jnp.zeros(W.shape[1])), None, length=K)
    return u @ W @ v


def while_(W, u0):
    Wc = jax.lax.stop_gradient(W)

    def body(c):
        u, v = _step(Wc, c[1])
        return c[0] + 1, u, v
    _, u, v = jax.lax.while_loop(lambda c: c[0] < K, body, (0, u0, jnp.zeros(W.shape[1])))
    return u @ W @ v


def four_a_trip(W, u0):
    def body(_, c):
        u, v = c
        for _ in range(4):
            u, v = _step(W, u)
        return u, v
    u, v = jax.lax.fori_loop(0, K // 4, body, (u0, jnp.zeros(W.shape[1])))
    return u @ W @ jax.lax.stop_gradient(v)


def with_vjp(fn):
    def traced(W, u0, c):
        out, pull = jax.vjp(lambda w: fn(w, u0), W)
        return [out, *pull(c)]
    return traced


def cpu_ms(fn, repeats: int) -> float:
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-4, 4, (12, 9)).astype(np.float32), rng.uniform(-4, 4, 12).astype(np.float32),
              np.float32(1.0)]
    evaluator = Evaluator(jax)
    keeps = "made" in inspect.signature(last_trip.shortened).parameters
    print(f"{'program':<14}{'case ms':>10}{'traced ms':>11}{'kept ms':>10}{'traced/case':>13}{'kept/case':>11}")
    for fn in (fori, scan, while_, four_a_trip):
        closed = jax.make_jaxpr(with_vjp(fn))(*inputs)
        loops = program.summarize(closed)["loops"]
        paths = last_trip.paths(closed, program.summarize)
        index = last_trip.chosen(loops, lambda i: last_trip.needed_by(closed.jaxpr, paths[i], [0]))

        def case():
            with np.errstate(all="ignore"):
                evaluator.run(closed.jaxpr, closed.consts, *inputs, jit_inlined=True)

        def evaluate(jaxpr, consts, *values):
            return evaluator.run(jaxpr, consts, *values, jit_inlined=stepwise.Budget(last_trip.STEPPED))

        def measure(made=None):
            with np.errstate(all="ignore"):
                extra = (made,) if keeps else ()
                assert last_trip.shortened(closed, paths[index], inputs, 1, evaluate, *extra) is not None

        kept: dict = {}
        own, traced = cpu_ms(case, args.repeats), cpu_ms(measure, args.repeats)
        again = cpu_ms(lambda: measure(kept), args.repeats) if keeps else None
        kept_ms, kept_ratio = ("-", "-") if again is None else (f"{again:.1f}", f"{again / own:.2f}")
        print(f"{fn.__name__:<14}{own:>10.1f}{traced:>11.1f}{kept_ms:>10}{traced / own:>13.2f}{kept_ratio:>11}")


if __name__ == "__main__":
    main()
