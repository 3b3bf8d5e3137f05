"""hvp_tanh: a loop over the m units written with ``jax.lax.fori_loop`` (a fixed count, so it is
traced as a scan), each trip adding one unit's rank-one term: the statement refuses scans and
fori_loops whatever they loop over.

Problem: hvp_tanh
Expected: RJ forbidden_primitive
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    m = W.shape[0]

    def body(i, acc):
        w = W[i]
        t = jnp.tanh(w @ x)
        return acc + (-2.0 * t * (1 - t * t)) * (w @ v) * w

    return jax.lax.fori_loop(0, m, body, jnp.zeros_like(x))
