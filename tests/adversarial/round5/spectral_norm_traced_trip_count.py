"""spectral_norm: K turned into an array before the loop (``jnp.asarray(K)``), so
``fori_loop`` lowers to a ``while`` whose trip count is a traced value; the gradient is taken
at the iterate through ``stop_gradient`` on W.

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
        v = v * jax.lax.rsqrt(jnp.sum(v ** 2))
        u = Wc @ v
        return u * jax.lax.rsqrt(jnp.sum(u ** 2)), v

    u, v = jax.lax.fori_loop(0, jnp.asarray(K, jnp.int32), step, (u0, jnp.zeros(W.shape[1], jnp.float32)))
    return u @ W @ v
