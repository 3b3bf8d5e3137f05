"""spectral_norm: a ``fori_loop`` of K // 8 + 1 trips, each running a fixed ``fori_loop`` of 24
steps masked past K: the first trips run the K steps, the others 24 steps that change nothing;
24 steps to a trip, whatever K is.

Problem: spectral_norm
Expected: RJ unrolled_loop
Closed by: the loop that does the most work per trip may run the K steps and one trip's
  padding (steps_per_trip steps masked past K), its count times those of the loops holding it;
  24 steps at each of K // 8 + 1 trips is 24 at K = 3
"""

import jax
import jax.numpy as jnp

CHUNK = 24


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def chunk(i, uv):
        def step(t, uv):
            u, v = uv
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            real = i * CHUNK + t < K
            return jnp.where(real, nu, u), jnp.where(real, nv, v)

        return jax.lax.fori_loop(0, CHUNK, step, uv)

    u, v = jax.lax.fori_loop(0, K // 8 + 1, chunk, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
