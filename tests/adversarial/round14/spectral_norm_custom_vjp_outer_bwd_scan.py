"""spectral_norm: a ``jax.custom_vjp`` with K in ``nondiff_argnums``: the forward rule runs the
power iteration in a ``lax.scan`` (``xs=None``, ``length=K``) and keeps (u, v); the backward
rule gives ``c * jnp.outer(u, v)`` for W and zeros for u0.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def _power(W, u0, K):
    def step(carry, _):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return (u / jnp.linalg.norm(u), v), None

    (u, v), _ = lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), xs=None, length=K)
    return u, v


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v


def _sigma_fwd(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v, (u, v, u0)


def _sigma_bwd(K, res, c):
    u, v, u0 = res
    return c * jnp.outer(u, v), jnp.zeros_like(u0)


_sigma.defvjp(_sigma_fwd, _sigma_bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
