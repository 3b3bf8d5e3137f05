"""spectral_norm: a ``lax.while_loop`` from ``jnp.int16(1)`` while ``i <= K`` (steps numbered
from one, as in the statement's "K times").

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] <= K, body,
                                 (jnp.int16(1), u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
