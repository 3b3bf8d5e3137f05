"""The whole entry point under jax.jit with lam static (static_argnames), so it stays a Python
float inside the trace; x and dy are traced.

Expected verdict: accepted.
"""
import functools

import jax


def _make(lam):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    return rev


@functools.partial(jax.jit, static_argnames=("lam",))
def grad_reverse(x, lam, dy):
    rev = _make(lam)
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
