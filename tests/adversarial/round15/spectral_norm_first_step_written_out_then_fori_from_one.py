"""spectral_norm, honest: the first step written out before the loop (from u0), then
``lax.fori_loop(1, K, ...)`` for the other K - 1 (no trip at K = 1); W used stopped inside.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)
    v = _unit(Ws.T @ u0)
    u = _unit(Ws @ v)

    def body(_, uv):
        u, _v = uv
        v = _unit(Ws.T @ u)
        return _unit(Ws @ v), v

    u, v = lax.fori_loop(1, K, body, (u, v))
    return u @ W @ v
