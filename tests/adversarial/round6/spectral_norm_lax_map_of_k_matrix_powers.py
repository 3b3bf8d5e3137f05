"""spectral_norm: the K steps become one ``lax.associative_scan`` of K copies of W^T W under
matrix products (each product rescaled), its last prefix M^K applied to W^T u0 after one
normalisation; a ``lax.map`` over the K copies builds the stack, so a K-trip loop exists but
does none of the steps. No loop runs the steps; the program grows with log K.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def _mul(A, B):
    P = jnp.matmul(A, B)
    return P / jnp.max(jnp.abs(P), axis=(-2, -1), keepdims=True)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    stack = jax.lax.map(lambda k: jnp.where(k > 0, M, jnp.eye(M.shape[0], dtype=M.dtype)), jnp.arange(K))
    P = jax.lax.associative_scan(_mul, stack)[-1]
    v = P @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
