"""spectral_norm: a ``fori_loop`` on the live W, the pair (u, v) stopped by
``jax.tree.map(lax.stop_gradient, ...)`` and sigma as ``jnp.einsum("i,ij,j->", u, W, v)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = jnp.einsum("ij,i->j", W, u)
        v = v / jnp.linalg.norm(v)
        u = jnp.einsum("ij,j->i", W, v)
        return u / jnp.linalg.norm(u), v

    u, v = jax.tree.map(lax.stop_gradient, lax.fori_loop(0, K, step, (u0, jnp.zeros_like(W[0]))))
    return jnp.einsum("i,ij,j->", u, W, v)
