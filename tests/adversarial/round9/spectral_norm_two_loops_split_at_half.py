"""spectral_norm: the K steps split between two ``lax.fori_loop``s, K // 2 trips and then the
rest (a student who logs the estimate halfway), the second loop starting from the first one's
vectors; one step is a helper, sigma from the stopped vectors.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    first = K // 2
    u, v = lax.fori_loop(0, first, lambda i, c: _step(W, c[0]), (u0, jnp.zeros(W.shape[1])))
    u, v = lax.fori_loop(first, K, lambda i, c: _step(W, c[0]), (u, v))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v
