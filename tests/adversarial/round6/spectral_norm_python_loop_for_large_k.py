"""spectral_norm: a ``fori_loop`` for K up to 40, and for larger K the steps written out in a
Python loop (a student's "unroll when it is long" reversed): the program at K = 41 to 64 grows
with K, which the judge sees only if it looks at a K in that range.

Problem: spectral_norm
Expected: RJ unrolled_loop
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
    if K <= 40:
        u, v = jax.lax.fori_loop(0, K, lambda i, uv: _step(Wc, uv[0]), (u0, jnp.zeros(W.shape[1])))
    else:
        u, v = u0, None
        for _ in range(K):
            u, v = _step(Wc, u)
    return u @ W @ v
