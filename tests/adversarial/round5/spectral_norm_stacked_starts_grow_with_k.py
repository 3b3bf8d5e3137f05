"""spectral_norm: a scan over a stack of K copies of u0 built in Python (``jnp.stack([u0] *
K)``): the steps run in a scan, but building its input takes K equations, so the program
grows with K.

Problem: spectral_norm
Expected: RJ
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    starts = jnp.stack([u0 * 1.0 for _ in range(K)])

    def step(carry, _):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return (u / jnp.linalg.norm(u), v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), starts)
    return u @ W @ v
