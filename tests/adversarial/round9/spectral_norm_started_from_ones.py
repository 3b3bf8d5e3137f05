"""spectral_norm: a plausible wrong answer: the student starts the iteration from a vector of
ones (a common default) instead of u0; after few steps from a different start the estimate
and the vectors differ.

Problem: spectral_norm
Expected: WA
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = lax.fori_loop(0, K, body, (jnp.ones_like(u0), jnp.zeros(W.shape[1])))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
