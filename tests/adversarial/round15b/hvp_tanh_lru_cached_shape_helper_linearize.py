"""hvp_tanh: a student's module: an ``lru_cache``d helper reads the number of units from W's
shape (a Python int here: m is the case's own), an assert on the shapes with a message, a
``print`` of the shapes at trace time, and ``jax.linearize`` of ``jax.grad`` evaluated at v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
from functools import lru_cache

import jax
import jax.numpy as jnp


@lru_cache(maxsize=None)
def n_units(shape: tuple) -> int:
    return shape[0]


def hvp(W, x, v):
    assert W.shape[1:] == x.shape == v.shape, "W is (m, d), x and v are (d,)"
    print(f"hvp: {n_units(W.shape)} units, x {x.shape}")

    def f(x):
        return jnp.tanh(W @ x).sum()

    _, lin = jax.linearize(jax.grad(f), x)
    return lin(v)
