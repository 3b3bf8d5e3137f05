"""spectral_norm: a ``lax.while_loop`` whose counter is a float (``i + 1.0`` while below K):
the count is read from its whole-number start, step and bound.

Problem: spectral_norm
Expected: AC
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
        return i + 1.0, u / jnp.linalg.norm(u), v

    start = (jnp.float32(0.0), u0, jnp.zeros(W.shape[1], W.dtype))
    _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body, start)
    return u @ W @ v
