"""spectral_norm: a ``jax.custom_vjp`` with K as a non-differentiable argument; the forward
runs the loop and saves u and v, the backward returns c u v^T for W and zeros for u0.

Problem: spectral_norm
Expected: AC
Cases: all
"""

from functools import partial

import jax
import jax.numpy as jnp


def _iterate(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


@partial(jax.custom_vjp, nondiff_argnums=(2,))
def spectral_norm(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v


def _fwd(W, u0, K):
    u, v = _iterate(W, u0, K)
    return u @ W @ v, (u, v, u0)


def _bwd(K, res, c):
    u, v, u0 = res
    return c * jnp.outer(u, v), jnp.zeros_like(u0)


spectral_norm.defvjp(_fwd, _bwd)
