"""spectral_norm: a ``fori_loop`` of K // 8 + 1 trips holding a fixed ``fori_loop`` of 3 trips
that holds a fixed ``fori_loop`` of 8 steps masked past K: 24 steps to a trip of the loop that
tracks K, split between two fixed loops so that neither holds more than 8.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def chunk(i, uv):
        def third(j, uv):
            def step(t, uv):
                u, v = uv
                nv = Wc.T @ u
                nv = nv / jnp.linalg.norm(nv)
                nu = Wc @ nv
                nu = nu / jnp.linalg.norm(nu)
                real = i * 24 + j * 8 + t < K
                return jnp.where(real, nu, u), jnp.where(real, nv, v)

            return jax.lax.fori_loop(0, 8, step, uv)

        return jax.lax.fori_loop(0, 3, third, uv)

    u, v = jax.lax.fori_loop(0, K // 8 + 1, chunk, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
