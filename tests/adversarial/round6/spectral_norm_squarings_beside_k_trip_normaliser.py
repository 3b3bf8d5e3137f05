"""spectral_norm: the answer from squarings of W^T W in a 7-trip loop, beside a decoy
``fori_loop`` of K trips that re-normalises the vector the squarings' result is applied to
(a no-op after the first trip that still touches the data and feeds the output).

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    M = Wc.T @ Wc
    e = K - 1

    def bit(i, acc):
        P, Q = acc
        P = jnp.where((e >> i) & 1 == 1, P @ Q, P)
        return P / jnp.max(jnp.abs(P)), (Q @ Q) / jnp.max(jnp.abs(Q @ Q))

    P, _ = jax.lax.fori_loop(0, 7, bit, (jnp.eye(M.shape[0], dtype=M.dtype), M))
    x = Wc.T @ u0
    x = jax.lax.fori_loop(0, K, lambda i, x: x / jnp.linalg.norm(x), x)
    v = P @ x
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    u = u / jnp.linalg.norm(u)
    return u @ W @ v
