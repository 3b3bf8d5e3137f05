"""spectral_norm, honest: the iteration a ``jax.jit`` function with K in ``static_argnums``,
returning the stopped pair; the vectors normalised by ``jnp.linalg.norm(a, keepdims=True)``
kept as vectors; sigma by ``jnp.sum(u[:, None] * W * v[None, :])``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def _power(W, u0, K):
    def body(_, uv):
        v = W.T @ uv[0]
        v = v / jnp.linalg.norm(v, keepdims=True)
        u = W @ v
        return u / jnp.linalg.norm(u, keepdims=True), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)


def spectral_norm(W, u0, K):
    u, v = _power(W, u0, K)
    return jnp.sum(u[:, None] * W * v[None, :])
