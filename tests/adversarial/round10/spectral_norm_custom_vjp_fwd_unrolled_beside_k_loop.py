"""spectral_norm, cheat: as a ``custom_vjp`` whose primal runs the K steps in a ``fori_loop``, but
whose forward rule (what the judge's ``jax.vjp`` runs) computes u and v in a Python loop over
``range(K)``, with a ``fori_loop`` of K trips beside it whose result is averaged in, so the
derivative's program has a loop primitive and still grows with K.

Problem: spectral_norm
Expected: RJ unrolled_loop
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


def _loop(W, u0, K):
    return jax.lax.fori_loop(0, K, lambda _, uv: _step(W, uv), (u0, jnp.zeros(W.shape[1])))


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _loop(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    uv = (u0, jnp.zeros(W.shape[1]))
    for _ in range(K):
        uv = _step(W, uv)
    lu, lv = _loop(W, u0, K)
    u, v = 0.5 * (uv[0] + lu), 0.5 * (uv[1] + lv)
    return u @ W @ v, (u, v, u0)


def _bwd(K, res, g):
    u, v, u0 = res
    return g * jnp.outer(u, v), jnp.zeros_like(u0)


_sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
