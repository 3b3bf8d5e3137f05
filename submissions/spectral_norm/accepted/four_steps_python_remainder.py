"""spectral_norm, honest: four power steps to a trip of fori_loop(0, K // 4), the K % 4 steps
left written out after the loop under a Python `if K % 4`, stop_gradient at the end. Programs
at two values of K differ by up to three steps written out.

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
        for _ in range(4):
            u, v = _step(W, u)
        return u, v

    u, v = jax.lax.fori_loop(0, K // 4, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    if K % 4:
        for _ in range(K % 4):
            u, v = _step(W, u)
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
