"""spectral_norm: the power iteration a ``jax.jit`` with ``static_argnames="K"`` returning the
stopped (u, v); sigma outside it on the live W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="K")
def _power(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v /= jnp.linalg.norm(v)
        u = W @ v
        u /= jnp.linalg.norm(u)
        return u, v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros_like(W[0])))
    return jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)


def spectral_norm(W, u0, K):
    u, v = _power(W, u0, K=K)
    return u @ (W @ v)
