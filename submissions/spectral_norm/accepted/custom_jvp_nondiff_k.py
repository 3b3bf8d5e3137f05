"""spectral_norm, honest: jax.custom_jvp with K among nondiff_argnums, u0 among the primals (its
tangent ignored), norms as jnp.linalg.norm(x, 2) of a vector (no SVD: a vector's 2-norm).

Expected: AC
"""
from functools import partial

import jax
import jax.numpy as jnp


def _uv(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v, 2)
        u = W @ v
        return u / jnp.linalg.norm(u, 2), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


@partial(jax.custom_jvp, nondiff_argnums=(2,))
def _sigma(W, u0, K):
    u, v = _uv(W, u0, K)
    return u @ W @ v


@_sigma.defjvp
def _sigma_jvp(K, primals, tangents):
    W, u0 = primals
    dW, _ = tangents
    u, v = _uv(W, u0, K)
    return u @ W @ v, u @ dW @ v


def spectral_norm(W, u0, K):
    return _sigma(W, u0, K)
