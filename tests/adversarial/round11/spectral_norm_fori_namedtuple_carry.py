"""spectral_norm: ``lax.fori_loop`` carrying a ``NamedTuple`` of u and v.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Pair(NamedTuple):
    u: jax.Array
    v: jax.Array


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, p):
        v = Wc.T @ p.u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return Pair(u / jnp.linalg.norm(u), v)

    p = jax.lax.fori_loop(0, K, step, Pair(u0, jnp.zeros(W.shape[1], W.dtype)))
    return p.u @ W @ p.v
