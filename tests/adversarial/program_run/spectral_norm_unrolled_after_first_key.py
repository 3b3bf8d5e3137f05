"""spectral_norm: Python state across traces. K differs between cases, so each K's program is
traced on its own: the first is the honest fori_loop, every later one unrolls the K steps in
Python beside a scan that only counts.

Problem: spectral_norm
Expected: RJ
"""

import jax
import jax.numpy as jnp

_calls = []


def _step(Wc, u):
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    _calls.append(K)
    Wc = jax.lax.stop_gradient(W)
    if len(_calls) == 1:
        u, v = jax.lax.fori_loop(0, K, lambda _, c: _step(Wc, c[0]), (u0, jnp.zeros(W.shape[1], W.dtype)))
    else:
        u, v = u0, jnp.zeros(W.shape[1], W.dtype)
        for _ in range(K):
            u, v = _step(Wc, u)
        u = u + 0.0 * jax.lax.fori_loop(0, K, lambda i, c: c + 1.0, jnp.float32(0.0))
    return u @ W @ v
