"""spectral_norm: a ``fori_loop`` over ``(u, v)`` on the stopped W, and sigma as
``jnp.linalg.multi_dot([u, W, v])`` of the stopped vectors with the live W (its gradient u v^T).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return u / jnp.linalg.norm(u), v

    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.linalg.multi_dot([u, W, v])
