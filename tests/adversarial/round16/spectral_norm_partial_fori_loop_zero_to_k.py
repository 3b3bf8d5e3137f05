"""spectral_norm, honest: the loop bound into ``functools.partial(lax.fori_loop, 0, K)`` and the
body taking ``W`` through a second ``partial``; u and v stopped with ``jax.tree.map``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def _step(W, _, uv):
    u, _v = uv
    v = jnp.matmul(W.T, u)
    v = v / jnp.linalg.vector_norm(v)
    u = jnp.matmul(W, v)
    return u / jnp.linalg.vector_norm(u), v


def spectral_norm(W, u0, K):
    power = partial(lax.fori_loop, 0, K)
    u, v = power(partial(_step, W), (u0, jnp.zeros_like(W[0])))
    u, v = jax.tree.map(lax.stop_gradient, (u, v))
    return jnp.vdot(u, W @ v)
