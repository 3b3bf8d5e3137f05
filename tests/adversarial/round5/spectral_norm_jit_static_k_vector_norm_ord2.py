"""spectral_norm: the whole function under ``jax.jit`` with K static (``static_argnums``), the
vectors normalised with ``jnp.linalg.norm(v, ord=2)`` (a vector's 2-norm, not a matrix's:
no SVD), u and v held constant with ``stop_gradient`` after the loop.

Problem: spectral_norm
Expected: AC
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def spectral_norm(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v, ord=2)
        u = W @ v
        return u / jnp.linalg.norm(u, ord=2), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros((W.shape[1],), jnp.float32)))
    u, v = jax.lax.stop_gradient((u, v))
    return jnp.sum(u[:, None] * W * v[None, :])
