"""hvp_tanh: a Python loop over the m units (allowed: m is the case's own), each unit's H v
from forward over reverse on its own row, summed with ``functools.reduce``; the whole jitted
with the unit count as a static argument (``static_argnames``).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("m",))
def _hvp(W, x, v, m):
    def unit_hvp(i):
        f = lambda x: jnp.tanh(jnp.dot(W[i], x))
        return jax.jvp(jax.grad(f), (x,), (v,))[1]

    return functools.reduce(operator.add, [unit_hvp(i) for i in range(m)])


def hvp(W, x, v):
    return _hvp(W, x, v, m=W.shape[0])
