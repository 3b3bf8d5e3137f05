"""hvp_tanh: the units' products computed by ``jax.lax.map`` over the rows of W and summed: a
loop over the m units is allowed, but ``lax.map`` is a scan, which the statement refuses by
name.

Problem: hvp_tanh
Expected: RJ forbidden_primitive
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def unit(w):
        s = jnp.tanh(w @ x)
        return -2.0 * s * (1 - s * s) * (w @ v) * w

    return jax.lax.map(unit, W).sum(0)
