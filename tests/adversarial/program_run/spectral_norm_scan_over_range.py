"""spectral_norm, honest: the K steps as ``lax.scan`` over ``jnp.arange(K)`` with
``jnp.linalg.vector_norm``, the gradient through u^T W v with u and v held constant by
``lax.stop_gradient``.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(u, _):
        v = W.T @ u
        v = v / jnp.linalg.vector_norm(v)
        u = W @ v
        return u / jnp.linalg.vector_norm(u), v

    u, vs = jax.lax.scan(step, u0, jnp.arange(K))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(vs[-1])
    return u @ W @ v
