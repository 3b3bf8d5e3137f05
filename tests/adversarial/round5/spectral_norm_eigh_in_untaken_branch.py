"""spectral_norm: a ``lax.cond`` on the data whose other branch takes sigma from
``jnp.linalg.eigh`` of W^T W; the predicate is never true on the cases, but the branch is in
the program.

Problem: spectral_norm
Expected: RJ forbidden_primitive
"""

import jax
import jax.numpy as jnp


def _loop(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jax.lax.stop_gradient(u) @ W @ jax.lax.stop_gradient(v)


def _eig(W, u0, K):
    vals, vecs = jnp.linalg.eigh(jax.lax.stop_gradient(W.T @ W))
    v = vecs[:, -1]
    u = W @ v
    u = jax.lax.stop_gradient(u / jnp.linalg.norm(u))
    return u @ W @ v


def spectral_norm(W, u0, K):
    return jax.lax.cond(jnp.max(jnp.abs(W)) > 100.0, _eig, _loop, W, u0, K)
