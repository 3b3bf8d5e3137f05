"""spectral_norm, wrong: differentiates through the K steps (no stop): the gradient of the
estimate, not u v^T, where the iteration has not converged.

Expected: WA wrong_vjp
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(uv, _):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return (u / jnp.linalg.norm(u), v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K)
    return u @ W @ v
