"""spectral_norm: a ``lax.while_loop`` counting to K // 4 + 1, each trip running a ``lax.scan``
of 16 steps masked past K: 16 steps to a trip where the count holding them runs a trip for every
four.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def chunk(state):
        i, u, v = state

        def step(uv, t):
            u, v = uv
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            real = i * 16 + t < K
            return (jnp.where(real, nu, u), jnp.where(real, nv, v)), None

        (u, v), _ = jax.lax.scan(step, (u, v), jnp.arange(16))
        return i + 1, u, v

    start = (0, u0, jnp.zeros(W.shape[1], W.dtype))
    _, u, v = jax.lax.while_loop(lambda s: s[0] < K // 4 + 1, chunk, start)
    return u @ W @ v
