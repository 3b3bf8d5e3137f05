"""spectral_norm: sixteen steps written out in each trip of a ``fori_loop`` of ceil(K / 16)
trips, the steps past K masked: the trips grow with K, but with twice the steps to a trip the
statement allows (at most 8), so the loop's body is the K steps unrolled.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def trip(t, uv):
        u, v = uv
        for j in range(16):
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            live = 16 * t + j < K
            u, v = jnp.where(live, nu, u), jnp.where(live, nv, v)
        return u, v

    u, v = jax.lax.fori_loop(0, (K + 15) // 16, trip, (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
