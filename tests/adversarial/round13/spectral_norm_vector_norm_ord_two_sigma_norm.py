"""spectral_norm: vectors normalised by ``jnp.linalg.norm(a, ord=2)`` (of a vector: its
Euclidean norm, no SVD), sigma as ``jnp.linalg.norm(W @ v, 2)`` with v from a loop on the
stopped W (equal to u^T W v, its gradient u v^T).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, uv):
        v = Wc.T @ uv[0]
        v = v / jnp.linalg.norm(v, ord=2)
        u = Wc @ v
        return u / jnp.linalg.norm(u, 2), v

    _, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[-1], W.dtype)))
    return jnp.linalg.norm(W @ v, 2)
