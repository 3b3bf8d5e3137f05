"""spectral_norm, cheat on "the steps in a loop primitive": the K steps done by a Python
function calling itself K deep (no ``for``), beside a ``scan`` of K trips that only counts;
the traced program grows with K.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _steps(W, u, v, k):
    if k == 0:
        return u, v
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return _steps(W, u / jnp.linalg.norm(u), v, k - 1)


def spectral_norm(W, u0, K):
    count, _ = lax.scan(lambda c, _: (c + 1.0, None), jnp.float32(0.0), length=K)
    u, v = _steps(W, u0, jnp.zeros(W.shape[1], W.dtype), K)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v + 0.0 * count
