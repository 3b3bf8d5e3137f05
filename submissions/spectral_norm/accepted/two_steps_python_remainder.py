"""spectral_norm, honest: two power steps to a trip of fori_loop(0, K // 2), the odd step
written out after the loop under a Python `if K % 2`, stop_gradient at the end.

Expected: AC
"""
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        u, v = _step(W, u)
        return _step(W, u)

    u, v = jax.lax.fori_loop(0, K // 2, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    if K % 2:
        u, v = _step(W, u)
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
