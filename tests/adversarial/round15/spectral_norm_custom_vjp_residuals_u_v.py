"""spectral_norm, honest: a ``custom_vjp`` with K in ``nondiff_argnums``, the forward rule keeping
the last step's u and v as residuals, the backward rule ``c * jnp.outer(u, v)`` for W and zeros
for u0; the loop a ``while_loop`` on the step count.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def _power(W, u0, K):
    def body(c):
        i, u, _ = c
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = lax.while_loop(lambda c: c[0] < K, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u, v


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def sigma(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    u, v = _power(W, u0, K)
    return u @ W @ v, (u, v, u0)


def _bwd(K, res, c):
    u, v, u0 = res
    return c * jnp.outer(u, v), jnp.zeros_like(u0)


sigma.defvjp(_fwd, _bwd)


def spectral_norm(W, u0, K):
    return sigma(W, u0, K)
