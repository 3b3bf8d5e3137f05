"""spectral_norm: a student's ``jax.lax.while_loop`` over a carry of (step, u, v), the gradient
of u and v stopped after the loop.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def cond(carry):
        i, _, _ = carry
        return i < K

    def body(carry):
        i, u, _ = carry
        v = W.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = W @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return i + 1, u, v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.dot(u, jnp.dot(W, v))
