"""spectral_norm: a ``fori_loop`` of always 64 trips, the steps past K masked out with
``jnp.where``: the right values, but the loop's trips do not grow with K (64 masked steps pad
far more than one trip).

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(i, uv):
        u, v = uv
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        nu = nu / jnp.linalg.norm(nu)
        live = i < K
        return jnp.where(live, nu, u), jnp.where(live, nv, v)

    u, v = jax.lax.fori_loop(0, 64, body, (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
