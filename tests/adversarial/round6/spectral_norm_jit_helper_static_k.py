"""spectral_norm: a module-level ``jax.jit`` helper with ``static_argnums`` for K that returns
the singular vectors, called from the graded function; K passed through ``int(K)`` first.

Problem: spectral_norm
Expected: AC
Cases: all
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def power_iteration(W, u, steps):
    def step(i, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, steps, step, (u, jnp.zeros(W.shape[1], W.dtype)))


def spectral_norm(W, u0, K):
    u, v = power_iteration(jax.lax.stop_gradient(W), u0, int(K))
    return u @ W @ v
