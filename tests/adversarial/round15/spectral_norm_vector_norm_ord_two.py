"""spectral_norm, honest: the vectors normalised by ``jnp.linalg.norm(a, ord=2)`` (of a vector,
the Euclidean norm, no SVD), a ``scan`` over ``jnp.zeros(K)``, the pair stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(uv, _):
        v = W.T @ uv[0]
        v = v / jnp.linalg.norm(v, ord=2)
        u = W @ v
        return (u / jnp.linalg.norm(u, ord=2), v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), jnp.zeros(K))
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
