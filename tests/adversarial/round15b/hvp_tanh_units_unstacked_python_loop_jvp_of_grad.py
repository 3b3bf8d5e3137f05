"""hvp_tanh: the rows of W taken apart with ``jnp.unstack`` (m is the case's own number) and a
Python loop over the units, each unit's H v from ``jax.jvp`` of ``jax.grad`` of its own tanh,
the terms summed with ``sum``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def unit(w_i):
        f = lambda x: jnp.tanh(jnp.vdot(w_i, x))
        return jax.jvp(jax.grad(f), (x,), (v,))[1]

    return sum(unit(w_i) for w_i in jnp.unstack(W))
