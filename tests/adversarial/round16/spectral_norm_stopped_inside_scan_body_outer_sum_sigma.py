"""spectral_norm, honest: each step's vectors stopped inside the ``scan`` body (so nothing the
loop returns carries a derivative), and sigma written as ``jnp.sum(W * jnp.outer(u, v))``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _v = carry
        v = jnp.einsum("ij,i->j", W, u)
        v = lax.stop_gradient(v / jnp.linalg.norm(v))
        u = jnp.einsum("ij,j->i", W, v)
        u = lax.stop_gradient(u / jnp.linalg.norm(u))
        return (u, v), None

    (u, v), _ = lax.scan(step, (u0, jnp.zeros(W.shape[-1:], W.dtype)), length=K)
    return jnp.sum(W * jnp.outer(u, v))
