"""spectral_norm, honest: the power iteration run on ``Ws = lax.stop_gradient(W)`` in a
``while_loop``, so the vectors it returns carry no derivative without being stopped
themselves; sigma = u W v with the live W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def body(c):
        k, u, _ = c
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return k - 1, u / jnp.linalg.norm(u), v

    _, u, v = lax.while_loop(lambda c: c[0] > 0, body, (K, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
