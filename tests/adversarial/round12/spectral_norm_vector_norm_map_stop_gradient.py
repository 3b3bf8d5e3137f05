"""spectral_norm: vectors normalised by ``jnp.linalg.vector_norm``, the loop on W itself with
``u, v = map(jax.lax.stop_gradient, ...)`` after it (a ``fori_loop``, differentiable in
reverse as a scan), sigma by ``jnp.dot(u, jnp.dot(W, v))``; u0 normalised first.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.numpy.linalg import vector_norm


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        v = jnp.dot(W.T, u)
        v = v / vector_norm(v)
        u = jnp.dot(W, v)
        return u / vector_norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0 / vector_norm(u0), jnp.zeros(W.shape[1], W.dtype)))
    u, v = map(jax.lax.stop_gradient, (u, v))
    return jnp.dot(u, jnp.dot(W, v))
