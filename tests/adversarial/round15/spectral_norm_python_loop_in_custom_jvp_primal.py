"""spectral_norm, cheat: sigma a ``custom_jvp`` whose primal function runs the K steps in a
Python loop (the program grows with K inside the rule's body), its tangent rule computing the
derivative from a ``fori_loop`` of K trips that stands beside it: a loop primitive is there,
but the steps the value comes from are written out.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _unit(a):
    return a / jnp.linalg.norm(a)


@partial(jax.custom_jvp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u = u0
    for _ in range(K):
        v = _unit(W.T @ u)
        u = _unit(W @ v)
    return u @ W @ v


@_sigma.defjvp
def _sigma_jvp(K, primals, tangents):
    W, u0 = primals
    dW, _ = tangents

    def body(_, uv):
        v = _unit(W.T @ uv[0])
        return _unit(W @ v), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return _sigma(W, u0, K), u @ dW @ v


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
