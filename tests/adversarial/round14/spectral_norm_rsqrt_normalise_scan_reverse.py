"""spectral_norm: a ``lax.scan`` with ``xs=None``, ``length=K`` and ``reverse=True`` (the trips
are the same K steps), each vector normalised by ``lax.rsqrt`` of its squared norm; sigma from
the stopped vectors.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x * lax.rsqrt(jnp.dot(x, x))


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _ = carry
        v = _unit(jnp.dot(W.T, u))
        return (_unit(jnp.dot(W, v)), v), None

    (u, v), _ = lax.scan(step, (u0, jnp.zeros((W.shape[1],), jnp.float32)), None, length=K,
                         reverse=True)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return jnp.dot(u, jnp.dot(W, v))
