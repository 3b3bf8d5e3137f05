"""spectral_norm: u0 made of unit norm by a fixed ``fori_loop`` of two trips (a light one), then
the K steps in a ``fori_loop``: the loop doing the most work runs K times.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u0 = jax.lax.fori_loop(0, 2, lambda i, u: u / jnp.sqrt(u @ u), u0)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
