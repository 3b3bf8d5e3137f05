"""spectral_norm, honest: the K steps in a ``lax.while_loop`` on W with its gradient stopped, then
sigma = u^T W v; beside it nothing. (A while loop has no reverse mode of its own; with W's
gradient stopped none is needed.)

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(carry):
        i, u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(lambda c: c[0] < K, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
