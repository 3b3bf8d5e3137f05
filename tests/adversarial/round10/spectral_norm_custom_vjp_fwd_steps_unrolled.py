"""spectral_norm, cheat: the primal function runs the K steps in a ``fori_loop``, but the
``custom_vjp``'s forward rule (run only under differentiation) runs them in a Python loop over
``range(K)``: the function alone is honest, its derivative grows with K.

Problem: spectral_norm
Expected: RJ missing_primitive
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _step(W, uv):
    u, _ = uv
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = jax.lax.fori_loop(0, K, lambda _, uv: _step(W, uv), (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v


def _fwd(W, u0, K):
    uv = (u0, jnp.zeros(W.shape[1]))
    for _ in range(K):
        uv = _step(W, uv)
    u, v = uv
    return u @ W @ v, (u, v, u0)


def _bwd(K, res, g):
    u, v, u0 = res
    return g * jnp.outer(u, v), jnp.zeros_like(u0)


_sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
