"""spectral_norm: the matrix power (W^T W)^(K-1) by squarings in a ``fori_loop`` of exactly as
many trips as K - 1 has bits (``(K - 1).bit_length()``: 0 at K = 1, 6 at K = 64), so that the trip
count changes with K, and the program is the same for every K. The loop runs log2(K) times, not
K: the K steps never run.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    M = M / jnp.linalg.norm(M)

    def body(i, carry):
        P, R = carry
        R = jnp.where(((K - 1) >> i) & 1 == 1, R @ P, R)
        R = R / jnp.linalg.norm(R)
        P = P @ P
        return P / jnp.linalg.norm(P), R

    _, R = jax.lax.fori_loop(0, (K - 1).bit_length(), body, (M, jnp.eye(W.shape[1], dtype=W.dtype)))
    v = R @ (Wc.T @ u0)
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
