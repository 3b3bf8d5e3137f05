"""spectral_norm: the power iteration written for a batch of matrices (a library helper) and
called through ``jax.vmap`` on a batch of one, ``W[None]``: the fori_loop becomes a batched
while; u and v are stopped after the loop.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _power(W, u0, K):
    def step(_, uv):
        u, _v = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return lax.stop_gradient(u), lax.stop_gradient(v)


def spectral_norm(W, u0, K):
    us, vs = jax.vmap(lambda w, u: _power(w, u, K))(W[None], u0[None])
    return us[0] @ W @ vs[0]
