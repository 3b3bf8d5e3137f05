"""spectral_norm: a ``fori_loop`` of 2K half steps on the stopped W, each trip one half (v from u
on even trips, u from v on odd ones) picked by ``lax.cond`` on the trip's parity.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Wc = lax.stop_gradient(W)

    def right(uv):
        v = Wc.T @ uv[0]
        return uv[0], v / jnp.linalg.norm(v)

    def left(uv):
        u = Wc @ uv[1]
        return u / jnp.linalg.norm(u), uv[1]

    def half(i, uv):
        return lax.cond(i % 2 == 0, right, left, uv)

    u, v = lax.fori_loop(0, 2 * K, half, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
