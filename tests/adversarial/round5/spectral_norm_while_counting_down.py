"""spectral_norm: a ``lax.while_loop`` whose counter starts at K and steps down by one while it
is above 0, K steps in all; the gradient is taken at the iterate through ``stop_gradient`` on W.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        left, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return left - 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda s: s[0] > 0, body, (K, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
