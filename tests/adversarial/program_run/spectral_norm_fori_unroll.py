"""spectral_norm, honest: the reference's fori_loop with ``unroll=2`` (K is a number, so the loop
is a scan; unroll only tells the compiler how many steps go in one iteration).

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)), unroll=2)
    return u @ W @ v
