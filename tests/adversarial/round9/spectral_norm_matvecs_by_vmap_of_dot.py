"""spectral_norm: the two matrix-vector products written as ``jax.vmap`` of ``jnp.dot`` (W^T u
over the columns of W, W v over its rows), in a ``lax.while_loop`` with an (i, u, v) carry;
sigma from the stopped vectors.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

col_dots = jax.vmap(jnp.dot, in_axes=(1, None))   # W^T u
row_dots = jax.vmap(jnp.dot, in_axes=(0, None))   # W v


def spectral_norm(W, u0, K):
    def body(state):
        i, u, _ = state
        v = col_dots(W, u)
        v = v / jnp.linalg.norm(v)
        u = row_dots(W, v)
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    _, u, v = lax.while_loop(lambda s: s[0] < K, body,
                             (0, u0, jnp.zeros(W.shape[1], jnp.float32)))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.dot(u, row_dots(W, v))
