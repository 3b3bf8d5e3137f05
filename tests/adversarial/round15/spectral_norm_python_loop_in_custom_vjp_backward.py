"""spectral_norm, cheat: the value from an honest ``fori_loop`` of K trips, but the derivative
from a ``custom_vjp`` whose backward rule runs the K steps again in a Python loop over
``range(K)`` to find u and v: the derivative the judge takes grows with K, a Python loop over
the steps the statement refuses "even beside a loop primitive".

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _unit(a):
    return a / jnp.linalg.norm(a)


def _power(W, u, K):
    def body(_, uv):
        v = _unit(W.T @ uv[0])
        return _unit(W @ v), v

    return jax.lax.fori_loop(0, K, body, (u, jnp.zeros(W.shape[1], W.dtype)))


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    return _sigma(W, u0, K), (W, u0)


def _bwd(K, res, c):
    W, u = res
    for _ in range(K):
        v = _unit(W.T @ u)
        u = _unit(W @ v)
    return c * jnp.outer(u, v), jnp.zeros_like(u)


_sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
