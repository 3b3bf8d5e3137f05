"""spectral_norm: one half-step per trip, 2K trips of a ``lax.fori_loop``: even trips update v
from u, odd trips u from v, chosen by ``lax.cond`` on the trip's parity. Every trip is real
work; the loop runs twice K times.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x / jnp.sqrt(jnp.sum(x * x))


def spectral_norm(W, u0, K):
    def half(i, uv):
        u, v = uv
        return lax.cond(i % 2 == 0,
                        lambda: (u, _unit(W.T @ u)),
                        lambda: (_unit(W @ v), v))

    u, v = lax.fori_loop(0, 2 * K, half, (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.dot(u, W @ v)
