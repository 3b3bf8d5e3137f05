"""spectral_norm: a cheat: v_K is W^T applied to (W W^T)^(K-1) u0, normalised, so the student
takes ``jnp.linalg.matrix_power`` of the Gram matrix (squarings, log_2 K products) with a K-trip
``fori_loop`` beside it that only counts.

Problem: spectral_norm
Expected: RJ
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    G = W @ W.T
    P = jnp.linalg.matrix_power(G, K - 1)
    count = lax.fori_loop(0, K, lambda i, c: c + 1.0, 0.0)
    u = P @ u0
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    u = u / jnp.linalg.norm(u)
    u, v = lax.stop_gradient(u), lax.stop_gradient(v)
    return u @ W @ v + 0.0 * count
