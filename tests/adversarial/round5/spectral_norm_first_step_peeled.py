"""spectral_norm: the first step written out before the loop (it also fixes v's shape), the
other K - 1 in a ``fori_loop`` from 1; the program does not grow with K.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u, v = _step(Wc, u0)
    u, v = jax.lax.fori_loop(1, K, lambda _, c: _step(Wc, c[0]), (u, v))
    return u @ W @ v
