"""spectral_norm: a hand-written ``lax.while_loop`` that runs while ``K - i > 0``, the counter on
the right of a difference: the count is read from it as from ``i < K``.

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
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: K - s[0] > 0, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
