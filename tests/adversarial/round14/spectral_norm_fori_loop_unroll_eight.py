"""spectral_norm: ``lax.fori_loop(0, K, ..., unroll=8)`` (a ``scan`` whose body JAX repeats eight
times when it compiles; the traced program still has one step a trip), on the stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        return u / jnp.linalg.norm(u), v

    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)), unroll=8)
    return u @ W @ v
