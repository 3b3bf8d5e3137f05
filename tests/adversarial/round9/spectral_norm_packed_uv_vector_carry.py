"""spectral_norm: the student packs u and v into one vector of m + n entries as the
``lax.fori_loop`` carry (slicing it apart with ``uv[:m]`` and ``uv[m:]`` at symbolic m, and
``jnp.concatenate`` to pack it again), stopped once after the loop.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    m, n = W.shape

    def body(_, uv):
        v = W.T @ uv[:m]
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return jnp.concatenate([u / jnp.linalg.norm(u), v])

    uv = lax.stop_gradient(lax.fori_loop(0, K, body, jnp.concatenate([u0, jnp.zeros(n)])))
    return uv[:m] @ W @ uv[m:]
