"""spectral_norm, cheat: a ``custom_jvp`` whose primal runs the K steps in a ``lax.scan`` while the
JVP rule, which the judge's ``jax.vjp`` linearises, recomputes u and v in a Python loop over
``range(K)``.

Problem: spectral_norm
Expected: RJ missing_primitive
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    def body(u, _):
        u, v = _step(W, u)
        return u, v
    u, vs = jax.lax.scan(body, u0, None, length=K)
    return u @ W @ vs[-1]


@_sigma.defjvp
def _sigma_jvp(K, primals, tangents):
    W, u0 = primals
    dW, _ = tangents
    u = u0
    for _ in range(K):
        u, v = _step(W, u)
    return u @ W @ v, u @ dW @ v


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
