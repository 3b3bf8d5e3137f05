"""spectral_norm, honest: ``lax.fori_loop(0, K, ..., unroll=2)`` over a carry ``(u, v)``, the body
calling a helper that returns a tuple, sigma by ``jnp.vdot`` with the pair stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _normalise(a):
    return a / jnp.sqrt(jnp.sum(a * a))


def _step(W, u):
    v = _normalise(W.T @ u)
    return _normalise(W @ v), v


def spectral_norm(W, u0, K):
    u, v = lax.fori_loop(0, K, lambda i, c: _step(W, c[0]), (u0, jnp.zeros(W.shape[1], W.dtype)),
                         unroll=2)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
