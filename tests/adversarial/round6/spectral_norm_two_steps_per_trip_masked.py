"""spectral_norm: two steps to a trip over ceil(K / 2) trips, the second step of the last trip
masked out with ``jnp.where`` when K is odd (the statement allows both).

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def one(u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    def trip(i, uv):
        u, v = one(uv[0])
        u2, v2 = one(u)
        keep = 2 * i + 1 < K
        return jnp.where(keep, u2, u), jnp.where(keep, v2, v)

    u, v = jax.lax.fori_loop(0, (K + 1) // 2, trip, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
