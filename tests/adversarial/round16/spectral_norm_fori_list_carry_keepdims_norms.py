"""spectral_norm, honest: a ``fori_loop`` whose carry is a Python list ``[u, v]``, the products
``jnp.dot(u, W)`` (a vector times a matrix) and ``jnp.dot(W, v)``, norms with
``keepdims=True``; sigma from ``jnp.inner``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def body(i, uv):
        u, _v = uv
        v = jnp.dot(u, W)
        v = v / jnp.linalg.norm(v, keepdims=True)
        u = jnp.dot(W, v)
        u = u / jnp.linalg.norm(u, keepdims=True)
        return [u, v]

    u, v = lax.fori_loop(0, K, body, [u0, jnp.zeros(W.shape[1], W.dtype)])
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.inner(u, jnp.dot(W, v))
