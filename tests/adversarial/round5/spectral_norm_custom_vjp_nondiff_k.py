"""spectral_norm: a ``jax.custom_vjp`` with K (and u0) as non-differentiable arguments; the
forward saves u and v and the backward returns c * outer(u, v).

Problem: spectral_norm
Expected: AC
"""

from functools import partial

import jax
import jax.numpy as jnp


def _iterate(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v, (u, v)


def _bwd(K, res, c):
    u, v = res
    return c * jnp.outer(u, v), jnp.zeros_like(u)


_sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
