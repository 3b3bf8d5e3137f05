"""spectral_norm: a ``jax.custom_vjp`` with K as a non-differentiable argument, the forward
rule keeping u and v and the backward rule returning ``g * jnp.outer(u, v)`` (and zeros for
u0); the vectors normalised by ``lax.rsqrt`` of their squared norms.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax


def _iterate(W, u0, K):
    def body(i, carry):
        u, v = carry
        v = W.T @ u
        v = v * lax.rsqrt(jnp.vdot(v, v))
        u = W @ v
        u = u * lax.rsqrt(jnp.vdot(u, u))
        return u, v

    return lax.fori_loop(0, K, body, (u0, jnp.zeros((W.shape[1],), W.dtype)))


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def spectral_norm(W, u0, K):
    u, v = _iterate(W, u0, K)
    return jnp.vdot(u, W @ v)


def _fwd(W, u0, K):
    u, v = _iterate(W, u0, K)
    return jnp.vdot(u, W @ v), (u, v, u0)


def _bwd(K, res, g):
    u, v, u0 = res
    return g * jnp.outer(u, v), jnp.zeros_like(u0)


spectral_norm.defvjp(_fwd, _bwd)
