"""spectral_norm, honest: the first half step (v from u0) written out, then ``fori_loop(1, K)``
carrying v alone (each trip u from v, then v from u), and the last u recomputed from the
returned v outside the loop; sigma = u W v with both stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(a):
    return a / jnp.sqrt(jnp.sum(a * a))


def spectral_norm(W, u0, K):
    v = _unit(u0 @ W)

    def trip(_, v):
        u = _unit(W @ v)
        return _unit(u @ W)

    v = lax.stop_gradient(lax.fori_loop(1, K, trip, v))
    u = lax.stop_gradient(_unit(W @ v))
    return jnp.dot(u, jnp.dot(W, v))
