"""spectral_norm: after the loop, sigma written as ``jnp.linalg.norm(W @ v)`` with v stopped
(u = W v / ||W v||, so u^T W v = ||W v||, and its gradient is u v^T), the loop a
``fori_loop`` over stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def step(_, uv):
        u, _v = uv
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return u / jnp.linalg.norm(u), v

    _, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.linalg.norm(W @ jax.lax.stop_gradient(v))
