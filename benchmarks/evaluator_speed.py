"""The worker's evaluator on programs that step through loops, as a case run evaluates them: CPU
milliseconds per evaluation of each program (the fastest of a few repeats, after one run that
compiles or loads every operation), with the NumPy evaluator (``evaluate.Evaluator``) and with
every operation bound by JAX (``uses_numpy=False``), side by side, and their ratio. Every
evaluation's values are checked equal to the first one's, bit for bit.

    python benchmarks/evaluator_speed.py [--repeats 5]

Programs: power iteration with its gradient (64 steps of a fori_loop, the gradient through
them), attention over keys one block at a time (a scan, its gradient), and a float16 two-layer
step (products of one term where an extent is 1).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from judge.worker.evaluate import Evaluator  # noqa: E402


def power_iteration(w, u0):
    def body(_, uv):
        u, _ = uv
        v = w.T @ u
        v = v / jnp.linalg.norm(v)
        u = w @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, 64, body, (u0, jnp.zeros(w.shape[1], w.dtype)))
    return u @ w @ jax.lax.stop_gradient(v)


def blocked_attention(q, k, v):
    def step(carry, kv):
        top, total, acc = carry
        kb, vb = kv
        s = q @ kb.T / jnp.sqrt(q.shape[-1])
        new_top = jnp.maximum(top, s.max(axis=-1))
        scale, p = jnp.exp(top - new_top), jnp.exp(s - new_top[:, None])
        return (new_top, total * scale + p.sum(-1), acc * scale[:, None] + p @ vb), None

    blocks = k.shape[0] // 2
    init = (jnp.full(q.shape[0], -jnp.inf), jnp.zeros(q.shape[0]), jnp.zeros((q.shape[0], v.shape[1])))
    (_, total, acc), _ = jax.lax.scan(step, init, (k.reshape(blocks, 2, -1), v.reshape(blocks, 2, -1)))
    return (acc / total[:, None]).sum()


def half_step(w, b, x, y):
    h = jnp.tanh(x.astype(jnp.float16) @ w.astype(jnp.float16) + b.astype(jnp.float16))
    return jnp.mean((h.sum(-1) - y.astype(jnp.float16)) ** 2)


def programs():
    rng = np.random.default_rng(0)
    f32 = lambda *shape: rng.uniform(-2, 2, shape).astype(np.float32)  # noqa: E731
    return {
        "power iteration, grad": (jax.value_and_grad(power_iteration), (f32(9, 7), f32(9))),
        "blocked attention, grad": (jax.value_and_grad(blocked_attention, (0, 1, 2)), (f32(5, 4), f32(8, 4), f32(8, 3))),
        "float16 step, grad": (jax.value_and_grad(half_step, (0, 1)), (f32(1, 6), f32(6), f32(12, 1), f32(12))),
    }


def cpu_ms(evaluator, closed, args, repeats: int) -> float:
    first = evaluator.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        out = evaluator.run(closed.jaxpr, closed.consts, *args, jit_inlined=True)
        best = min(best, time.process_time() - start)
        for a, b in zip(out, first):
            assert np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
    return best * 1e3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    numpy_path, jax_only = Evaluator(jax), Evaluator(jax, uses_numpy=False)
    print(f"{'program':28s} {'numpy ms':>9s} {'jax ms':>9s} {'jax/numpy':>10s}")
    for name, (fn, inputs) in programs().items():
        closed = jax.make_jaxpr(fn)(*inputs)
        mixed, bound = (cpu_ms(e, closed, inputs, args.repeats) for e in (numpy_path, jax_only))
        print(f"{name:28s} {mixed:9.1f} {bound:9.1f} {bound / mixed:10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
