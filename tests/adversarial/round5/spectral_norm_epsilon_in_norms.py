"""spectral_norm: an epsilon of 1e-3 added to both norms "for safety". The statement asks for
none: every step's u and v fall short of unit length by about 1e-3 / norm, and sigma with them.

Problem: spectral_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp

EPS = 1e-3


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / (jnp.linalg.norm(v) + EPS)
        u = Wc @ v
        return u / (jnp.linalg.norm(u) + EPS), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
