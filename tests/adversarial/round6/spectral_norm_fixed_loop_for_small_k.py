"""spectral_norm: for K up to 8 a fixed ``fori_loop`` of 8 trips with the steps past K masked,
the plain K-trip loop above 8. Below 8 the trip count does not track K, but the steps run past
K are at most 7, fewer than one trip of 8 steps masked past K pads (which the statement
allows): the work is within what an allowed program does, and the steps are the K asked for.

Problem: spectral_norm
Expected: AC
Cases: all
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
    init = (u0, jnp.zeros(W.shape[1]))
    if K <= 8:
        def masked(i, uv):
            nu, nv = _step(Wc, uv[0])
            return jnp.where(i < K, nu, uv[0]), jnp.where(i < K, nv, uv[1])
        u, v = jax.lax.fori_loop(0, 8, masked, init)
    else:
        u, v = jax.lax.fori_loop(0, K, lambda i, uv: _step(Wc, uv[0]), init)
    return u @ W @ v
