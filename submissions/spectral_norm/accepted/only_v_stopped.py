"""spectral_norm, honest: stops the gradient of v only and differentiates u through the K steps:
u is a unit vector along W v, so its change is orthogonal to W v and adds nothing, and the
gradient is exactly c u v^T.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ jax.lax.stop_gradient(v)
